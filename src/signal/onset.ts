/**
 * Exercise onset from one gas signal (VO2 first) when neither markers nor a work rate place it.
 *
 * A test is found by its sustained rise, never by the first rise anywhere: rest is noisy, it can
 * start low while the subject settles on the mouthpiece, and it can step up to unloaded pedalling.
 * The onset is then the departure from the level that this rise leaves, read two ways whose
 * errors fall on opposite kinds of protocol, and the earlier is kept:
 * - the departure itself: the last point preceded by a minute in which the signal was never
 *   lower by a tenth of the rise. Exact for a step or a quick treadmill start, late on a ramp,
 *   where VO2 first creeps up (it follows a ramp with a mean response time of 30-45 s: Whipp et
 *   al., J Appl Physiol 1981);
 * - the rise line: least squares of up to two flat levels (rest, warm-up) then a line up to half
 *   the rise. Close on a ramp, late on a held first stage, which it reads as a level.
 * A level shorter than a minute at the very start of the record is not a rest: VO2 may simply
 * not have answered yet to exercise begun at the first sample. The onset is then fitted as the
 * start of a first-order response to a ramp or a step in demand (time constant 40 s, the middle
 * of the 30-45 s above; Whipp et al. 1981, 1982).
 */
import { centeredTimeMean, quantile } from './smooth.js';
import { resampleUniform, type UniformSeries } from './resample.js';

/** Where exercise starts, s, and which reading placed it. */
export interface GasOnset {
  t_s: number;
  how: 'departure' | 'rise line' | 'response fit';
}

/** Smoothing of the signal, s (the same 30 s as the VO2peak window). */
const SMOOTHING_S = 30;
/** The rise a test makes: a quarter of the way from the lowest level to the peak, held a minute. */
const RISE_FRACTION = 0.25;
const RISE_HELD_S = 60;
/** A departure: the signal never lower by this fraction of the rise over the preceding minute. */
const DEPARTURE_FRACTION = 0.1;
const LEVEL_S = 60;
/** Grid of the least-squares fits, s: fine against the tens of seconds of physiological lag. */
const GRID_S = 5;
/** Shortest level at the start of a record read as rest; shorter, exercise may have begun at once. */
const MIN_REST_S = 60;
/** First-order time constant of VO2 used to fit an onset at the record start, s (Whipp et al. 1981, 1982). */
const RESPONSE_TAU_S = 40;

/** The onset of the exercise whose rise leads to the peak of `values`; null when there is no such rise. */
export function gasOnset(t_s: readonly number[], values: readonly (number | null)[], interval_s = 0): GasOnset | null {
  const sm = centeredTimeMean(t_s, values, SMOOTHING_S);
  let p = -1;
  for (let i = 0; i < sm.length; i++) if (Number.isFinite(sm[i]) && (p < 0 || sm[i] > sm[p])) p = i;
  if (p < 0) return null;
  let low = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= p; i++) if (Number.isFinite(sm[i]) && sm[i] < low) low = sm[i];
  const rise = sm[p] - low;
  if (!(rise > 0)) return null;
  const risen = sustainedRise(t_s, sm, p, low + RISE_FRACTION * rise);
  let half = p;
  for (let i = 0; i <= p; i++) {
    if (sm[i] >= low + 0.5 * rise) {
      half = i;
      break;
    }
  }
  const line = riseLine(t_s, sm, half);
  const departure = departureS(t_s, sm, risen, DEPARTURE_FRACTION * rise);
  const earlier: GasOnset = line !== null && line < departure ? { t_s: line, how: 'rise line' } : { t_s: departure, how: 'departure' };
  if (earlier.t_s - t_s[0] >= MIN_REST_S) return earlier;
  const fitted = responseStart(t_s, values, earlier.t_s, t_s[risen] + RISE_HELD_S, Math.max(GRID_S, interval_s));
  return fitted === null ? earlier : { t_s: fitted, how: 'response fit' };
}

/** Index of the first sample from which the smoothed signal stays at or above `level` for RISE_HELD_S; else the peak. */
function sustainedRise(t: readonly number[], sm: Float64Array, p: number, level: number): number {
  for (let i = 0; i <= p; i++) {
    if (!(sm[i] >= level)) continue;
    let held = true;
    for (let j = i; j <= p && t[j] <= t[i] + RISE_HELD_S; j++) {
      if (sm[j] < level) {
        held = false;
        break;
      }
    }
    if (held) return i;
  }
  return p;
}

/**
 * Walking back from the rise: the last sample preceded by a minute in which the smoothed signal
 * was never lower by `drop`, i.e. the end of the level the rise left. The departure lies between
 * it and the next sample (their midpoint: exact for breaths, half a bin for averaged data).
 */
function departureS(t: readonly number[], sm: Float64Array, risen: number, drop: number): number {
  // lowest[i]: the minimum of the smoothed signal from sample i up to the rise.
  const lowest = new Float64Array(risen + 1);
  let run = Number.POSITIVE_INFINITY;
  for (let i = risen; i >= 0; i--) {
    if (Number.isFinite(sm[i]) && sm[i] < run) run = sm[i];
    lowest[i] = run;
  }
  let foot = 0;
  let j = risen;
  for (let i = risen; i >= 0; i--) {
    while (j > 0 && t[j - 1] >= t[i] - LEVEL_S) j--;
    if (lowest[j] >= lowest[i] - drop) {
      foot = i;
      break;
    }
  }
  return foot + 1 < t.length ? (t[foot] + t[foot + 1]) / 2 : t[foot];
}

/**
 * Time the rise to sample `p` begins: least squares of up to two flat levels (rest, warm-up)
 * followed by a line up to p, searched on a grid of GRID_S over the smoothed signal; null when too short.
 */
function riseLine(t: readonly number[], sm: Float64Array, p: number): number | null {
  const dt = Math.max(GRID_S, rawStep(t, p));
  const { ts, ys } = definedPoints(resampleUniform(t.slice(0, p + 1), Array.from(sm.subarray(0, p + 1)), dt, { t0_s: t[0] }));
  const n = ys.length;
  if (n < 10) return null;
  const yMean = ys.reduce((a, b) => a + b, 0) / n;
  // Prefix sums of centred values and times, for O(1) segment fits.
  const sy = new Float64Array(n + 1);
  const syy = new Float64Array(n + 1);
  const st = new Float64Array(n + 1);
  const stt = new Float64Array(n + 1);
  const sty = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const y = ys[i] - yMean;
    const x = ts[i] - ts[0];
    sy[i + 1] = sy[i] + y;
    syy[i + 1] = syy[i] + y * y;
    st[i + 1] = st[i] + x;
    stt[i + 1] = stt[i] + x * x;
    sty[i + 1] = sty[i] + x * y;
  }
  const flatSse = (a: number, b: number): number => {
    const m = b - a;
    const s1 = sy[b] - sy[a];
    return syy[b] - syy[a] - (s1 * s1) / m;
  };
  const lineSse = (a: number, b: number): number => {
    const m = b - a;
    const sX = st[b] - st[a];
    const sY = sy[b] - sy[a];
    const sxx = stt[b] - stt[a] - (sX * sX) / m;
    const sxy = sty[b] - sty[a] - (sX * sY) / m;
    const syyC = syy[b] - syy[a] - (sY * sY) / m;
    return sxx > 0 ? syyC - (sxy * sxy) / sxx : syyC;
  };
  const minPts = 3;
  let best = -1;
  let bestSse = Number.POSITIVE_INFINITY;
  for (let k2 = minPts; k2 <= n - minPts; k2++) {
    // The part before the rise: one level, or the best two (rest then warm-up).
    let pre = flatSse(0, k2);
    for (let k1 = minPts; k1 <= k2 - minPts; k1++) pre = Math.min(pre, flatSse(0, k1) + flatSse(k1, k2));
    const sse = pre + lineSse(k2, n);
    if (sse < bestSse) {
      bestSse = sse;
      best = k2;
    }
  }
  return best < 0 ? null : ts[best];
}

/** The grid points that hold a value (a gap in the record resamples to NaN), as times and values. */
function definedPoints(grid: UniformSeries): { ts: number[]; ys: number[] } {
  const ts: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < grid.values.length; i++) {
    if (Number.isFinite(grid.values[i])) {
      ts.push(grid.t0_s + i * grid.dt_s);
      ys.push(grid.values[i]);
    }
  }
  return { ts, ys };
}

/** Median spacing of the first p + 1 sample times, s. */
function rawStep(t: readonly number[], p: number): number {
  const d: number[] = [];
  for (let i = 1; i <= p && i < t.length; i++) d.push(t[i] - t[i - 1]);
  return d.length ? quantile(d, 0.5) : 0;
}

/**
 * Start of a first-order response (RESPONSE_TAU_S) to a ramp or a step in demand, from a level,
 * fitted by least squares to the raw signal between the record start and `until_s`; the start is
 * searched from the first sample to `latest_s`. Null when no rising fit exists.
 */
function responseStart(t: readonly number[], values: readonly (number | null)[], latest_s: number, until_s: number, dt: number): number | null {
  const { ts, ys } = definedPoints(resampleUniform(t, values, dt, { t0_s: t[0], t_end_s: until_s }));
  const m = ys.length;
  if (m < 4) return null;
  const tau = RESPONSE_TAU_S;
  const shapes = [(u: number) => u - tau * (1 - Math.exp(-u / tau)), (u: number) => 1 - Math.exp(-u / tau)];
  let best: number | null = null;
  let bestRss = Number.POSITIVE_INFINITY;
  for (let c = t[0]; c <= latest_s; c += GRID_S) {
    for (const shape of shapes) {
      // Level + gain x shape(t - c): two-parameter least squares in closed form.
      let sx = 0;
      let sxx = 0;
      let sy = 0;
      let sxy = 0;
      let syy = 0;
      for (let r = 0; r < m; r++) {
        const x = shape(Math.max(0, ts[r] - c));
        sx += x;
        sxx += x * x;
        sy += ys[r];
        sxy += x * ys[r];
        syy += ys[r] * ys[r];
      }
      const det = m * sxx - sx * sx;
      if (!(det > 0)) continue;
      const gain = (m * sxy - sx * sy) / det;
      if (!(gain > 0)) continue;
      const level = (sy - gain * sx) / m;
      const rss = syy - level * sy - gain * sxy;
      if (rss < bestRss) {
        bestRss = rss;
        best = c;
      }
    }
  }
  return best;
}
