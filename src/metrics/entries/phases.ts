/**
 * `phases`: rest, warm-up, exercise and recovery with their boundaries, from the file's markers or
 * inferred (src/signal/phases.ts), with the method and its expected error.
 */
import type { MetricEntry } from '../metric-entry.js';
import { phasesOf, type PhaseSpanS } from '../../signal/phases.js';
import { ok, round, unavailable } from '../result.js';

function span(s: PhaseSpanS | null): { t_start_s: number | null; t_end_s: number | null } | null {
  return s ? { t_start_s: round(s.t_start_s, 1), t_end_s: round(s.t_end_s, 1) } : null;
}

/** The `phases` entry. */
export const phasesMetric: MetricEntry = {
  name: 'phases',
  returns:
    '{rest, warmup, exercise, recovery, method, exercise_bouts, expected_error_s, notes}: each phase {t_start_s, t_end_s} or null when not present; method is "file markers", "load", "speed" or "gas signals"; exercise_bouts above 1 marks an interval test.',
  unit: 's',
  requires: [],
  min_duration_s: 60,
  notes:
    "From the file's phase markers when it has them (exact to a sample); else inferred from the work rate (about 10 s of error) or the gases (VO2 lags the work by 30-45 s, so about 45 s). Rest and an unloaded warm-up are told apart only where VO2 steps up between them. No recovery is reported when the record ends at peak.",
  compute(rec) {
    const p = phasesOf(rec);
    if (!p) {
      return unavailable('INSUFFICIENT_SIGNAL', 'phases: the file has no phase markers, and neither the work rate nor the gases show an exercise phase.', {
        tried: ['file markers', 'load', 'speed', 'gas signals'],
      });
    }
    return ok({
      rest: span(p.rest),
      warmup: span(p.warmup),
      exercise: span(p.exercise),
      recovery: span(p.recovery),
      method: p.method,
      exercise_bouts: p.exercise_bouts ?? 1,
      expected_error_s: round(p.expected_error_s, 1),
      notes: p.notes,
    });
  },
};
