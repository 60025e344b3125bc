/**
 * What kind of test a recording holds, read once for every analysis: incremental (a ramp or steps),
 * a warm-up bout then an incremental part, constant load (one or several constant bouts), or an
 * interval session. From the work rate (Load, then Speed) when the file has one, else from the
 * shape of VO2: during a constant bout VO2 reaches most of its rise within the first minutes (a
 * mean response time of about 30-45 s, Whipp et al., J Appl Physiol 1982) and then holds, while
 * on a ramp it rises throughout. A caller's protocol input overrides the reading.
 */
import type { Recording } from '../recording/recording.js';
import { channel, coverage } from '../recording/recording.js';
import type { PhaseBoundaries, PhaseSpanS } from './phases.js';
import { centeredTimeMean, runningMedian } from './smooth.js';

export type ProtocolKind = 'incremental' | 'warmup_incremental' | 'constant' | 'interval' | 'unknown';

/** The protocol as a caller states it: stage duration and increment, or a ramp rate (spiro's `set_protocol`). */
export type ProtocolInput = { kind: 'steps'; stage_s: number; increment_w?: number; increment_kmh?: number; first_stage_w?: number } | { kind: 'ramp'; ramp_w_min?: number; ramp_kmh_min?: number };

export interface ProtocolReading {
  kind: ProtocolKind;
  /** What the reading rests on. */
  source: 'Load' | 'Speed' | 'VO2' | 'request' | 'none';
  /** Where analyses of thresholds and substrate begin and end: the incremental part; null when there is none. */
  incremental: PhaseSpanS | null;
  /** Constant bouts (constant load) or the bouts of an interval session; empty otherwise. */
  bouts: PhaseSpanS[];
  /** The warm-up bout before the incremental part (warmup_incremental only). */
  warmup_bout: PhaseSpanS | null;
  /** The caller's protocol input, echoed; null when inferred. */
  input: ProtocolInput | null;
  /** One sentence on how the kind was decided. */
  detail: string;
}

/** Work-rate signals in the order trusted, with the smallest range that makes a protocol and the level tolerance. */
const WORK = [
  { name: 'Load', min_range: 30, abs_tol: 5, unit: 'W' },
  { name: 'Speed', min_range: 2, abs_tol: 0.3, unit: 'km/h' },
] as const;

/** A constant test holds its top level for at least this share of exercise; a ramp's last step is far shorter. */
const CONSTANT_HELD_SHARE = 0.6;
/** A rise to the top level faster than this is a step on, not a ramp (s). */
const MAX_STEP_ON_S = 60;
/** Shortest bout that counts as a constant-load bout rather than an interval repetition, s. */
const MIN_CONSTANT_BOUT_S = 180;
/**
 * Four or more bouts are an interval session; two or three long constant bouts are a constant-load
 * design (repeated square-wave transitions, as in VO2 kinetics testing).
 */
const MIN_INTERVAL_BOUTS = 4;
/** Fewest samples inside exercise for VO2's shape to say anything. */
const MIN_SHAPE_SAMPLES = 10;
/** Shortest pause between two bouts, s (as src/signal/phases.ts counts bouts). */
const MIN_PAUSE_S = 30;
/** Shortest warm-up bout, s. */
const MIN_WARMUP_BOUT_S = 60;
/**
 * Share of the exercise VO2 rise reached halfway through exercise above which the test is read as
 * constant (VO2 near its plateau by then), and below which it is incremental (a ramp is near half).
 */
const VO2_CONSTANT_SHARE = 0.8;
const VO2_INCREMENTAL_SHARE = 0.7;
const VO2_SMOOTHING_S = 30;

function finite(v: number | null | undefined): v is number {
  return v !== null && v !== undefined && Number.isFinite(v);
}

/** Reads the protocol of a recording over the phases found for it; `input` (the caller's) wins over the reading. */
export function classifyProtocol(rec: Recording, phases: PhaseBoundaries | null, input: ProtocolInput | null = null): ProtocolReading {
  if (input) {
    const span = phases?.exercise ?? (rec.t_s.length ? { t_start_s: rec.t_s[0], t_end_s: rec.t_s[rec.t_s.length - 1] } : null);
    return {
      kind: 'incremental',
      source: 'request',
      incremental: span,
      bouts: [],
      warmup_bout: null,
      input,
      detail: `the protocol given with the request (${describeInput(input)}) replaces the one read from the recording.`,
    };
  }
  if (!phases) return { kind: 'unknown', source: 'none', incremental: null, bouts: [], warmup_bout: null, input: null, detail: 'no exercise phase was found.' };
  for (const w of WORK) {
    const values = channel(rec, w.name);
    if (!values || coverage(rec, w.name) < 0.5) continue;
    const reading = fromWork(rec, phases, runningMedian(values, 2), w);
    if (reading) return reading;
  }
  return fromVo2(rec, phases);
}

/** One line for the caller's protocol input. */
export function describeInput(input: ProtocolInput): string {
  if (input.kind === 'ramp') {
    const rate = input.ramp_w_min !== undefined ? `${input.ramp_w_min} W/min` : input.ramp_kmh_min !== undefined ? `${input.ramp_kmh_min} km/h per min` : 'rate not given';
    return `ramp, ${rate}`;
  }
  const inc = input.increment_w !== undefined ? `${input.increment_w} W` : input.increment_kmh !== undefined ? `${input.increment_kmh} km/h` : 'increment not given';
  return `steps of ${input.stage_s} s, ${inc} per stage`;
}

interface Sig {
  t: readonly number[];
  v: readonly (number | null)[];
}

/** Spans within [from, to] where v is at or above `hi`, ended only by MIN_PAUSE_S below `lo` (hysteresis). */
function boutsOf(s: Sig, from: number, to: number, hi: number, lo: number): PhaseSpanS[] {
  const out: PhaseSpanS[] = [];
  let start = Number.NaN;
  let lastHigh = Number.NaN;
  let belowSince = Number.NaN;
  for (let i = 0; i < s.t.length; i++) {
    const t = s.t[i];
    const x = s.v[i];
    if (t < from || t > to || !finite(x)) continue;
    if (x >= hi) {
      if (Number.isNaN(start)) start = t;
      lastHigh = t;
      belowSince = Number.NaN;
    } else if (!Number.isNaN(start) && x < lo) {
      if (Number.isNaN(belowSince)) belowSince = t;
      else if (t - belowSince >= MIN_PAUSE_S) {
        out.push({ t_start_s: start, t_end_s: lastHigh });
        start = Number.NaN;
        belowSince = Number.NaN;
      }
    } else belowSince = Number.NaN;
  }
  if (!Number.isNaN(start)) out.push({ t_start_s: start, t_end_s: lastHigh });
  return out;
}

/** Share of [span] (time-weighted) during which v stays within tol of `level`. */
function heldShare(s: Sig, span: PhaseSpanS, level: number, tol: number): number {
  let held = 0;
  let total = 0;
  for (let i = 0; i + 1 < s.t.length; i++) {
    const t = s.t[i];
    const x = s.v[i];
    if (t < span.t_start_s || t >= span.t_end_s || !finite(x)) continue;
    const dt = Math.min(s.t[i + 1], span.t_end_s) - t;
    total += dt;
    if (Math.abs(x - level) <= tol) held += dt;
  }
  return total > 0 ? held / total : 0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : Number.NaN;
}

function levelOver(s: Sig, span: PhaseSpanS): number {
  const xs: number[] = [];
  for (let i = 0; i < s.t.length; i++) if (s.t[i] >= span.t_start_s && s.t[i] <= span.t_end_s && finite(s.v[i])) xs.push(s.v[i] as number);
  return median(xs);
}

type WorkSig = (typeof WORK)[number];

function fromWork(rec: Recording, phases: PhaseBoundaries, v: readonly (number | null)[], w: WorkSig): ProtocolReading | null {
  const s: Sig = { t: rec.t_s, v };
  const ex = phases.exercise;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let pFirst = -1;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!finite(x) || rec.t_s[i] > ex.t_end_s) continue;
    if (x < min) min = x;
    if (x > max) {
      max = x;
      pFirst = i;
    }
  }
  const range = max - min;
  if (!(range >= w.min_range) || pFirst < 0) return null;
  const tol = Math.max(w.abs_tol, 0.03 * range);
  const top = (x: number | null): boolean => finite(x) && x >= max - tol;
  pFirst = v.findIndex(top);
  const base = { source: w.name, input: null } as const;

  // The final rise: back from the first reach of the top, through every sample not above the one after it.
  let j = pFirst;
  while (j > 0 && rec.t_s[j - 1] >= Math.min(ex.t_start_s, phases.warmup?.t_start_s ?? ex.t_start_s) - MIN_PAUSE_S) {
    const prev = v[j - 1];
    const here = v[j];
    if (finite(prev) && finite(here) && prev > here + tol) break;
    j--;
  }
  const riseLevel = v[j] ?? min;
  const riseStart = firstAbove(s, j, pFirst, (riseLevel as number) + tol) ?? rec.t_s[j];
  const rise_s = rec.t_s[pFirst] - riseStart;

  // A bout above the level the final rise leaves, before it: a warm-up bout.
  const before = { t_start_s: Math.min(ex.t_start_s, phases.warmup?.t_start_s ?? ex.t_start_s, rec.t_s[0]), t_end_s: rec.t_s[j] };
  const warm =
    rise_s >= 2 * MAX_STEP_ON_S
      ? boutsOf(s, before.t_start_s, before.t_end_s, (riseLevel as number) + 2 * tol, (riseLevel as number) + tol).filter((b) => b.t_end_s - b.t_start_s >= MIN_WARMUP_BOUT_S)
      : [];
  if (warm.length > 0) {
    const incremental = { t_start_s: riseStart, t_end_s: ex.t_end_s };
    return {
      ...base,
      kind: 'warmup_incremental',
      incremental,
      bouts: [],
      warmup_bout: { t_start_s: warm[0].t_start_s, t_end_s: warm[warm.length - 1].t_end_s },
      detail: `${w.name} holds a warm-up bout (${fmt(warm[0].t_start_s)}-${fmt(warm[warm.length - 1].t_end_s)} s), falls back, then rises for ${fmt(rise_s)} s to its peak: the incremental part starts at ${fmt(riseStart)} s.`,
    };
  }

  const hi = min + 0.5 * range;
  const lo = min + 0.25 * range;
  const bouts = boutsOf(s, ex.t_start_s, ex.t_end_s, hi, lo);
  if (bouts.length > 1) return severalBouts(base, bouts, s, tol, w.name);
  const held = heldShare(s, ex, max, tol);
  if (held >= CONSTANT_HELD_SHARE) {
    return {
      ...base,
      kind: 'constant',
      incremental: null,
      bouts: [{ t_start_s: ex.t_start_s, t_end_s: ex.t_end_s }],
      warmup_bout: null,
      detail: `${w.name} holds ${fmt(max)} ${w.unit} for ${Math.round(100 * held)} % of exercise: a constant-load test with no incremental part.`,
    };
  }
  return {
    ...base,
    kind: 'incremental',
    incremental: { t_start_s: ex.t_start_s, t_end_s: ex.t_end_s },
    bouts: [],
    warmup_bout: null,
    detail: `${w.name} rises over ${fmt(rise_s)} s to its peak of ${fmt(max)} ${w.unit}: an incremental test.`,
  };
}

/** Constant bouts or an interval session, from bouts found in a work-rate or smoothed VO2 signal. */
function severalBouts(base: { source: ProtocolReading['source']; input: null }, bouts: PhaseSpanS[], s: Sig, tol: number, name: string): ProtocolReading {
  const constant = bouts.length < MIN_INTERVAL_BOUTS && bouts.every((b) => b.t_end_s - b.t_start_s >= MIN_CONSTANT_BOUT_S && heldShare(s, b, levelOver(s, b), tol) >= CONSTANT_HELD_SHARE);
  const lengths = bouts.map((b) => fmt(b.t_end_s - b.t_start_s)).join(', ');
  return {
    ...base,
    kind: constant ? 'constant' : 'interval',
    incremental: null,
    bouts,
    warmup_bout: null,
    detail: constant
      ? `${name} shows ${bouts.length} constant bouts of ${lengths} s with pauses between them: a constant-load test with no incremental part.`
      : `${name} shows ${bouts.length} bouts of ${lengths} s with pauses between them: an interval session with no single incremental part.`,
  };
}

/** Time of the first sample in [i, k] above `level`; null when none. */
function firstAbove(s: Sig, i: number, k: number, level: number): number | null {
  for (let m = i; m <= k; m++) if (finite(s.v[m]) && (s.v[m] as number) > level) return s.t[m];
  return null;
}

function fromVo2(rec: Recording, phases: PhaseBoundaries): ProtocolReading {
  const base = { source: 'VO2', input: null } as const;
  const none = { incremental: null, bouts: [], warmup_bout: null };
  const ex = phases.exercise;
  const vo2 = channel(rec, 'VO2');
  if (!vo2) return { ...base, ...none, kind: 'unknown', detail: 'no work rate and no VO2 to read the protocol from.' };
  const t = rec.t_s;
  const inside = t.filter((x) => x >= ex.t_start_s && x <= ex.t_end_s).length;
  if (inside < MIN_SHAPE_SAMPLES) {
    return { ...base, ...none, kind: 'unknown', detail: `no work-rate channel and only ${inside} samples during exercise: too few to read the protocol from VO2.` };
  }
  const sm = Array.from(centeredTimeMean(t, vo2, VO2_SMOOTHING_S), (x) => (Number.isFinite(x) ? x : null));
  const s: Sig = { t, v: sm };
  let lowest = Number.POSITIVE_INFINITY;
  let peak = Number.NEGATIVE_INFINITY;
  let p = -1;
  for (let i = 0; i < t.length; i++) {
    const x = sm[i];
    if (!finite(x) || t[i] > ex.t_end_s) continue;
    lowest = Math.min(lowest, x);
    if (t[i] >= ex.t_start_s && x > peak) {
      peak = x;
      p = i;
    }
  }
  const rise = peak - lowest;
  if (!(rise > 0) || p < 0) return { ...base, ...none, kind: 'unknown', detail: 'VO2 does not rise during exercise.' };
  const tol = 0.05 * rise;
  const bouts = boutsOf(s, ex.t_start_s, ex.t_end_s, lowest + 0.6 * rise, lowest + 0.4 * rise);
  if (bouts.length > 1) return severalBouts(base, bouts, s, 0.1 * rise, 'VO2 (30-s centred mean)');

  // The final rise: back from the peak while VO2 stays within tol of the lowest value met so far
  // (VO2 decays gradually after a bout, so sample-to-sample steps would never stop the walk).
  let j = p;
  let trough = peak;
  let k = p;
  while (k > 0) {
    k--;
    const x = sm[k];
    if (!finite(x)) continue;
    if (x > trough + tol) break;
    if (x < trough) {
      trough = x;
      j = k;
    }
  }
  const warm = boutsOf(s, t[0], t[j], trough + 0.15 * rise, trough + 0.075 * rise).filter((b) => b.t_end_s - b.t_start_s >= MIN_WARMUP_BOUT_S);
  if (warm.length > 0 && j > 0) {
    const riseStart = firstAbove(s, j, p, trough + tol) ?? t[j];
    const warmupBout = { t_start_s: warm[0].t_start_s, t_end_s: warm[warm.length - 1].t_end_s };
    return {
      ...base,
      kind: 'warmup_incremental',
      incremental: { t_start_s: Math.max(riseStart, ex.t_start_s), t_end_s: ex.t_end_s },
      bouts: [],
      warmup_bout: warmupBout,
      detail: `no work-rate channel; VO2 rises in a warm-up bout (${fmt(warmupBout.t_start_s)}-${fmt(warmupBout.t_end_s)} s), falls back, then rises from ${fmt(riseStart)} s to its peak: a warm-up bout before an incremental part.`,
    };
  }
  const start = sm[firstIndexAtOrAfter(t, ex.t_start_s)] ?? lowest;
  const dur = ex.t_end_s - ex.t_start_s;
  const mid = sm[firstIndexAtOrAfter(t, ex.t_start_s + dur / 2)];
  const share = finite(mid) && peak > start ? (mid - start) / (peak - start) : Number.NaN;
  const pct = Math.round(100 * share);
  if (share >= VO2_CONSTANT_SHARE && dur >= MIN_CONSTANT_BOUT_S) {
    return {
      ...base,
      kind: 'constant',
      incremental: null,
      bouts: [{ t_start_s: ex.t_start_s, t_end_s: ex.t_end_s }],
      warmup_bout: null,
      detail: `no work-rate channel; VO2 has made ${pct} % of its rise halfway through exercise and then holds, as in a constant-load bout.`,
    };
  }
  if (share <= VO2_INCREMENTAL_SHARE) {
    return {
      ...base,
      kind: 'incremental',
      incremental: { t_start_s: ex.t_start_s, t_end_s: ex.t_end_s },
      bouts: [],
      warmup_bout: null,
      detail: `no work-rate channel; VO2 has made ${pct} % of its rise halfway through exercise and rises throughout, as in an incremental test.`,
    };
  }
  return {
    ...base,
    kind: 'unknown',
    incremental: { t_start_s: ex.t_start_s, t_end_s: ex.t_end_s },
    bouts: [],
    warmup_bout: null,
    detail: `no work-rate channel; VO2 has made ${Number.isFinite(share) ? pct : '?'} % of its rise halfway through exercise, between a ramp and a constant bout.`,
  };
}

/** Index of the first time stamp at or after `t` (the last index when none). */
function firstIndexAtOrAfter(t_s: readonly number[], t: number): number {
  const i = t_s.findIndex((x) => x >= t);
  return i < 0 ? t_s.length - 1 : i;
}

/**
 * The phases analyses read: on a warm-up bout then an incremental part, exercise starts where the
 * incremental part does and the warm-up bout becomes warm-up, with a note saying so.
 */
export function protocolAdjusted(phases: PhaseBoundaries | null, reading: ProtocolReading): PhaseBoundaries | null {
  if (!phases || reading.kind !== 'warmup_incremental' || !reading.incremental) return phases;
  const start = Math.max(reading.incremental.t_start_s, phases.exercise.t_start_s);
  const warmStart = Math.min(phases.warmup?.t_start_s ?? Number.POSITIVE_INFINITY, reading.warmup_bout?.t_start_s ?? Number.POSITIVE_INFINITY, phases.exercise.t_start_s);
  return {
    ...phases,
    rest: phases.rest && phases.rest.t_end_s > warmStart ? { ...phases.rest, t_end_s: warmStart } : phases.rest,
    warmup: { t_start_s: warmStart, t_end_s: start },
    exercise: { t_start_s: start, t_end_s: phases.exercise.t_end_s },
    exercise_bouts: 1,
    notes: [...phases.notes, `a warm-up bout precedes the incremental part: exercise is read from ${fmt(start)} s, where the incremental part starts, and the bout before it is warm-up`],
  };
}

function fmt(x: number): string {
  return String(Math.round(x));
}
