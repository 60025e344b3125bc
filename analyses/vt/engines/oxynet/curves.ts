/**
 * The Oxynet CNN (Zignoli et al., Eur J Sport Sci 2022) as the service reads it: per-second domain
 * probabilities on the prepared 1-Hz grid, for a decision rule to place thresholds on.
 *
 * The windows are what the model was trained on (upstream.ts upstreamSeries: a 20-breath mean of
 * breath-by-breath data, 1-Hz interpolation, min-max scaling per channel), with three choices of our
 * own:
 * - a series a cart already averaged or interpolated gets the same smoothing in time: a centred mean
 *   over the seconds 20 breaths took there (from the breathing frequency), so a 2-s or 10-s export
 *   reaches the model as smooth as a breath-by-breath one (pyoxynet passes such series on as they are);
 *   a card naming `preprocessing.averaged_smoothing: breaths` reads it through the breath-by-breath
 *   smoothing itself instead, over breaths laid at the breathing rate (breath-mean.ts);
 * - the span ends at the 30-s VO2 peak, so recovery never enters the scaling or the windows (the
 *   labelled tests pyoxynet ships end at exhaustion);
 * - the columns keep the meaning the card fixes instead of being reassigned per test from its first
 *   and last rows (that reassignment flips on a test that ends soon after VT2).
 * Each row describes the second `row_time_offset_s` after its window's start (the card says why).
 *
 * The three outputs m, h, s are independent sigmoids (the heavy output stays high in severe windows,
 * the moderate one lingers into heavy, the severe one is often high at rest), so they are not read as
 * one distribution but as two nested steps, which are what the thresholds are: beyond moderate with
 * probability b, and, beyond moderate, severe with probability q; moderate = 1 - b, heavy = b (1 - q),
 * severe = b q, summing to one. The card names how b and q come from the outputs (`output_reading`):
 * - `entered_domain`: each from the output of the domain it enters, b = h and q = s (a threshold is
 *   where the model becomes confident of the new domain);
 * - `pairwise`: from the pairs pyoxynet's rule compares, b = h / (m + h) and q = s / (h + s).
 */
import { channel, type Recording } from '../../../../src/recording/recording.js';
import type { AveragedSmoothing, CompensationSearch } from '../../card.js';
import type { DomainCurves } from '../../decision/curves.js';
import { type ScalingRange, SCALING_RANGES } from '../../card.js';
import { endCompensation } from '../../decision/end-compensation.js';
import { exerciseEndIndex } from '../../exercise-end.js';
import type { PreparedTest } from '../../preprocess.js';
import type { RegisteredModel } from '../../registry.js';
import { InferenceError } from '../onnx-session.js';
import { breathingRate, breathMean, type RateSource } from './breath-mean.js';
import { BREATH_FILTER_SIZE, upstreamSeries, type OneHzSeries } from './upstream.js';
import { referenceRanges } from './reference-range.js';
import { minMaxScale, OXYNET_CHANNELS, rangeScale, WINDOW_S } from './windows.js';

/** Runs the model on the windows at `starts` of the five scaled series: outputs [windows, 3], row-major (run.ts, shared-run.ts). */
export type RunWindows = (channels: readonly Float64Array[], starts: readonly number[]) => Promise<Float32Array>;

/** What the card fixes about reading the model (`preprocessing` of a card whose engine is oxynet-cnn). */
export interface OxynetReading {
  /** Seconds between window starts. */
  stride_s: number;
  /** The second a row describes, counted from its window's start. */
  row_time_offset_s: number;
  /** Which output column holds which domain. */
  output_columns: { moderate: number; heavy: number; severe: number };
  /** How the two nested steps are read from the outputs (see the header). */
  output_reading: 'entered_domain' | 'pairwise';
  /**
   * How the last WINDOW_S seconds are read. Absent or `none`: they are not (the last row describes the
   * start of the last full window). `edge_padded`: windows keep starting every stride_s seconds up to
   * the last second, their missing seconds holding the last second's values, and the span runs on from
   * the VO2 peak to the last second of exercise (exercise-end.ts), so the curves reach the last breath.
   */
  tail?: 'none' | 'edge_padded';
  /** The range each channel is scaled over (card.ts scalingRangeOf); absent: the measured span. */
  scaling_range?: ScalingRange;
}

/** The reading a card names; throws an InferenceError when it is missing or malformed. */
export function readingOf(model: RegisteredModel): OxynetReading {
  const p = model.card.preprocessing as Partial<OxynetReading> | undefined;
  const cols = p?.output_columns;
  const valid =
    p !== undefined &&
    Number.isInteger(p.stride_s) &&
    (p.stride_s as number) >= 1 &&
    Number.isFinite(p.row_time_offset_s) &&
    cols !== undefined &&
    [cols.moderate, cols.heavy, cols.severe].sort().join() === '0,1,2' &&
    (p.output_reading === 'entered_domain' || p.output_reading === 'pairwise') &&
    (p.tail === undefined || p.tail === 'none' || p.tail === 'edge_padded') &&
    (p.scaling_range === undefined || (SCALING_RANGES as readonly unknown[]).includes(p.scaling_range));
  if (!valid)
    throw new InferenceError(
      `model ${model.card.name} ${model.card.version}: its card does not fix stride_s, row_time_offset_s, output_columns and output_reading (and tail, if named, is none or edge_padded; scaling_range, if named, one of ${SCALING_RANGES.join(', ')})`,
    );
  return p as OxynetReading;
}

export interface OxynetCurves {
  curves: DomainCurves;
  /** Windows run, and the grid index of the last second a row describes (later seconds are NaN). */
  windows: number;
  last_index: number;
  /** Windows that run past the span's last second and hold its values there (tail `edge_padded`). */
  padded_windows: number;
  /** With scaling_range reference_tail: the compensation second that anchored the range (null: none, the measured range). */
  scaling_compensation_s: number | null;
  input: string;
  /** Where the breathing rate of an averaged series read through `breaths` came from. */
  breathing_rate?: RateSource;
}

/** Breathing frequency assumed where a recording has none, breaths/min: a mid-exercise rate. */
const DEFAULT_RF_PER_MIN = 30;
/** Bounds of the 20-breath span in time, s (60 breaths/min at the fastest, 15 at the slowest). */
const SPAN_BOUNDS_S: readonly [number, number] = [20, 80];

/**
 * A centred mean over the seconds `BREATH_FILTER_SIZE` breaths take around each second, the breathing
 * frequency read from the recording's RF (interpolated to the series' seconds) or assumed.
 */
function breathSpanMean(series: OneHzSeries, rec: Recording): Float64Array[] {
  const rf = channel(rec, 'RF');
  // The series' seconds rise, so the sample in force only moves forward: one pass over the recording.
  let k = 0;
  const at = (t: number): number => {
    if (!rf) return DEFAULT_RF_PER_MIN;
    while (k + 1 < rec.t_s.length && rec.t_s[k + 1] <= t) k++;
    const v = rf[k];
    return v !== null && v > 0 ? v : DEFAULT_RF_PER_MIN;
  };
  const n = series.time_s.length;
  const half = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const span = Math.min(SPAN_BOUNDS_S[1], Math.max(SPAN_BOUNDS_S[0], (BREATH_FILTER_SIZE * 60) / at(series.time_s[i])));
    half[i] = Math.round(span / 2);
  }
  return series.channels.map((c) => {
    const prefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + c[i];
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const lo = Math.max(0, i - half[i]);
      const hi = Math.min(n - 1, i + half[i]);
      out[i] = (prefix[hi + 1] - prefix[lo]) / (hi - lo + 1);
    }
    return out;
  });
}

/**
 * The respiratory compensation the end-of-test gases show (end-compensation.ts, from the exercise onset to
 * `spanEnd`: over its last 180 s, or with `whole_test` over all of it, as VT1 is not known yet), as an index of
 * the series' seconds from..to; null when they show none.
 */
function compensationIndex(test: PreparedTest, onset: number, spanEnd: number, time_s: ArrayLike<number>, from: number, to: number, search: CompensationSearch): number | null {
  const found = endCompensation(test, onset, spanEnd - test.t0_s, 'clear_petco2_first', search).index;
  if (found === null) return null;
  let k = from;
  while (k < to && time_s[k] < test.t0_s + found) k++;
  return k - from;
}

/** The series with its last value repeated `extra` more times. */
function edgePadded(values: Float64Array, extra: number): Float64Array {
  const out = new Float64Array(values.length + extra);
  out.set(values);
  out.fill(values[values.length - 1], values.length);
  return out;
}

/** Runs the model over the span and returns per-second curves on the test's grid. */
export async function oxynetCurves(
  runWindows: RunWindows,
  rec: Recording,
  test: PreparedTest,
  reading: OxynetReading,
  onset: number,
  smoothing: AveragedSmoothing = 'time_span',
  search: CompensationSearch = 'last_180_s',
): Promise<OxynetCurves> {
  const raw = upstreamSeries(rec);
  const rate = raw.input !== 'breath_by_breath' && smoothing === 'breaths' ? breathingRate(raw, rec) : null;
  const series: OneHzSeries = raw.input === 'breath_by_breath' ? raw : { ...raw, channels: rate ? breathMean(raw, rate.rate_per_min) : breathSpanMean(raw, rec) };
  // Series seconds inside the analysed span [t0_s, t0_s + end_index]; a reading of the tail runs on to the last second of exercise.
  const spanEnd = test.t0_s + (reading.tail === 'edge_padded' ? exerciseEndIndex(rec, test) : test.end_index);
  let from = 0;
  while (from < series.time_s.length && series.time_s[from] < test.t0_s) from++;
  let to = series.time_s.length - 1;
  while (to >= from && series.time_s[to] > spanEnd) to--;
  const length = to - from + 1;
  if (length < WINDOW_S + reading.stride_s) throw new Error(`the span holds ${length} s of all five channels; the model needs at least ${WINDOW_S + reading.stride_s}`);
  const padded = reading.tail === 'edge_padded';
  // Scaling reads the measured span only; the padding repeats its last second, so it never moves the range.
  const measured = series.channels.map((c) => c.subarray(from, to + 1));
  const compensation = reading.scaling_range === 'reference_tail' ? compensationIndex(test, onset, spanEnd, series.time_s, from, to, search) : null;
  const ranges = reading.scaling_range === 'reference_tail' ? referenceRanges(measured, compensation) : null;
  const scaled = measured
    .map((c, i) => (ranges ? rangeScale(c, ranges[i][0], ranges[i][1], OXYNET_CHANNELS[i]) : minMaxScale(c, OXYNET_CHANNELS[i])))
    .map((c) => (padded ? edgePadded(c, WINDOW_S - 1) : c));
  const starts: number[] = [];
  for (let s = 0; s + WINDOW_S <= length; s += reading.stride_s) starts.push(s);
  const full = starts.length;
  if (padded) for (let s = (starts.at(-1) as number) + reading.stride_s; s < length; s += reading.stride_s) starts.push(s);
  const out = await runWindows(scaled, starts);
  const rowTime = starts.map((s) => series.time_s[from + s] + reading.row_time_offset_s);

  const n = test.n;
  const curves: DomainCurves = { moderate: new Float64Array(n).fill(NaN), heavy: new Float64Array(n).fill(NaN), severe: new Float64Array(n).fill(NaN) };
  const { moderate: cm, heavy: ch, severe: cs } = reading.output_columns;
  const pairwise = reading.output_reading === 'pairwise';
  let r = 0;
  let lastIndex = -1;
  for (let i = 0; i < n; i++) {
    const t = test.t0_s + i;
    if (t > rowTime[rowTime.length - 1]) break;
    while (r + 1 < rowTime.length && rowTime[r + 1] <= t) r++;
    // Before the first row the first row's reading holds; between rows, linear.
    const w = t <= rowTime[0] || r + 1 >= rowTime.length ? 0 : (t - rowTime[r]) / (rowTime[r + 1] - rowTime[r]);
    const row = 3 * r;
    const next = row + 3;
    const m = out[row + cm] * (1 - w) + (w > 0 ? out[next + cm] * w : 0);
    const h = out[row + ch] * (1 - w) + (w > 0 ? out[next + ch] * w : 0);
    const s = out[row + cs] * (1 - w) + (w > 0 ? out[next + cs] * w : 0);
    const beyond = pairwise ? (m + h > 0 ? h / (m + h) : 0) : h;
    const q = pairwise ? (h + s > 0 ? s / (h + s) : 0) : s;
    curves.moderate[i] = 1 - beyond;
    curves.heavy[i] = beyond * (1 - q);
    curves.severe[i] = beyond * q;
    lastIndex = i;
  }
  return {
    curves,
    windows: starts.length,
    last_index: lastIndex,
    padded_windows: starts.length - full,
    scaling_compensation_s: compensation === null ? null : series.time_s[from + compensation],
    input: series.input,
    ...(rate ? { breathing_rate: rate.source } : {}),
  };
}
