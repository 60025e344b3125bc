/**
 * An averaged export read through the smoothing breath-by-breath data get (upstream.ts: pyoxynet's
 * 20-breath moving mean with 'reflect' edges, each breath at its end, then 1-Hz interpolation), for a
 * card naming `preprocessing.averaged_smoothing: breaths`. The export's 1-Hz series is cut into the
 * breaths the subject took: one after another at the breathing rate, each holding the series' mean
 * over its duration and stamped at its end, as a cart writes a breath. The 20-breath mean then spans
 * the breaths, not seconds, so it lags and widens as the breath-by-breath one does when the rate
 * changes.
 *
 * The rate, by what the export gives: its RF (carts write BF into every averaged row); else VE over
 * tidal volume (VE = RF x VT by definition); else an estimate from VE alone (`estimatedRate`).
 */
import { channel, type Recording } from '../../../../src/recording/recording.js';
import { BREATH_FILTER_SIZE, interpolate, type OneHzSeries } from './upstream.js';
import { uniformFilterReflect } from './uniform-filter.js';
import { OXYNET_CHANNELS } from './windows.js';

/** Where the breathing rate came from. */
export type RateSource = 'RF' | 'VE/VT' | 'estimated_from_VE';

/** Bounds of the rate, breaths/min (the bounds the time-span mean puts on its 20-breath span). */
const RATE_BOUNDS_PER_MIN: readonly [number, number] = [15, 60];

/** The samples of `values` (and their times) that are finite and positive. */
function positive(t: readonly number[], values: readonly (number | null)[]): { t: number[]; v: number[] } {
  const out = { t: [] as number[], v: [] as number[] };
  for (let i = 0; i < t.length; i++) {
    const v = values[i];
    if (v !== null && Number.isFinite(v) && v > 0) {
      out.t.push(t[i]);
      out.v.push(v);
    }
  }
  return out;
}

/**
 * Breaths/min on the series' seconds: from RF, else from VE / VT, else estimated; two samples at least
 * are needed for a source to count.
 */
export function breathingRate(series: OneHzSeries, rec: Recording): { rate_per_min: Float64Array; source: RateSource } {
  const clamp = (r: Float64Array) => r.map((v) => Math.min(RATE_BOUNDS_PER_MIN[1], Math.max(RATE_BOUNDS_PER_MIN[0], v)));
  const rf = positive(rec.t_s, channel(rec, 'RF') ?? []);
  if (rf.t.length >= 2) return { rate_per_min: clamp(interpolate(rf.t, rf.v, series.time_s)), source: 'RF' };
  const ve = channel(rec, 'VE');
  const vt = channel(rec, 'VT');
  if (ve && vt) {
    const ratio = positive(
      rec.t_s,
      ve.map((v, i) => (v !== null && vt[i] !== null && (vt[i] as number) > 0 ? v / (vt[i] as number) : null)),
    );
    if (ratio.t.length >= 2) return { rate_per_min: clamp(interpolate(ratio.t, ratio.v, series.time_s)), source: 'VE/VT' };
  }
  return { rate_per_min: clamp(estimatedRate(series.channels[OXYNET_CHANNELS.indexOf('VE')])), source: 'estimated_from_VE' };
}

/** Tidal volume where it levels off in maximal incremental exercise, L (Gallagher, Brown & Younes, J Appl Physiol 1987: 2.93 +/- 0.17 L). */
const PLATEAU_TIDAL_VOLUME_L = 2.93;

/**
 * Breathing frequency where nothing in the export gives it, breaths/min, from VE (L/min) on the 1-Hz
 * series: VE over the tidal volume at which ventilation rises by rate alone (Gallagher et al. 1987).
 * Below that plateau the true tidal volume is smaller, so this is the slowest rate VE allows; the
 * rate bounds hold it at 15 breaths/min or more at rest.
 */
export function estimatedRate(ve_l_min: Float64Array): Float64Array {
  return ve_l_min.map((ve) => ve / PLATEAU_TIDAL_VOLUME_L);
}

/**
 * The channels of a 1-Hz series, each through a `BREATH_FILTER_SIZE`-breath moving mean over breaths
 * laid at `rate_per_min`, interpolated back onto the series' seconds (ends held, as np.interp does).
 */
export function breathMean(series: OneHzSeries, rate_per_min: Float64Array): Float64Array[] {
  const t = series.time_s;
  const n = t.length;
  // Breath ends: where the cumulative count of breaths (the rate held over each second) reaches a whole number.
  const ends: number[] = [t[0]];
  let count = 0;
  for (let j = 0; j + 1 < n; j++) {
    const perS = rate_per_min[j] / 60;
    const next = count + perS * (t[j + 1] - t[j]);
    for (let k = Math.floor(count) + 1; k <= next; k++) ends.push(t[j] + (k - count) / perS);
    count = next;
  }
  if (ends.length < 2) return series.channels.map((c) => Float64Array.from(c));
  const stamps = ends.slice(1);
  return series.channels.map((c) => {
    // Integral of the piecewise-linear series from t[0], at each second, for the mean over a breath.
    const area = new Float64Array(n);
    for (let j = 1; j < n; j++) area[j] = area[j - 1] + ((c[j - 1] + c[j]) / 2) * (t[j] - t[j - 1]);
    const integral = (x: number): number => {
      const j = Math.min(n - 2, Math.max(0, Math.floor(x - t[0])));
      const f = x - t[j];
      return area[j] + c[j] * f + ((c[j + 1] - c[j]) * f * f) / 2;
    };
    const breaths = stamps.map((end, k) => (integral(end) - integral(ends[k])) / (end - ends[k]));
    return interpolate(stamps, Array.from(uniformFilterReflect(breaths, BREATH_FILTER_SIZE)), t);
  });
}
