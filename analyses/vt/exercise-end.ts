/**
 * The last second of exercise on the prepared grid, for the models that read a test to its last
 * breath. The analysed span of every engine ends at the 30-s VO2 peak (preprocess.ts), whose centred
 * mean sits about 15 s before exercise stops: on a test that ends soon after VT2 those seconds hold
 * most of the respiratory compensation there is to see.
 */
import type { Recording } from '../../src/recording/recording.js';
import { phasesOf } from '../../src/signal/phases.js';
import type { PreparedTest } from './preprocess.js';

/** At most this far past the VO2 peak, s: an exercise end read from the gases alone may sit in recovery. */
const MAX_PAST_PEAK_S = 45;

/** Grid index of the last second of exercise (phasesOf), never before the VO2 peak nor more than MAX_PAST_PEAK_S after it. */
export function exerciseEndIndex(rec: Recording, test: PreparedTest): number {
  const phases = phasesOf(rec);
  const end = phases ? Math.floor(phases.exercise.t_end_s - test.t0_s) : test.end_index;
  return Math.max(test.end_index, Math.min(test.n - 1, test.end_index + MAX_PAST_PEAK_S, end));
}
