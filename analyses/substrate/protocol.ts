/**
 * Tells a stepped protocol from a ramp. With a work-rate channel (Load, Speed, Grade) the stages are
 * the stretches where it holds still; without one, a stepped test shows VO2 plateaus and a ramp does
 * not. Only stepped tests reach the steady state the substrate equations assume (Achten, Gleeson and
 * Jeukendrup 2002).
 */
import type { ChannelName, Recording } from '../../src/recording/recording.js';
import type { SubstrateOptions } from './options.js';

/** A time span in seconds from the start of the recording. */
export interface Span {
  t_start_s: number;
  t_end_s: number;
}

/** Stepped (steady states reached), ramp (never steady) or unknown. */
export type ProtocolKind = 'steps' | 'ramp' | 'unknown';

/** How the protocol was read, with the stages when a work rate gives them. */
export interface ProtocolReading {
  kind: ProtocolKind;
  /** What the reading rests on. */
  source: 'work rate' | 'VO2';
  /** Stages of at least `min_stage_s`, from the work rate only (empty without one). */
  stages: Span[];
  /** Number of constant work-rate stretches shorter than `min_stage_s` (ramp increments, the unfinished last stage). */
  short_segments: number;
  /** One sentence on how the kind was decided. */
  detail: string;
}

/** Reads the protocol over `span`; `channels` are the work-rate channels to trust (usable Load, Speed, Grade). */
export function readProtocol(rec: Recording, span: Span, channels: ChannelName[], opts: SubstrateOptions): ProtocolReading {
  if (channels.length > 0) {
    const fromWork = readFromWorkRate(rec, span, channels, opts);
    if (fromWork.kind !== 'unknown') return fromWork;
  }
  return readFromVo2(rec, span, opts);
}

function tolerance(name: ChannelName, opts: SubstrateOptions, level: number): number {
  const abs = name === 'Load' ? opts.load_tolerance_w : name === 'Speed' ? opts.speed_tolerance_kmh : opts.grade_tolerance_pct;
  // Ergometers regulate power to a few per cent, so high work rates jitter more than low ones.
  return Math.max(abs, 0.03 * Math.abs(level));
}

/**
 * Times at which a channel settles on a new level inside the span. A change counts only when two
 * successive samples leave the running level on the same side, so a single spike does not split a stage.
 */
function levelChanges(rec: Recording, name: ChannelName, span: Span, opts: SubstrateOptions): number[] {
  const values = rec.channels[name]?.values ?? [];
  const out: number[] = [];
  let sum = 0;
  let n = 0;
  let pending = -1;
  for (let i = 0; i < rec.t_s.length; i++) {
    const t = rec.t_s[i];
    if (t < span.t_start_s || t > span.t_end_s) continue;
    const v = values[i];
    if (v === null || !Number.isFinite(v)) continue;
    if (n === 0) {
      sum = v;
      n = 1;
      continue;
    }
    const level = sum / n;
    const tol = tolerance(name, opts, level);
    if (Math.abs(v - level) <= tol) {
      pending = -1;
      sum += v;
      n++;
      continue;
    }
    if (pending < 0) {
      pending = i;
      continue;
    }
    const vp = values[pending] as number;
    if (Math.sign(vp - level) === Math.sign(v - level)) {
      out.push(rec.t_s[pending]);
      sum = vp + v;
      n = 2;
    }
    pending = -1;
  }
  return out;
}

function meanOver(rec: Recording, name: ChannelName, from_s: number, to_s: number): number {
  const values = rec.channels[name]?.values ?? [];
  let s = 0;
  let n = 0;
  for (let i = 0; i < rec.t_s.length; i++) {
    const v = values[i];
    if (rec.t_s[i] >= from_s && rec.t_s[i] <= to_s && v !== null && Number.isFinite(v)) {
      s += v;
      n++;
    }
  }
  return n ? s / n : Number.NaN;
}

function readFromWorkRate(rec: Recording, span: Span, channels: ChannelName[], opts: SubstrateOptions): ProtocolReading {
  const cuts = [...new Set(channels.flatMap((name) => levelChanges(rec, name, span, opts)))].sort((a, b) => a - b);
  const edges = [span.t_start_s, ...cuts.filter((t) => t > span.t_start_s && t < span.t_end_s), span.t_end_s];
  const segments: Span[] = [];
  for (let k = 0; k + 1 < edges.length; k++) segments.push({ t_start_s: edges[k], t_end_s: edges[k + 1] });
  const stages = segments.filter((s) => s.t_end_s - s.t_start_s >= opts.min_stage_s);
  const staged_s = stages.reduce((acc, s) => acc + s.t_end_s - s.t_start_s, 0);
  const span_s = span.t_end_s - span.t_start_s;
  const names = channels.join(' and ');
  const short = segments.length - stages.length;
  if (stages.length >= 3 && staged_s >= 0.6 * span_s) {
    return {
      kind: 'steps',
      source: 'work rate',
      stages,
      short_segments: short,
      detail: `${stages.length} stages of at least ${opts.min_stage_s} s found in ${names}, covering ${Math.round((100 * staged_s) / span_s)} % of exercise.`,
    };
  }
  const edge_s = Math.max(30, 0.1 * span_s);
  const rising = channels.some((name) => {
    const first = meanOver(rec, name, span.t_start_s, span.t_start_s + edge_s);
    const last = meanOver(rec, name, span.t_end_s - edge_s, span.t_end_s);
    return Number.isFinite(first) && Number.isFinite(last) && last - first > 2 * tolerance(name, opts, first);
  });
  if (rising) {
    const median_s = medianLength(segments);
    return {
      kind: 'ramp',
      source: 'work rate',
      stages: [],
      short_segments: short,
      detail: `${names} ${channels.length > 1 ? 'rise' : 'rises'} without holding still for ${opts.min_stage_s} s (median constant stretch ${Math.round(median_s)} s): a ramp or steps too short for a steady state.`,
    };
  }
  return { kind: 'unknown', source: 'work rate', stages: [], short_segments: short, detail: `${names} neither steps nor rises.` };
}

function medianLength(segments: Span[]): number {
  const lengths = segments.map((s) => s.t_end_s - s.t_start_s).sort((a, b) => a - b);
  return lengths.length ? lengths[lengths.length >> 1] : 0;
}

/**
 * Without a work rate: minute-by-minute VO2 means. On a stepped test part of the changes are near
 * zero (plateaus); on a ramp every change is close to the mean rise. A change counts as steady when
 * it is under half the mean rise per bin.
 */
function readFromVo2(rec: Recording, span: Span, opts: SubstrateOptions): ProtocolReading {
  const bin_s = Math.max(opts.bin_s, rec.sampling.raw_interval_s ?? 0);
  const means: number[] = [];
  for (let t0 = span.t_start_s; t0 + bin_s <= span.t_end_s + 1e-9; t0 += bin_s) {
    const m = meanOver(rec, 'VO2', t0, t0 + bin_s - 1e-9);
    if (Number.isFinite(m)) means.push(m);
  }
  if (means.length < 6) {
    return { kind: 'unknown', source: 'VO2', stages: [], short_segments: 0, detail: `only ${means.length} bins of ${bin_s} s: too short to tell steps from a ramp.` };
  }
  const rise = (means[means.length - 1] - means[0]) / (means.length - 1);
  if (!(rise > 0)) {
    return { kind: 'unknown', source: 'VO2', stages: [], short_segments: 0, detail: 'VO2 does not rise over exercise: neither steps nor a ramp.' };
  }
  let steady = 0;
  for (let k = 1; k < means.length; k++) if (Math.abs(means[k] - means[k - 1]) < 0.5 * rise) steady++;
  const fraction = steady / (means.length - 1);
  const pct = Math.round(100 * fraction);
  return fraction >= opts.min_steady_fraction
    ? { kind: 'steps', source: 'VO2', stages: [], short_segments: 0, detail: `no work-rate channel; ${pct} % of ${bin_s}-s VO2 changes are plateaus, as on a stepped test.` }
    : { kind: 'ramp', source: 'VO2', stages: [], short_segments: 0, detail: `no work-rate channel; only ${pct} % of ${bin_s}-s VO2 changes are plateaus: VO2 rises throughout, as on a ramp.` };
}
