/**
 * `stage_summary`: one row per stage of a step protocol, the means over the last 30 s of each stage
 * (where VO2 is closest to its steady state), as spiro's `spiro_summary` reports (Nolte, J Open
 * Source Softw 2023). Stages come from the caller's protocol when given (stage duration, from the
 * exercise onset), else from the work rate holding still.
 */
import type { ChannelName, Recording } from '../../recording/recording.js';
import { channel, coverage } from '../../recording/recording.js';
import { phasesOf, protocolFor, type PhaseSpanS } from '../../signal/phases.js';
import { describeInput } from '../../signal/protocol.js';
import { runningMedian } from '../../signal/smooth.js';
import type { MetricEntry, MetricOptions, MetricResult } from '../metric-entry.js';
import { ok, round, unavailable } from '../result.js';

/** Length of the averaged tail of each stage, s (spiro's `spiro_summary` default, the last 30 s). */
const TAIL_S = 30;
/** Shortest constant work-rate stretch read as a stage, s: shorter holds are a ramp's increments. */
const MIN_STAGE_S = 60;

const WORK: readonly { name: 'Load' | 'Speed'; abs_tol: number; unit: string }[] = [
  { name: 'Load', abs_tol: 5, unit: 'W' },
  { name: 'Speed', abs_tol: 0.3, unit: 'km/h' },
];

const MEANS: readonly [ChannelName, string][] = [
  ['VO2', 'vo2_ml_min'],
  ['VCO2', 'vco2_ml_min'],
  ['VE', 've_l_min'],
  ['HR', 'hr_bpm'],
];

interface Stage extends PhaseSpanS {
  /** The stage's work rate: the median of the channel over the stage, or the level the caller's protocol sets. */
  level: number | null;
}

function finite(v: number | null | undefined): v is number {
  return v !== null && v !== undefined && Number.isFinite(v);
}

/** Stretches within `span` where the work rate holds within tolerance of its first value, at least MIN_STAGE_S long. */
function stagesFromWork(rec: Recording, name: 'Load' | 'Speed', absTol: number, span: PhaseSpanS): Stage[] {
  const v = runningMedian(channel(rec, name) ?? [], 2);
  const out: Stage[] = [];
  let start = -1;
  let ref = Number.NaN;
  const close = (endIdx: number) => {
    if (start >= 0 && rec.t_s[endIdx] - rec.t_s[start] >= MIN_STAGE_S) {
      const xs = v
        .slice(start, endIdx + 1)
        .filter(finite)
        .sort((a, b) => a - b);
      out.push({ t_start_s: rec.t_s[start], t_end_s: rec.t_s[endIdx], level: xs[xs.length >> 1] });
    }
  };
  let last = -1;
  for (let i = 0; i < rec.t_s.length; i++) {
    const x = v[i];
    if (rec.t_s[i] < span.t_start_s || rec.t_s[i] > span.t_end_s || !finite(x)) continue;
    if (start >= 0 && Math.abs(x - ref) <= Math.max(absTol, 0.03 * Math.abs(ref))) {
      last = i;
      continue;
    }
    if (last >= 0) close(last);
    start = i;
    last = i;
    ref = x;
  }
  if (last >= 0) close(last);
  return out;
}

/**
 * Indices [lo, hi) of the samples timed within [from_s, to_s]: two binary searches on the clock, which
 * a Recording keeps strictly increasing, so each stage reads its tail only instead of every sample of
 * the recording (a long stepped test has hundreds of stages; issue 23). The whole record when the clock
 * is not ordered; the callers still test each sample's time, so either range gives the same sums.
 */
function tailRange(t_s: readonly number[], ordered: boolean, from_s: number, to_s: number): [number, number] {
  if (!ordered) return [0, t_s.length];
  const firstAtLeast = (x: number, strict: boolean) => {
    let lo = 0;
    let hi = t_s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strict ? t_s[mid] <= x : t_s[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [firstAtLeast(from_s, false), firstAtLeast(to_s, true)];
}

function isOrdered(t_s: readonly number[]): boolean {
  for (let i = 1; i < t_s.length; i++) if (!(t_s[i] > t_s[i - 1])) return false;
  return true;
}

function summarise(rec: Recording, stage: Stage, index: number, ordered: boolean): Record<string, number | null> {
  const from = Math.max(stage.t_start_s, stage.t_end_s - TAIL_S);
  const row: Record<string, number | null> = { stage: index + 1, t_start_s: round(stage.t_start_s, 1), t_end_s: round(stage.t_end_s, 1), tail_from_s: round(from, 1) };
  const [lo, hi] = tailRange(rec.t_s, ordered, from, stage.t_end_s);
  const mean = (name: ChannelName): { m: number | null; n: number } => {
    const values = channel(rec, name);
    if (!values) return { m: null, n: 0 };
    let s = 0;
    let n = 0;
    for (let i = lo; i < hi; i++) {
      const x = values[i];
      if (rec.t_s[i] >= from && rec.t_s[i] <= stage.t_end_s && finite(x)) {
        s += x;
        n++;
      }
    }
    return { m: n > 0 ? s / n : null, n };
  };
  const means = new Map(MEANS.map(([name]) => [name, mean(name)]));
  for (const [name, key] of MEANS) row[key] = round(means.get(name)?.m ?? Number.NaN, name === 'VE' || name === 'HR' ? 1 : 0);
  const vo2 = means.get('VO2') ?? { m: null, n: 0 };
  const vco2 = means.get('VCO2')?.m ?? null;
  row.rer = vo2.m !== null && vco2 !== null && vo2.m > 0 ? round(vco2 / vo2.m, 3) : null;
  row.n_samples = vo2.n;
  row.level = round(stage.level ?? Number.NaN, 1);
  return row;
}

/** The summary of one recording under the request's protocol (when given). */
export function computeStageSummary(rec: Recording, options: Pick<MetricOptions, 'protocol'> = { protocol: null }): MetricResult {
  const phases = phasesOf(rec);
  if (!phases) return unavailable('INSUFFICIENT_SIGNAL', 'stage_summary: no exercise phase was found, so there are no stages to summarise.', { reason: 'no exercise phase' });
  const protocol = protocolFor(rec, options.protocol);
  if (protocol.kind === 'constant' || protocol.kind === 'interval') {
    return unavailable(
      'INSUFFICIENT_SIGNAL',
      `stage_summary summarises the stages of a step protocol; this is ${protocol.kind === 'constant' ? 'a constant-load test' : 'an interval session'} (${protocol.detail})`,
      {
        protocol: protocol.kind,
        hint: 'give the protocol with the request when the recording does not show it',
      },
    );
  }
  const span = protocol.incremental ?? phases.exercise;
  let stages: Stage[];
  let source: string;
  let unit: string | null = null;
  const input = protocol.input;
  if (input?.kind === 'ramp') {
    return unavailable('INSUFFICIENT_SIGNAL', `stage_summary: the request states a ramp (${describeInput(input)}), which has no stages.`, { protocol: 'ramp' });
  }
  if (input?.kind === 'steps') {
    stages = [];
    const increment = input.increment_w ?? input.increment_kmh ?? null;
    const first = input.first_stage_w ?? null;
    // The last stage counts when it is complete to within one sample (an averaged export stamps each row at its end).
    const slack = rec.sampling.raw_interval_s ?? 0;
    for (let t = span.t_start_s, k = 0; t + input.stage_s <= span.t_end_s + slack + 1e-9; t += input.stage_s, k++) {
      stages.push({ t_start_s: t, t_end_s: t + input.stage_s, level: first !== null && increment !== null ? first + k * increment : null });
    }
    source = `the request: ${describeInput(input)}`;
    unit = input.increment_kmh !== undefined ? 'km/h' : 'W';
  } else {
    const work = WORK.find((w) => coverage(rec, w.name) >= 0.5);
    if (!work) {
      return unavailable('INSUFFICIENT_SIGNAL', 'stage_summary: no work-rate channel places the stages; give the protocol (stage duration) with the request.', { reason: 'no work-rate channel' });
    }
    stages = stagesFromWork(rec, work.name, work.abs_tol, span);
    source = `${work.name} holding still for at least ${MIN_STAGE_S} s`;
    unit = work.unit;
  }
  if (stages.length < 2) {
    return unavailable(
      'INSUFFICIENT_SIGNAL',
      `stage_summary: ${stages.length} stage of at least ${MIN_STAGE_S} s found (${source}); a ramp has no stages, and a step protocol the file does not show can be given with the request.`,
      {
        stages_found: stages.length,
        min_stage_s: MIN_STAGE_S,
      },
    );
  }
  const ordered = isOrdered(rec.t_s);
  return ok({
    source,
    tail_s: TAIL_S,
    level_unit: unit,
    protocol_input: input,
    stages: stages.map((s, i) => summarise(rec, s, i, ordered)),
  });
}

/** The `stage_summary` entry. */
export const stageSummary: MetricEntry = {
  name: 'stage_summary',
  returns:
    '{source, tail_s, level_unit, protocol_input, stages}: one row per stage {stage, t_start_s, t_end_s, tail_from_s, vo2_ml_min, vco2_ml_min, ve_l_min, hr_bpm, rer, n_samples, level}, the means over the last 30 s of each stage.',
  unit: null,
  requires: ['VO2'],
  min_duration_s: 120,
  notes:
    'Stages come from the protocol given with the request (stage duration from the exercise onset) or from the work rate holding still for at least 60 s; a ramp, a constant-load test and an interval session have no stages and are refused with the reason. level is the median work rate over the stage (or the one the request sets).',
  compute: (rec, options) => computeStageSummary(rec, options),
};
