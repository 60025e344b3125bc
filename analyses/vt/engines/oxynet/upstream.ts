/**
 * pyoxynet's own pipeline around the Oxynet CNN (Zignoli et al., Eur J Sport Sci 2022), as the
 * upstream web app runs it (`tf_lite_model_inference`; `test_pyoxynet` is the same at stride 1):
 * 1. preprocessing to a 1-Hz series, 2. min-max scaling per channel over the whole test,
 * 3. 40-s windows from index 1 at a fixed stride, all run in one batch, 4. the `optimal_filter`
 * smoother (lambda 100) over the per-row outputs and VO2, 5. the column assignment rule, and
 * 6. the VT rule with its 40-s shift. It reproduces the upstream figures; it is not the service's
 * decision rule (the vt plugin decides how to use the curves).
 *
 * Input kind, decided from `rec.sampling.method`:
 * - `breath_by_breath` (e.g. the Exercise Threshold App JSON): upstream's breath loader, a moving
 *   mean over 20 breaths with 'reflect' edges, per breath, then linear interpolation onto the
 *   whole seconds trunc(t0), trunc(t0) + 1, ... < trunc(t_last) (np.arange, so the last second
 *   is dropped; np.interp holds the end values outside the breaths).
 * - anything else (averaged or unknown sampling, e.g. the 1-Hz pyoxynet CSV): no breath filter; linear
 *   interpolation onto the whole seconds ceil(t0) .. floor(t_last), both included, which is
 *   upstream's resample-to-1-s step and, for a series already on whole seconds, the identity
 *   (pyoxynet reads its CSV columns as they are).
 * Only samples where all five channels are present are used (upstream frames have no gaps).
 * Times are the recording's own `t_s`: a format that shifted a negative start to zero (the ETA
 * JSON starts at -240 s) reports thresholds on the shifted clock. Breaths the parser dropped as
 * duplicate times are not in the moving mean (upstream keeps them; README.md says what that changes).
 */
import type * as ort from 'onnxruntime-node';
import { channel, type Recording } from '../../../../src/recording/recording.js';
import { optimalFilter } from './optimal-filter.js';
import { runOxynet } from './run.js';
import { uniformFilterReflect } from './uniform-filter.js';
import { buildWindows, minMaxScale, OXYNET_CHANNELS, WINDOW_S } from './windows.js';

/** Breaths in upstream's moving mean of breath-by-breath data. */
export const BREATH_FILTER_SIZE = 20;
/** Lambda of upstream's optimal_filter on the outputs and on VO2. */
export const SMOOTHING_LAMBDA = 100;
/** Window stride of the upstream web app (test_pyoxynet uses 1). */
export const APP_STRIDE = 2;
/** Rows averaged at each end to tell the moderate and severe columns apart. */
const END_ROWS = 5;

export type InputKind = 'breath_by_breath' | 'averaged';

/** The 1-Hz series the windows are cut from, in the recording's time base. */
export interface OneHzSeries {
  input: InputKind;
  /** Whole seconds of `t_s`. */
  time_s: Float64Array;
  /** VO2, VCO2, VE, PetO2, PetCO2 on `time_s`, unscaled (mL/min, mL/min, L/min, mmHg, mmHg). */
  channels: Float64Array[];
  /** Samples of the recording used (all five channels present) and skipped. */
  samples_used: number;
  samples_skipped: number;
}

/** Which output column holds which domain. */
export interface ColumnAssignment {
  moderate: number;
  heavy: number;
  severe: number;
}

export type UpstreamThreshold = { found: true; time_s: number; vo2_ml_min: number; row: number } | { found: false; reason: 'no_crossing' | 'crossing_within_first_window' };

export interface UpstreamResult {
  input: InputKind;
  stride: number;
  columns: ColumnAssignment;
  /** Per output row: time (window start + 40 s, on `t_s`), smoothed probabilities by domain, smoothed VO2. */
  rows: {
    time_s: Float64Array;
    moderate: Float64Array;
    heavy: Float64Array;
    severe: Float64Array;
    vo2_ml_min: Float64Array;
  };
  /** The raw sigmoid outputs [rows, 3] in the model's own column order. */
  outputs: Float32Array;
  vt1: UpstreamThreshold;
  vt2: UpstreamThreshold;
  samples_used: number;
  samples_skipped: number;
}

/** np.interp: linear interpolation at x of increasing samples (t, v), holding the end values outside them. */
export function interpolate(t: ArrayLike<number>, v: ArrayLike<number>, x: Float64Array): Float64Array {
  const out = new Float64Array(x.length);
  let j = 0;
  for (let k = 0; k < x.length; k++) {
    const xk = x[k];
    if (xk <= t[0]) out[k] = v[0];
    else if (xk >= t[t.length - 1]) out[k] = v[v.length - 1];
    else {
      while (t[j + 1] <= xk) j++;
      out[k] = v[j] + ((v[j + 1] - v[j]) / (t[j + 1] - t[j])) * (xk - t[j]);
    }
  }
  return out;
}

/** 1. The recording as upstream's loaders would give it: five channels on whole seconds. */
export function upstreamSeries(rec: Recording): OneHzSeries {
  const columns = OXYNET_CHANNELS.map((name) => {
    const values = channel(rec, name);
    if (!values) throw new Error(`the recording has no ${name}`);
    return values;
  });
  const keep: number[] = [];
  for (let i = 0; i < rec.t_s.length; i++) {
    let all = true;
    for (const c of columns) {
      const v = c[i];
      if (v === null || !Number.isFinite(v)) {
        all = false;
        break;
      }
    }
    if (all) keep.push(i);
  }
  if (keep.length < 2) throw new Error('fewer than two samples hold all five channels');
  const t = new Float64Array(keep.length);
  for (let k = 0; k < keep.length; k++) t[k] = rec.t_s[keep[k]];
  const input: InputKind = rec.sampling.method === 'breath_by_breath' ? 'breath_by_breath' : 'averaged';
  const first = input === 'breath_by_breath' ? Math.trunc(t[0]) : Math.ceil(t[0]);
  const end = input === 'breath_by_breath' ? Math.trunc(t[t.length - 1]) : Math.floor(t[t.length - 1]) + 1;
  const time_s = new Float64Array(Math.max(end - first, 0));
  for (let k = 0; k < time_s.length; k++) time_s[k] = first + k;
  const channels = columns.map((c) => {
    const values = new Float64Array(keep.length);
    for (let k = 0; k < keep.length; k++) values[k] = c[keep[k]] as number;
    return interpolate(t, input === 'breath_by_breath' ? uniformFilterReflect(values, BREATH_FILTER_SIZE) : values, time_s);
  });
  return { input, time_s, channels, samples_used: keep.length, samples_skipped: rec.t_s.length - keep.length };
}

function argmax(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/**
 * 5. The app's column rule on the smoothed outputs: moderate = the largest mean over the first 5
 * rows, severe = the largest over the last 5, heavy = the remaining column; when moderate and
 * severe coincide, heavy is the later of the other two in column order.
 */
export function assignColumns(smoothed: readonly Float64Array[]): ColumnAssignment {
  const n = smoothed[0].length;
  const mean = (from: number, to: number) => smoothed.map((col) => col.slice(from, to).reduce((a, b) => a + b, 0) / (to - from));
  const moderate = argmax(mean(0, Math.min(END_ROWS, n)));
  const severe = argmax(mean(Math.max(n - END_ROWS, 0), n));
  const others = [0, 1, 2].filter((c) => c !== moderate && c !== severe);
  return { moderate, heavy: others[others.length - 1], severe };
}

/**
 * 6. The app's VT rule: VT1 at the first row where heavy >= moderate, VT2 at the last row where
 * severe <= heavy, each moved back int(40 / stride) rows (the window start of the crossing row).
 * Upstream returns 0 when nothing matches and lets a negative row wrap to the end; both are
 * reported here as not found, with the reason.
 */
function thresholdAt(rows: number[], shift: number, time: Float64Array, vo2: Float64Array, pick: 'first' | 'last'): UpstreamThreshold {
  if (rows.length === 0) return { found: false, reason: 'no_crossing' };
  const row = (pick === 'first' ? rows[0] : rows[rows.length - 1]) - shift;
  if (row < 0) return { found: false, reason: 'crossing_within_first_window' };
  return { found: true, time_s: Math.trunc(time[row]), vo2_ml_min: vo2[row], row };
}

/** Runs the whole upstream pipeline on a recording with an Oxynet session; `stride` 2 is the web app's. */
export async function upstreamThresholds(rec: Recording, session: ort.InferenceSession, stride = APP_STRIDE): Promise<UpstreamResult> {
  if (!Number.isInteger(stride) || stride < 1) throw new Error(`stride ${stride} is not a positive integer`);
  const series = upstreamSeries(rec);
  // 2. Min-max over the whole 1-Hz test.
  const scaled = series.channels.map((c, i) => minMaxScale(c, OXYNET_CHANNELS[i]));
  // 3. Windows start at 1 (not 0) and stop before N - 40, as upstream's loop does.
  const starts: number[] = [];
  for (let i = 1; i < series.time_s.length - WINDOW_S; i += stride) starts.push(i);
  if (starts.length < 2) throw new Error(`a ${series.time_s.length}-s series gives ${starts.length} windows; at least two are needed`);
  const outputs = await runOxynet(session, buildWindows(scaled, starts), starts.length);
  const time = Float64Array.from(starts, (i) => series.time_s[i] + WINDOW_S);
  const vo2Raw = Float64Array.from(starts, (i) => series.channels[0][i + WINDOW_S - 1]);
  // 4. Smooth each output column and VO2 over the row times.
  const smoothed = [0, 1, 2].map((k) =>
    optimalFilter(
      time,
      Float64Array.from(starts, (_, r) => outputs[3 * r + k]),
      SMOOTHING_LAMBDA,
    ),
  );
  const vo2 = optimalFilter(time, vo2Raw, SMOOTHING_LAMBDA);
  const columns = assignColumns(smoothed);
  const [md, hv, sv] = [smoothed[columns.moderate], smoothed[columns.heavy], smoothed[columns.severe]];
  const shift = Math.trunc(WINDOW_S / stride);
  const heavyReached: number[] = [];
  const severeBelow: number[] = [];
  for (let r = 0; r < starts.length; r++) {
    if (hv[r] >= md[r]) heavyReached.push(r);
    if (sv[r] <= hv[r]) severeBelow.push(r);
  }
  return {
    input: series.input,
    stride,
    columns,
    rows: { time_s: time, moderate: md, heavy: hv, severe: sv, vo2_ml_min: vo2 },
    outputs,
    vt1: thresholdAt(heavyReached, shift, time, vo2, 'first'),
    vt2: thresholdAt(severeBelow, shift, time, vo2, 'last'),
    samples_used: series.samples_used,
    samples_skipped: series.samples_skipped,
  };
}
