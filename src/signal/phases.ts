/**
 * Phase boundaries of a test (rest, warm-up, exercise, recovery): from the file's own markers when
 * it has them, else inferred from the work rate (Load, then Speed) or from the gas signals. An
 * inferred boundary carries tens of seconds of error, and every result says how large.
 */
import type { ChannelName, Recording } from '../recording/recording.js';
import { channel, coverage } from '../recording/recording.js';
import { gasOnset, type GasOnset } from './onset.js';
import { classifyProtocol, protocolAdjusted, type ProtocolInput, type ProtocolReading } from './protocol.js';
import { centeredTimeMean, quantile, runningMedian } from './smooth.js';
import { linearFit } from './stats.js';

/** One phase's span in seconds from the first sample. */
export interface PhaseSpanS {
  t_start_s: number;
  t_end_s: number;
}

/** The four phases of a test as found by `detectPhases`, with the method and its expected error. */
export interface PhaseBoundaries {
  rest: PhaseSpanS | null;
  warmup: PhaseSpanS | null;
  /** Always present when detectPhases returns a result. */
  exercise: PhaseSpanS;
  recovery: PhaseSpanS | null;
  method: 'file markers' | 'load' | 'speed' | 'gas signals';
  /** Separate exercise bouts inside the exercise span (more than 1: an interval test). */
  exercise_bouts?: number;
  /** Typical error of each inferred boundary, s (a marker is as exact as the sampling). */
  expected_error_s: number;
  notes: string[];
}

/** Shortest rest or warm-up span reported (s); shorter stretches are folded into their neighbour. */
const MIN_SPAN_S = 30;
/** Shortest exercise a method may report (s): less is not a test. */
const MIN_EXERCISE_S = 60;
/** Shortest stretch after exercise that counts as a visible recovery (s). */
const MIN_RECOVERY_S = 20;
/** Error floors by method, s: markers are exact to the sampling; a load step to about 10 s. */
const MARKER_ERROR_FLOOR_S = 5;
const WORK_ERROR_FLOOR_S = 10;
/**
 * VO2 lags the work rate with a mean response time of about 30-45 s at ramp onset (Whipp et al.,
 * J Appl Physiol 1981), so boundaries read from the gases are uncertain by that much.
 */
const GAS_ERROR_FLOOR_S = 45;
/** Smoothing window for the gas signals, s (the same 30 s as the VO2peak window). */
const GAS_SMOOTHING_S = 30;

interface WorkSignal {
  channel: 'Load' | 'Speed';
  method: 'load' | 'speed';
  /** Smallest peak-to-trough range that makes a protocol (W or km/h). */
  min_range: number;
  /** Changes below this are read as the same level (W or km/h). */
  abs_tol: number;
}

const WORK_SIGNALS: readonly WorkSignal[] = [
  { channel: 'Load', method: 'load', min_range: 30, abs_tol: 5 },
  { channel: 'Speed', method: 'speed', min_range: 2, abs_tol: 0.3 },
];

const GAS_SIGNALS: readonly ChannelName[] = ['VO2', 'VCO2', 'VE'];

/** How each reading of src/signal/onset.ts is said in the notes. */
const ONSET_READING: Record<GasOnset['how'], string> = {
  departure: 'read where it departs from that level',
  'rise line': 'read from the line of the rise',
  'response fit': 'fitted as a first-order response from the record start, the level before it lasting under a minute',
};

const memo = new WeakMap<Recording, { protocol: ProtocolReading; phases: PhaseBoundaries | null }>();

function read(rec: Recording): { protocol: ProtocolReading; phases: PhaseBoundaries | null } {
  let found = memo.get(rec);
  if (!found) {
    const raw = detectPhases(rec);
    const protocol = classifyProtocol(rec, raw);
    found = { protocol, phases: protocolAdjusted(raw, protocol) };
    memo.set(rec, found);
  }
  return found;
}

/**
 * The phases every analysis and metric uses, computed once per Recording object (a Recording is
 * not mutated once built), so that vt, eov, substrate and the metrics all read the same exercise
 * onset: `detectPhases(rec)`, with exercise moved to the incremental part when a warm-up bout
 * precedes it (src/signal/protocol.ts).
 */
export function phasesOf(rec: Recording): PhaseBoundaries | null {
  return read(rec).phases;
}

/** The protocol of the recording as read from it (src/signal/protocol.ts), computed once per Recording object. */
export function protocolOf(rec: Recording): ProtocolReading {
  return read(rec).protocol;
}

/** The protocol a request works with: the caller's input when given (it overrides the reading), else the one read. */
export function protocolFor(rec: Recording, input: ProtocolInput | null): ProtocolReading {
  return input ? classifyProtocol(rec, phasesOf(rec), input) : protocolOf(rec);
}

/** Phase boundaries of the recording; null only when no exercise can be found at all. Throws nothing. */
export function detectPhases(rec: Recording): PhaseBoundaries | null {
  if (rec.t_s.length < 3) return null;
  const fromFile = fromMarkers(rec);
  if (fromFile) return fromFile;
  const notes: string[] = [];
  if (rec.phases.some((p) => p.source === 'file')) notes.push('the file marks phases but no exercise phase, so the phases were inferred');
  for (const signal of WORK_SIGNALS) {
    const found = fromWork(rec, signal, notes);
    if (found) return found;
  }
  return fromGas(rec, notes);
}

/** Sampling interval used to widen error bounds (0 when unknown). */
function intervalS(rec: Recording): number {
  return rec.sampling.raw_interval_s ?? 0;
}

function fromMarkers(rec: Recording): PhaseBoundaries | null {
  const marked = rec.phases.filter((p) => p.source === 'file');
  const bouts = marked.filter((p) => p.phase === 'exercise');
  if (bouts.length === 0) return null;
  // Interval tests mark several bouts: exercise runs from the first start to the last end, and
  // only the phases outside it keep their own spans.
  const exercise = { t_start_s: Math.min(...bouts.map((s) => s.t_start_s)), t_end_s: Math.max(...bouts.map((s) => s.t_end_s)) };
  const union = (name: string, keep: (s: PhaseSpanS) => boolean): PhaseSpanS | null => {
    const spans = marked.filter((p) => p.phase === name && keep(p));
    if (spans.length === 0) return null;
    return { t_start_s: Math.min(...spans.map((s) => s.t_start_s)), t_end_s: Math.max(...spans.map((s) => s.t_end_s)) };
  };
  const before = (s: PhaseSpanS) => s.t_end_s <= exercise.t_start_s;
  const error = Math.max(MARKER_ERROR_FLOOR_S, intervalS(rec));
  const notes = [`phases as the file marks them; a boundary is exact to about ${error} s (one sample)`];
  if (bouts.length > 1) notes.push(`the file marks ${bouts.length} exercise bouts; exercise runs from the first start to the last end, with the pauses inside it`);
  return {
    rest: union('rest', before),
    warmup: union('warmup', before),
    exercise,
    recovery: union('recovery', (s) => s.t_start_s >= exercise.t_end_s),
    method: 'file markers',
    exercise_bouts: bouts.length,
    expected_error_s: error,
    notes,
  };
}

function finite(v: number | null | undefined): v is number {
  return v !== null && v !== undefined && Number.isFinite(v);
}

/** Exercise from the work rate: starts where it rises above the warm-up level, ends where it drops from its peak. */
function fromWork(rec: Recording, signal: WorkSignal, notes: string[]): PhaseBoundaries | null {
  const raw = channel(rec, signal.channel);
  if (!raw) return null;
  const cover = coverage(rec, signal.channel);
  if (cover < 0.5) {
    notes.push(`${signal.channel} covers only ${Math.round(cover * 100)} % of the samples and was not used for phases`);
    return null;
  }
  const t = rec.t_s;
  const v = runningMedian(raw, 2);
  let max = Number.NEGATIVE_INFINITY;
  let min = Number.POSITIVE_INFINITY;
  for (const x of v) {
    if (!finite(x)) continue;
    if (x > max) max = x;
    if (x < min) min = x;
  }
  const range = max - min;
  if (!(range >= signal.min_range)) {
    notes.push(`${signal.channel} varies by less than ${signal.min_range} ${signal.channel === 'Load' ? 'W' : 'km/h'} and shows no protocol`);
    return null;
  }
  const tol = Math.max(signal.abs_tol, 0.03 * range);
  // 1. The peak: its first reach, and the last sample at it before the final drop (an interval
  //    test reaches it once per bout).
  const pFirst = v.findIndex((x) => finite(x) && x >= max - tol);
  let pLast = pFirst;
  for (let i = pFirst + 1; i < v.length; i++) {
    const x = v[i];
    if (finite(x) && x >= max - tol) pLast = i;
  }
  // 2. A leading stretch at the lowest level followed by a higher, held level is rest then warm-up.
  const k = v.findIndex((x) => finite(x) && x > min + signal.abs_tol);
  const leadingLow = k > 0 && t[k] - t[0] >= MIN_SPAN_S;
  const from = leadingLow ? k : 0;
  let level = Number.POSITIVE_INFINITY;
  for (let i = from; i < pFirst; i++) {
    const x = v[i];
    if (finite(x) && x < level) level = x;
  }
  let s = -1;
  for (let i = from; i < pFirst; i++) {
    const x = v[i];
    if (finite(x) && x <= level + signal.abs_tol) s = i;
  }
  let rest: PhaseSpanS | null = null;
  let warmup: PhaseSpanS | null = null;
  let startIdx: number;
  // A held level that the next level matches in duration is a protocol's first stage, not a warm-up.
  const heldWarmup = leadingLow && s >= 0 && t[s] - t[k] >= MIN_SPAN_S && !stageFollows(t, v, k, s, tol, min);
  if (heldWarmup) {
    rest = { t_start_s: t[0], t_end_s: t[k] };
    warmup = { t_start_s: t[k], t_end_s: t[s] };
    startIdx = s;
  } else {
    if (leadingLow) {
      startIdx = k - 1;
      level = min;
    } else startIdx = Math.max(s, 0);
    const atZero = level <= min + signal.abs_tol && min <= signal.abs_tol;
    ({ rest, warmup } = labelPreExercise(rec, t[0], t[startIdx], atZero ? 'rest' : 'warmup', notes));
  }
  const tStart = rampOnset(t, v, startIdx, level, range) ?? t[startIdx];
  if (warmup && warmup.t_end_s > tStart) warmup.t_end_s = tStart;
  else if (!warmup && rest && rest.t_end_s > tStart) rest.t_end_s = tStart;
  const exercise = { t_start_s: tStart, t_end_s: t[pLast] };
  // A peak before the rise (or a short rise) is no protocol.
  if (exercise.t_end_s - exercise.t_start_s < MIN_EXERCISE_S) {
    notes.push(`${signal.channel} rises for less than ${MIN_EXERCISE_S} s and was not used for phases`);
    return null;
  }
  const tEnd = t[t.length - 1];
  const recovery = tEnd - exercise.t_end_s >= MIN_RECOVERY_S ? { t_start_s: exercise.t_end_s, t_end_s: tEnd } : null;
  if (!recovery) notes.push('the recording ends at peak work: no recovery is visible');
  const error = Math.max(WORK_ERROR_FLOOR_S, 2 * intervalS(rec));
  notes.push(`inferred from ${signal.channel}: exercise starts where it rises above the warm-up level and ends where it drops from its peak; boundaries are uncertain by about ${error} s`);
  if (heldWarmup) notes.push(`the held ${signal.channel} level before the rise is read as warm-up; on a step protocol whose first stage differs in length or step size it may be that stage`);
  const bouts = countBouts(t, v, exercise, level + 0.5 * range, level + 0.25 * range);
  if (bouts > 1) notes.push(`${signal.channel} falls back ${bouts - 1} times during exercise: an interval test of ${bouts} bouts`);
  return { rest, warmup, exercise, recovery, method: signal.method, exercise_bouts: bouts, expected_error_s: error, notes };
}

/** Index of the last sample from `i` on that stays within `tol` of v[i] (nulls skipped). */
function heldUntil(v: readonly (number | null)[], i: number, tol: number): number {
  const x0 = v[i];
  if (!finite(x0)) return i;
  let last = i;
  for (let j = i + 1; j < v.length; j++) {
    const x = v[j];
    if (!finite(x)) continue;
    if (Math.abs(x - x0) > tol) break;
    last = j;
  }
  return last;
}

/**
 * True when the level after [k, s] looks like the next stage of the same protocol: held at least
 * 3/4 as long and reached by a similar increment (within 20 %). A warm-up differs in one of them.
 */
function stageFollows(t: readonly number[], v: readonly (number | null)[], k: number, s: number, tol: number, min: number): boolean {
  if (s + 1 >= v.length) return false;
  const next = heldUntil(v, s + 1, tol);
  const level1 = v[s];
  const level2 = v[next];
  if (!finite(level1) || !finite(level2)) return false;
  const inc1 = level1 - min;
  const inc2 = level2 - level1;
  const similarLength = t[next] - t[s + 1] >= 0.75 * (t[s] - t[k]);
  const similarStep = inc2 > 0 && Math.abs(inc1 - inc2) <= 0.2 * inc2;
  return similarLength && similarStep;
}

/**
 * Where a gradual rise (a ramp) would meet the level before it, by a line through the first fifth
 * of the rise; null for a step rise, where the first sample above the level already marks it.
 */
function rampOnset(t: readonly number[], v: readonly (number | null)[], s: number, level: number, range: number): number | null {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let j = s + 1; j < v.length && t[j] <= t[s + 1 < v.length ? s + 1 : s] + 120; j++) {
    const x = v[j];
    if (!finite(x)) continue;
    if (x > level + 0.2 * range) break;
    xs.push(t[j]);
    ys.push(x);
  }
  const fit = linearFit(xs, ys);
  if (!fit || fit.slope <= 0 || fit.r2 < 0.9) return null;
  const onset = (level - fit.intercept) / fit.slope;
  return onset >= t[s] - 60 && onset <= t[Math.min(s + 1, t.length - 1)] ? onset : null;
}

/** Shortest fall below the low mark that separates two bouts, s. */
const MIN_PAUSE_S = 30;

/**
 * Bouts within the span: rises above `hi`, separated by at least MIN_PAUSE_S below `lo` (the
 * hysteresis keeps noise around one mark from counting). At least 1.
 */
function countBouts(t: readonly number[], v: readonly (number | null)[], span: PhaseSpanS, hi: number, lo: number): number {
  let bouts = 0;
  let up = false;
  let belowSince = Number.NaN;
  for (let i = 0; i < t.length; i++) {
    const x = v[i];
    if (t[i] < span.t_start_s || t[i] > span.t_end_s || !finite(x)) continue;
    if (x >= hi) {
      if (!up) bouts++;
      up = true;
      belowSince = Number.NaN;
    } else if (x < lo && up) {
      if (Number.isNaN(belowSince)) belowSince = t[i];
      else if (t[i] - belowSince >= MIN_PAUSE_S) up = false;
    } else belowSince = Number.NaN;
  }
  return Math.max(1, bouts);
}

/** Exercise from the gases: ends at the smoothed peak when a sustained fall follows, starts where the signal leaves its pre-exercise level. */
function fromGas(rec: Recording, notes: string[]): PhaseBoundaries | null {
  const name = GAS_SIGNALS.find((c) => coverage(rec, c) >= 0.5);
  if (!name) {
    notes.push('no work rate and no gas signal with enough samples: no phases');
    return null;
  }
  const t = rec.t_s;
  const sm = centeredTimeMean(t, channel(rec, name) ?? [], GAS_SMOOTHING_S);
  // 1. The peak and the level before it.
  let p = -1;
  for (let i = 0; i < sm.length; i++) if (Number.isFinite(sm[i]) && (p < 0 || sm[i] > sm[p])) p = i;
  if (p < 0) return null;
  const base = quantile(sm.subarray(0, p + 1), 0.1);
  const amp = sm[p] - base;
  // A test at least doubles resting VO2; 1.4x is a generous floor that still rejects a flat record.
  if (!(amp > 0) || sm[p] < 1.4 * base) {
    notes.push(`${name} never rises clearly above its starting level: no exercise found`);
    return null;
  }
  // 2. End: the last sample near the peak, when a sustained fall (a minute below 3/4 of the rise) follows.
  const tLast = t[t.length - 1];
  // The last time near the peak: the final bout of an interval test, the end of a ramp.
  let near = p;
  for (let i = p + 1; i < sm.length; i++) if (Number.isFinite(sm[i]) && sm[i] >= sm[p] - 0.1 * amp) near = i;
  let fall = -1;
  for (let i = near + 1; i < sm.length && fall < 0; i++) {
    if (!(sm[i] < sm[p] - 0.25 * amp)) continue;
    let sum = 0;
    let n = 0;
    for (let j = i; j < t.length && t[j] <= t[i] + 60; j++) {
      if (Number.isFinite(sm[j])) {
        sum += sm[j];
        n++;
      }
    }
    if (tLast - t[i] >= MIN_RECOVERY_S && n > 0 && sum / n < sm[p] - 0.25 * amp) fall = i;
  }
  let e = t.length - 1;
  if (fall >= 0) {
    e = p;
    for (let i = p; i < fall; i++) if (sm[i] >= sm[p] - 0.1 * amp) e = i;
  } else notes.push(`${name} shows no sustained fall after its peak: no recovery is visible`);
  const recoveryVisible = fall >= 0;
  // 3. Start: the departure from the level that the sustained rise to the peak leaves (src/signal/onset.ts).
  const onset = gasOnset(t, channel(rec, name) ?? [], intervalS(rec));
  if (onset === null) {
    notes.push(`${name} has no sustained rise to place the start of exercise`);
    return null;
  }
  const exercise = { t_start_s: onset.t_s, t_end_s: t[e] };
  if (exercise.t_end_s - exercise.t_start_s < MIN_EXERCISE_S) {
    notes.push(`${name} rises for less than ${MIN_EXERCISE_S} s: no exercise found`);
    return null;
  }
  const { rest, warmup } = labelPreExercise(rec, t[0], exercise.t_start_s, 'rest', notes);
  const recovery = recoveryVisible ? { t_start_s: exercise.t_end_s, t_end_s: tLast } : null;
  const error = Math.max(GAS_ERROR_FLOOR_S, 2 * intervalS(rec));
  notes.push(
    `inferred from ${name} (${GAS_SMOOTHING_S}-s centred mean): exercise ends at its peak followed by a sustained fall and starts where the sustained rise to that peak leaves the level before it (${ONSET_READING[onset.how]}); boundaries are uncertain by about ${error} s, more when the VO2 of a warm-up has not settled before exercise`,
  );
  const bouts = countBouts(t, Array.from(sm), exercise, base + 0.5 * amp, base + 0.25 * amp);
  if (bouts > 1) notes.push(`${name} falls back ${bouts - 1} times during exercise: an interval test of ${bouts} bouts`);
  return { rest, warmup, exercise, recovery, method: 'gas signals', exercise_bouts: bouts, expected_error_s: error, notes };
}

/**
 * Splits the span before exercise into rest and warm-up where VO2 steps up between them (unloaded
 * pedalling raises VO2 by a few hundred mL/min); otherwise labels the whole span `fallback`. The
 * first SETTLING_S are left out of the search: a subject settling on the mouthpiece often breathes
 * differently for a minute, and a low first minute is not a rest that a warm-up follows.
 */
function labelPreExercise(rec: Recording, t0: number, tStart: number, fallback: 'rest' | 'warmup', notes: string[]): { rest: PhaseSpanS | null; warmup: PhaseSpanS | null } {
  if (tStart - t0 < MIN_SPAN_S) return { rest: null, warmup: null };
  const split = vo2StepUp(rec, t0 + SETTLING_S, tStart);
  if (split !== null) {
    return { rest: { t_start_s: t0, t_end_s: split }, warmup: { t_start_s: split, t_end_s: tStart } };
  }
  notes.push(
    fallback === 'rest'
      ? 'no step in VO2 before exercise: the span before exercise is reported as rest (an unloaded warm-up cannot be told apart)'
      : 'the span before exercise is at a low, constant work rate and is reported as warm-up',
  );
  return fallback === 'rest' ? { rest: { t_start_s: t0, t_end_s: tStart }, warmup: null } : { rest: null, warmup: { t_start_s: t0, t_end_s: tStart } };
}

/** Smallest VO2 step (mL/min) read as rest to unloaded pedalling. */
const MIN_WARMUP_STEP_ML_MIN = 150;
/**
 * Start of a record given to settling on the mouthpiece, s: the ATS/ACCP statement on exercise
 * testing (Am J Respir Crit Care Med 2003) has the subject rest for about 3 min on the apparatus
 * before exercise because the first minutes are not a steady rest.
 */
const SETTLING_S = 60;
/**
 * Shortest warm-up read from VO2, s. Unloaded pedalling runs for about 3 min (ATS/ACCP 2003); a
 * step up held for less than a minute just before the rise is the rise beginning, not a warm-up.
 */
const MIN_WARMUP_S = 60;

/** Time of the best two-level split of VO2 within [t0, tEnd] when the later level is clearly higher; else null. */
function vo2StepUp(rec: Recording, t0: number, tEnd: number): number | null {
  const vo2 = channel(rec, 'VO2');
  if (!vo2) return null;
  const ts: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < rec.t_s.length && rec.t_s[i] <= tEnd; i++) {
    const v = vo2[i];
    if (rec.t_s[i] >= t0 && finite(v)) {
      ts.push(rec.t_s[i]);
      ys.push(v);
    }
  }
  const n = ys.length;
  if (n < 6) return null;
  const pre = new Float64Array(n + 1);
  const pre2 = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    pre[i + 1] = pre[i] + ys[i];
    pre2[i + 1] = pre2[i] + ys[i] * ys[i];
  }
  let best = -1;
  let bestSse = Number.POSITIVE_INFINITY;
  for (let k = 3; k <= n - 3; k++) {
    if (ts[k] - ts[0] < MIN_SPAN_S || ts[n - 1] - ts[k] < MIN_WARMUP_S) continue;
    const a = pre[k];
    const b = pre[n] - pre[k];
    const sse = pre2[k] - (a * a) / k + (pre2[n] - pre2[k]) - (b * b) / (n - k);
    if (sse < bestSse) {
      bestSse = sse;
      best = k;
    }
  }
  if (best < 0) return null;
  const left = pre[best] / best;
  const right = (pre[n] - pre[best]) / (n - best);
  return right - left >= MIN_WARMUP_STEP_ML_MIN ? ts[best] : null;
}
