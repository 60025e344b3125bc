/**
 * The windows substrate rates are computed over: exercise only (warm-up kept, since it is a real
 * intensity; rest and recovery dropped), then one window per protocol stage (the mean of its last
 * part, where the steady state is) or, without stages, fixed clock bins.
 */
import { phasesOf, protocolOf } from '../../src/signal/phases.js';
import type { Recording } from '../../src/recording/recording.js';
import type { SubstrateOptions } from './options.js';
import type { Span } from './protocol.js';

/** Mean gas exchange over one window. */
export interface RawWindow {
  t_start_s: number;
  t_end_s: number;
  vo2_l_min: number;
  vco2_l_min: number;
  /** Mean work rate (W) when the recording has a usable Load; null otherwise. */
  load_w: number | null;
  /** Samples with both VO2 and VCO2 inside the window. */
  n_samples: number;
}

/** Where the analysed span starts. */
export type Onset = 'end of warm-up' | 'start of the incremental part after a warm-up bout' | 'start of a loaded warm-up' | 'exercise start' | 'recording start';

/** The span analysed and what was left out of it. */
export interface ExerciseSpan {
  span: Span;
  /** Phases left out, each as `name (start-end s)`. */
  dropped: string[];
  onset: Onset;
  /** False when no phase could be told: the whole recording is used. */
  phases_found: boolean;
}

/** Highest mean work rate (W) of a warm-up read as unloaded pedalling; ergometers idle at 0-20 W. */
const UNLOADED_MAX_W = 20;

/**
 * Exercise from its onset, from the shared phase detection. Unloaded pedalling (a warm-up whose
 * VO2 plateau is the baseline the sustained rise leaves) and a warm-up bout before the incremental
 * part are dropped with the rest; a warm-up under load is a real intensity and kept. The whole
 * recording when phases cannot be told.
 */
export function exerciseSpan(rec: Recording): ExerciseSpan {
  const t0 = rec.t_s[0];
  const t1 = rec.t_s[rec.t_s.length - 1];
  const phases = phasesOf(rec);
  if (!phases) return { span: { t_start_s: t0, t_end_s: t1 }, dropped: [], onset: 'recording start', phases_found: false };
  const afterBout = protocolOf(rec).kind === 'warmup_incremental';
  const warm = phases.warmup;
  const loadedWarmup = warm !== null && !afterBout && meanLoad(rec, warm) > UNLOADED_MAX_W;
  const start = loadedWarmup ? warm.t_start_s : phases.exercise.t_start_s;
  const end = phases.exercise.t_end_s;
  // Whatever lies outside the span is dropped, whether or not the phases name it.
  const dropped: string[] = [];
  if (start > t0) {
    const named = [phases.rest ? 'rest' : null, warm && !loadedWarmup ? (afterBout ? 'the warm-up bout' : 'unloaded warm-up') : null].filter((x) => x !== null).join(' and ');
    dropped.push(`${named || 'the part before exercise'} (${fmt(t0)}-${fmt(start)} s)`);
  }
  if (end < t1) dropped.push(`${phases.recovery ? 'recovery' : 'the part after exercise'} (${fmt(end)}-${fmt(t1)} s)`);
  const onset: Onset = afterBout ? 'start of the incremental part after a warm-up bout' : loadedWarmup ? 'start of a loaded warm-up' : warm ? 'end of warm-up' : 'exercise start';
  return { span: { t_start_s: start, t_end_s: end }, dropped, onset, phases_found: true };
}

/** Mean Load (W) over a span; 0 without a Load channel (a warm-up read from VO2 alone is unloaded pedalling). */
function meanLoad(rec: Recording, span: Span): number {
  const values = rec.channels.Load?.values;
  if (!values) return 0;
  let sum = 0;
  let n = 0;
  for (let i = 0; i < rec.t_s.length; i++) {
    const v = values[i];
    if (rec.t_s[i] >= span.t_start_s && rec.t_s[i] < span.t_end_s && v !== null && Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  return n > 0 ? sum / n : 0;
}

function fmt(t_s: number): string {
  return String(Math.round(t_s));
}

/** Means of VO2, VCO2 (and Load) over [from_s, to_s); null when no sample holds both gases. */
export function windowMean(rec: Recording, from_s: number, to_s: number, withLoad: boolean): RawWindow | null {
  const vo2 = rec.channels.VO2?.values ?? [];
  const vco2 = rec.channels.VCO2?.values ?? [];
  const load = rec.channels.Load?.values ?? [];
  let so = 0;
  let sc = 0;
  let n = 0;
  let sl = 0;
  let nl = 0;
  for (let i = firstAtOrAfter(rec.t_s, from_s); i < rec.t_s.length && rec.t_s[i] < to_s; i++) {
    const o = vo2[i];
    const c = vco2[i];
    if (o !== null && c !== null && Number.isFinite(o) && Number.isFinite(c)) {
      so += o;
      sc += c;
      n++;
    }
    const l = load[i];
    if (withLoad && l !== null && l !== undefined && Number.isFinite(l)) {
      sl += l;
      nl++;
    }
  }
  if (n === 0) return null;
  return {
    t_start_s: from_s,
    t_end_s: to_s,
    vo2_l_min: so / n / 1000,
    vco2_l_min: sc / n / 1000,
    load_w: withLoad && nl > 0 ? sl / nl : null,
    n_samples: n,
  };
}

/** Index of the first time stamp at or after `t` (binary search: `t_s` is strictly increasing). */
function firstAtOrAfter(t_s: readonly number[], t: number): number {
  let lo = 0;
  let hi = t_s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t_s[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One window per stage: the mean of the stage's last `stage_tail_s` (at most its second half). */
export function stageWindows(rec: Recording, stages: Span[], opts: SubstrateOptions, withLoad: boolean): { windows: RawWindow[]; tail_s: number } {
  const windows: RawWindow[] = [];
  let tail_s = opts.stage_tail_s;
  for (const stage of stages) {
    const tail = Math.min(opts.stage_tail_s, (stage.t_end_s - stage.t_start_s) / 2);
    tail_s = Math.min(tail_s, tail);
    // The stage's end is the first sample of the next stage: stop just before it.
    const w = windowMean(rec, stage.t_end_s - tail, stage.t_end_s, withLoad);
    if (w) windows.push(w);
  }
  return { windows, tail_s };
}

/** Fixed clock bins of `bin_s` from the start of the span; a last partial bin is kept when at least half full. */
export function clockBins(rec: Recording, span: Span, bin_s: number, withLoad: boolean): RawWindow[] {
  const windows: RawWindow[] = [];
  for (let t0 = span.t_start_s; t0 < span.t_end_s; t0 += bin_s) {
    const t1 = Math.min(t0 + bin_s, span.t_end_s);
    if (t1 - t0 < bin_s / 2) break;
    const w = windowMean(rec, t0, t1 === span.t_end_s ? t1 + 1e-9 : t1, withLoad);
    if (w) windows.push({ ...w, t_end_s: t1 });
  }
  return windows;
}
