/**
 * Respiratory compensation read from the gases over the end of a test, for a VT2 that falls where a
 * learned engine's curves have too few seconds left to cross (many real tests stop 20-30 s after VT2).
 *
 * Three signs of the respiratory compensation point (Beaver, Wasserman & Whipp, J Appl Physiol 1986;
 * Whipp, Davis & Wasserman, Respir Physiol 1989): VE/VCO2 starts to rise, PetCO2 starts to fall, and
 * VE steepens against VCO2. Each is a continuous two-segment (hinge) least-squares fit over the end of
 * the test whose break may sit as little as MIN_AFTER_S before the last second; a sign is accepted when
 * its slope turns the right way and the hinge explains a clear share of what one straight line leaves.
 * VT2 is the median of the accepted breaks when at least two accept and agree within AGREE_S.
 */
import type { CompensationSearch } from '../card.js';
import type { PreparedTest } from '../preprocess.js';
import { bestKnotsBySums, det3 } from './hinge-sums.js';

/** Seconds after a break the fit needs: enough for a 21-s smoothed signal to turn. */
export const MIN_AFTER_S = 15;
/** Knots the sums rank best that a long stretch refits directly (hinge-sums.ts). */
const REFIT_KNOTS = 16;
/** Seconds before a break, so the first segment is a line and not a point. */
const MIN_BEFORE_S = 30;
/** The stretch of the end of the test searched (search `last_180_s`), s. */
const SPAN_S = 180;
/** Share of a single line's residual the hinge must remove for the sign to count. */
const MIN_EXPLAINED = 0.5;
/** Accepted breaks farther apart than this are not the same event. */
export const AGREE_S = 45;
/**
 * Share of a single line's residual a PetCO2 fall must remove to place the compensation alone (reading
 * `clear_petco2_first`): well above MIN_EXPLAINED, so only an unmistakable fall stands without a second sign.
 */
export const CLEAR_PETCO2_EXPLAINED = 0.8;

/**
 * How the signs place the compensation: `two_agreeing` (gandalf v1.2.0, v1.3.0) needs two accepted signs
 * within AGREE_S; `clear_petco2_first` takes a PetCO2 fall that explains CLEAR_PETCO2_EXPLAINED of a line's
 * residual on its own, then two agreeing signs, then a PetCO2 turn down in the last LATE_S seconds, accepted or
 * not (the end of isocapnic buffering is where PetCO2 starts to fall: Whipp, Davis & Wasserman 1989).
 */
export type CompensationReading = 'two_agreeing' | 'clear_petco2_first';
/** A break at most this long before the last second (twice MIN_AFTER_S) is read as late (`clear_petco2_first`). */
export const LATE_S = 2 * MIN_AFTER_S;

export interface CompensationSign {
  sign: 'VE/VCO2 rises' | 'PetCO2 falls' | 'VE steepens against VCO2';
  /** Grid index of the break, null when the span is too short for a fit. */
  index: number | null;
  accepted: boolean;
  why: string;
}

export interface EndCompensation {
  /** Grid index of VT2, null when fewer than two signs accept and agree (and, read `clear_petco2_first`, PetCO2 falls unclearly). */
  index: number | null;
  /** What placed it, said only by the `clear_petco2_first` reading. */
  placed_by?: 'a clear PetCO2 fall' | 'a late PetCO2 fall' | 'two signs agreeing';
  /** The searched stretch, grid indices. */
  span: [number, number];
  signs: CompensationSign[];
}

interface Hinge {
  k: number;
  slopeBefore: number;
  slopeAfter: number;
  explained: number;
}

/** Residual sum of squares of the least-squares fit y = a + b x + c max(0, x - xk) over [lo, hi], with its slopes. */
function hingeFit(x: ArrayLike<number>, y: ArrayLike<number>, lo: number, hi: number, k: number): { sse: number; b: number; c: number } {
  // Normal equations of three regressors (1, x, h), solved by Cramer's rule: small, exact enough at these scales.
  const xk = x[k];
  let n = 0,
    sx = 0,
    sh = 0,
    sxx = 0,
    sxh = 0,
    shh = 0,
    sy = 0,
    sxy = 0,
    shy = 0;
  // Where x is at or below the knot, h is 0 and its terms add zeros: skipping them leaves every sum's bits as they were.
  for (let i = lo; i <= hi; i++) {
    const xi = x[i] - xk;
    const yi = y[i];
    n++;
    sx += xi;
    sxx += xi * xi;
    sy += yi;
    sxy += xi * yi;
    if (xi > 0) {
      sh += xi;
      sxh += xi * xi;
      shh += xi * xi;
      shy += xi * yi;
    }
  }
  const d = det3(n, sx, sh, sx, sxx, sxh, sh, sxh, shh);
  if (!(Math.abs(d) > 1e-12)) return { sse: Infinity, b: 0, c: 0 };
  const a0 = det3(sy, sx, sh, sxy, sxx, sxh, shy, sxh, shh) / d;
  const b = det3(n, sy, sh, sx, sxy, sxh, sh, shy, shh) / d;
  const c = det3(n, sx, sy, sx, sxx, sxy, sh, sxh, shy) / d;
  let sse = 0;
  for (let i = lo; i <= hi; i++) {
    const xi = x[i] - xk;
    const line = a0 + b * xi;
    const r = y[i] - (xi > 0 ? line + c * xi : line);
    sse += r * r;
  }
  return { sse, b, c };
}

/** Residual sum of squares of one straight line over [lo, hi]. */
function lineSse(x: ArrayLike<number>, y: ArrayLike<number>, lo: number, hi: number): number {
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    sxy = 0;
  for (let i = lo; i <= hi; i++) {
    n++;
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  const den = n * sxx - sx * sx;
  const b = den > 0 ? (n * sxy - sx * sy) / den : 0;
  const a = (sy - b * sx) / n;
  let sse = 0;
  for (let i = lo; i <= hi; i++) {
    const r = y[i] - a - b * x[i];
    sse += r * r;
  }
  return sse;
}

/**
 * The best hinge over [lo, hi] with its break at least MIN_BEFORE_S after lo and MIN_AFTER_S before hi. Up to SPAN_S
 * (every stretch `last_180_s` reads) each knot is fitted afresh; a longer stretch (`whole_test`) finds its knot from
 * sums (hinge-sums.ts), whose cost does not grow with the square of the stretch, and refits the REFIT_KNOTS best directly.
 */
function bestHinge(x: ArrayLike<number>, y: ArrayLike<number>, lo: number, hi: number): Hinge | null {
  const line = lineSse(x, y, lo, hi);
  const hinge = (k: number, f: { sse: number; b: number; c: number }): Hinge => ({ k, slopeBefore: f.b, slopeAfter: f.b + f.c, explained: line > 0 ? 1 - f.sse / line : 0 });
  const knots = hi - lo > SPAN_S ? bestKnotsBySums(x, y, lo, hi, lo + MIN_BEFORE_S, hi - MIN_AFTER_S, REFIT_KNOTS).sort((a, b) => a - b) : null;
  let best: Hinge | null = null;
  let bestSse = Infinity;
  const count = knots === null ? hi - MIN_AFTER_S - (lo + MIN_BEFORE_S) + 1 : knots.length;
  for (let j = 0; j < count; j++) {
    const k = knots === null ? lo + MIN_BEFORE_S + j : knots[j];
    const f = hingeFit(x, y, lo, hi, k);
    if (f.sse < bestSse) {
      bestSse = f.sse;
      best = hinge(k, f);
    }
  }
  return best;
}

function judge(sign: CompensationSign['sign'], h: Hinge | null, turnsUp: boolean): CompensationSign {
  if (h === null) return { sign, index: null, accepted: false, why: `the span is shorter than ${MIN_BEFORE_S + MIN_AFTER_S} s` };
  const turned = turnsUp ? h.slopeAfter > h.slopeBefore && h.slopeAfter > 0 : h.slopeAfter < h.slopeBefore && h.slopeAfter < 0;
  const clear = h.explained >= MIN_EXPLAINED;
  const why = !turned
    ? `the slope does not turn ${turnsUp ? 'upwards' : 'downwards'} at the break`
    : !clear
      ? `the break explains ${Math.round(100 * h.explained)} % of a straight line's residual, below ${Math.round(100 * MIN_EXPLAINED)} %`
      : `slope turns ${turnsUp ? 'up' : 'down'}; the break explains ${Math.round(100 * h.explained)} % of a straight line's residual`;
  return { sign, index: h.k, accepted: turned && clear, why };
}

/** The three signs' best hinges over [lo, hi]: VE/VCO2, PetCO2, VE against VCO2 (null each when the span is too short). */
type SignHinges = readonly [Hinge | null, Hinge | null, Hinge | null];

/**
 * Fits already made per prepared test and span: the scaling range (engines/oxynet/curves.ts) and the decision
 * read the same span of the same test, and the fits are most of what either pays (a PreparedTest is never mutated).
 */
const fitted = new WeakMap<PreparedTest, Map<string, SignHinges>>();

/** The grid's seconds and VE/VCO2 over [0, hi] and on to the test's end: each span reads a prefix of the same values. */
const series = new WeakMap<PreparedTest, { time: Float64Array; ratio: Float64Array }>();

function seriesOf(test: PreparedTest, hi: number): { time: Float64Array; ratio: Float64Array } {
  const known = series.get(test);
  if (known && known.time.length > hi) return known;
  const n = Math.max(test.n, hi + 1);
  const time = new Float64Array(n);
  const ratio = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = i;
    ratio[i] = test.vco2[i] > 0 ? (1000 * test.ve[i]) / test.vco2[i] : 0;
  }
  const made = { time, ratio };
  series.set(test, made);
  return made;
}

function signHinges(test: PreparedTest, lo: number, hi: number): SignHinges {
  const spans = fitted.get(test) ?? new Map<string, SignHinges>();
  fitted.set(test, spans);
  const key = `${lo}:${hi}`;
  const known = spans.get(key);
  if (known) return known;
  const { time, ratio } = seriesOf(test, hi);
  const fits = hi - lo >= MIN_BEFORE_S + MIN_AFTER_S;
  const hinges: SignHinges = fits ? [bestHinge(time, ratio, lo, hi), bestHinge(time, test.petco2, lo, hi), bestHinge(test.vco2, test.ve, lo, hi)] : [null, null, null];
  spans.set(key, hinges);
  return hinges;
}

/**
 * Respiratory compensation over [from, end] (grid indices). `last_180_s` (gandalf up to v1.4.0) reads at most
 * SPAN_S before end. `whole_test` reads the whole stretch [wholeFrom, end] first (from VT1, where isocapnic
 * buffering starts): PetCO2 and VE/VCO2 hold steady through isocapnic buffering and change from the
 * compensation point on (Whipp, Davis & Wasserman 1989), so a fit over the whole stretch has the steady part as
 * its first segment and breaks where it ends. Over the last SPAN_S alone, a test that ran on minutes past the
 * compensation leaves only the change itself, whose slope keeps steepening: the fit breaks at a later
 * steepening, which it accepts or not by the noise the file carries (analyses/vt/README.md, "Averaged
 * exports"). Where the whole stretch places none (a test stopped within seconds of the compensation, whose
 * steady stretch outweighs the few seconds of change), the last SPAN_S are read as before.
 */
export function endCompensation(
  test: PreparedTest,
  from: number,
  end: number,
  reading: CompensationReading = 'two_agreeing',
  search: CompensationSearch = 'last_180_s',
  wholeFrom = from,
): EndCompensation {
  const whole = search === 'whole_test' ? readOver(test, Math.max(0, wholeFrom), end, reading) : null;
  return whole !== null && whole.index !== null ? whole : readOver(test, Math.max(0, from, end - SPAN_S), end, reading);
}

/** Respiratory compensation over [lo, hi] as `reading` places it. */
function readOver(test: PreparedTest, lo: number, hi: number, reading: CompensationReading): EndCompensation {
  const [ratio, petco2, steepening] = signHinges(test, lo, hi);
  const signs: CompensationSign[] = [judge('VE/VCO2 rises', ratio, true), judge('PetCO2 falls', petco2, false), judge('VE steepens against VCO2', steepening, true)];
  if (reading === 'clear_petco2_first' && signs[1].accepted && (petco2 as Hinge).explained >= CLEAR_PETCO2_EXPLAINED) {
    return { index: (petco2 as Hinge).k, span: [lo, hi], signs, placed_by: 'a clear PetCO2 fall' };
  }
  const accepted = signs
    .filter((s) => s.accepted)
    .map((s) => s.index as number)
    .sort((a, b) => a - b);
  let index: number | null = null;
  if (accepted.length >= 2) {
    const median = accepted.length % 2 ? accepted[accepted.length >> 1] : Math.round((accepted[accepted.length / 2 - 1] + accepted[accepted.length / 2]) / 2);
    const agreeing = accepted.filter((k) => Math.abs(k - median) <= AGREE_S);
    if (agreeing.length >= 2) index = median;
  }
  if (reading === 'two_agreeing') return { index, span: [lo, hi], signs };
  if (index !== null) return { index, span: [lo, hi], signs, placed_by: 'two signs agreeing' };
  // A break LATE_S or less before the last second has too few seconds after it to explain MIN_EXPLAINED of a
  // line's residual, however clearly PetCO2 turns down: with no two signs agreeing, such a turn is the compensation.
  if (petco2 !== null && hi - petco2.k <= LATE_S && petco2.slopeAfter < petco2.slopeBefore && petco2.slopeAfter < 0) {
    return { index: petco2.k, span: [lo, hi], signs, placed_by: 'a late PetCO2 fall' };
  }
  return { index: null, span: [lo, hi], signs };
}
