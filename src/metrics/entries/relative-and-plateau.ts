/**
 * Metrics researchers report beside VO2peak: VO2peak per kilogram of body mass, and whether VO2
 * levelled off at the end of the test (the plateau that separates a VO2max from a VO2peak).
 */
import type { Recording } from '../../recording/recording.js';
import type { MetricEntry, MetricResult } from '../metric-entry.js';
import { cleaned } from '../cleaned.js';
import { ok, round, unavailable } from '../result.js';
import { vo2Peak } from '../vo2peak.js';
import { PEAK_WINDOW_S } from './peak-window.js';

/** `vo2max_relative`: VO2peak over body mass, mL/kg/min; body mass from the request, else from the file. */
export const vo2maxRelative: MetricEntry = {
  name: 'vo2max_relative',
  returns: 'VO2peak divided by body mass: value is a number in mL/kg/min; detail gives VO2peak (mL/min), the body mass (kg) and where the body mass came from (request or file).',
  unit: 'mL/kg/min',
  requires: ['VO2'],
  min_duration_s: PEAK_WINDOW_S,
  notes:
    'VO2peak under the averaging requested (the same value vo2max gives) over the body mass given as body_mass_kg in the request, or else the one the file records. Unavailable when neither exists, and the refusal names the missing body mass.',
  compute(rec, options) {
    const fromRequest = options.body_mass_kg;
    const fromFile = rec.subject.body_mass_kg ?? null;
    const mass = fromRequest ?? fromFile;
    if (mass === null || !(mass > 0)) {
      return unavailable('INSUFFICIENT_SIGNAL', 'vo2max_relative needs a body mass: this file records none; give body_mass_kg in the request.', {
        reason: 'MISSING_BODY_MASS',
        missing: ['body_mass_kg'],
      });
    }
    const peak = vo2Peak(rec, options.averaging);
    if (!peak) return unavailable('INSUFFICIENT_SIGNAL', 'vo2max_relative: no window of the requested averaging holds enough valid VO2 samples.', { averaging: options.averaging });
    return ok(round(peak.value / mass, 1), {
      vo2_ml_min: round(peak.value, 1),
      body_mass_kg: round(mass, 1),
      body_mass_source: fromRequest !== null ? 'request' : 'file',
      averaging: options.averaging,
    });
  },
};

/**
 * Plateau criteria: Taylor, Buskirk & Henschel (J Appl Physiol 1955) called a plateau an increase
 * of less than 150 mL/min for a further increase in work; the stricter 50 mL/min variant is the one
 * Midgley et al. (Sports Med 2007) review for continuous tests. Both compare the peak with the 30 s
 * of exercise just before the peak window.
 */
export const PLATEAU_CRITERIA = [
  { name: 'taylor_1955_150', threshold_ml_min: 150, source: 'Taylor, Buskirk & Henschel 1955' },
  { name: 'delta_50', threshold_ml_min: 50, source: 'Midgley et al. 2007 (50 mL/min variant)' },
] as const;

/** Mean cleaned VO2 over (from, to]; null with fewer than two samples, or when they cover under half the span. */
function meanOver(rec: Recording, values: readonly (number | null)[], from_s: number, to_s: number): number | null {
  let sum = 0;
  let n = 0;
  let first = Number.NaN;
  let last = Number.NaN;
  for (let i = 0; i < rec.t_s.length; i++) {
    const t = rec.t_s[i];
    const v = values[i];
    if (t <= from_s || t > to_s || v === null || !Number.isFinite(v)) continue;
    if (n === 0) first = t;
    last = t;
    sum += v;
    n++;
  }
  const averaged = rec.sampling.method === 'averaged';
  return n >= (averaged ? 1 : 2) && (averaged || last - first >= (to_s - from_s) / 2) ? sum / n : null;
}

/** `vo2_plateau`: did VO2 level off at its peak, by the named criterion. */
export const vo2Plateau: MetricEntry = {
  name: 'vo2_plateau',
  returns:
    'Whether VO2 levelled off at its peak: value is {plateau (boolean), criterion (taylor_1955_150), threshold_ml_min, delta_ml_min}; detail.criteria gives every criterion (taylor_1955_150, delta_50) with its verdict, and the two windows compared.',
  unit: 'mL/min',
  requires: ['VO2'],
  min_duration_s: 2 * PEAK_WINDOW_S,
  notes:
    "delta_ml_min is VO2peak (under the averaging requested) minus the mean VO2 of the 30 s just before the peak window. Taylor 1955 set 150 mL/min for a discontinuous treadmill test; on a fast ramp, VO2 can rise less than that in 30 s without a plateau, so read delta_50 (Midgley 2007) as well. A test stopped before exhaustion shows no plateau whatever the subject's VO2max.",
  compute(rec, options) {
    const peak = vo2Peak(rec, options.averaging);
    if (!peak) return unavailable('INSUFFICIENT_SIGNAL', 'vo2_plateau: no window of the requested averaging holds enough valid VO2 samples.', { averaging: options.averaging });
    const before = meanOver(rec, cleaned(rec, 'VO2'), peak.t_start_s - PEAK_WINDOW_S, peak.t_start_s);
    if (before === null) {
      return unavailable('INSUFFICIENT_SIGNAL', `vo2_plateau: the ${PEAK_WINDOW_S} s before the VO2 peak window hold too few VO2 samples to compare (the peak sits at the start of the record).`, {
        peak_t_start_s: round(peak.t_start_s, 1),
      });
    }
    const delta = peak.value - before;
    const criteria = PLATEAU_CRITERIA.map((c) => ({ ...c, plateau: delta < c.threshold_ml_min }));
    const headline = criteria[0];
    const result: MetricResult = ok(
      { plateau: headline.plateau, criterion: headline.name, threshold_ml_min: headline.threshold_ml_min, delta_ml_min: round(delta, 1) },
      {
        criteria,
        peak_ml_min: round(peak.value, 1),
        peak_window: { t_start_s: round(peak.t_start_s, 1), t_end_s: round(peak.t_end_s, 1) },
        before_ml_min: round(before, 1),
        before_window: { t_start_s: round(peak.t_start_s - PEAK_WINDOW_S, 1), t_end_s: round(peak.t_start_s, 1) },
        averaging: options.averaging,
      },
    );
    return result;
  },
};
