/**
 * `sampling_adequacy`: what the file's sampling can resolve of an oscillation, from the shared
 * band (src/signal/oscillation-band.ts) so it always agrees with the EOV analysis.
 */
import { GRADED_PERIOD_MAX_S, GRADED_PERIOD_MIN_S, oscillationBand, SAMPLES_PER_CYCLE } from '../../signal/oscillation-band.js';
import type { MetricEntry } from '../metric-entry.js';
import { ok, round, unavailable } from '../result.js';

/** The `sampling_adequacy` entry. */
export const samplingAdequacy: MetricEntry = {
  name: 'sampling_adequacy',
  returns: '{raw_interval_s, method, averaging_s, period_floor_s, period_ceiling_s, band_narrowed, gradable, note}: the sampling and the band of oscillation periods it resolves.',
  unit: 's',
  requires: [],
  min_duration_s: 0,
  notes: `Oscillations are graded over ${GRADED_PERIOD_MIN_S}-${GRADED_PERIOD_MAX_S} s periods (Corrà 2002; Leite 2003); a period needs ${SAMPLES_PER_CYCLE} samples per cycle to be seen, so averaging raises the floor: 10-s averages resolve 40 s, 1-min averages resolve nothing graded.`,
  compute(rec) {
    const s = rec.sampling;
    const interval = Math.max(s.raw_interval_s ?? 0, s.method === 'averaged' ? (s.averaging_s ?? 0) : 0);
    if (!(interval > 0)) {
      return unavailable('INSUFFICIENT_SIGNAL', 'sampling_adequacy: the sampling interval of this file cannot be told.', { raw_interval_s: s.raw_interval_s });
    }
    const band = oscillationBand(interval);
    const kind = s.method === 'breath_by_breath' ? 'breath by breath' : s.method === 'averaged' ? `${round(interval, 1)}-s averages` : 'an unknown sampling';
    let note: string;
    if (!band.gradable) {
      note = `${kind} cannot resolve oscillation: periods shorter than ${band.period_floor_s} s are invisible, which covers the whole graded ${GRADED_PERIOD_MIN_S}-${GRADED_PERIOD_MAX_S} s band.`;
    } else if (band.band_narrowed) {
      note = `${kind} resolve periods from ${band.period_floor_s} s only; the graded band is narrowed to ${band.period_floor_s}-${band.period_ceiling_s} s.`;
    } else {
      note = `${kind} (every ${round(interval, 2)} s) resolve the whole graded ${GRADED_PERIOD_MIN_S}-${GRADED_PERIOD_MAX_S} s band.`;
    }
    if (!s.interval_known) note += ' The interval was assumed, not read from the file.';
    return ok({
      raw_interval_s: s.raw_interval_s,
      method: s.method,
      averaging_s: s.averaging_s ?? null,
      period_floor_s: band.period_floor_s,
      period_ceiling_s: band.period_ceiling_s,
      band_narrowed: band.band_narrowed,
      gradable: band.gradable,
      note,
    });
  },
};
