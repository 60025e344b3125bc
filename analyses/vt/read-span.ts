/**
 * Which seconds of the analysed span a learned engine's curves describe, so that a missing threshold
 * is reported as "not reached" only when the curves were read to the end, and as "not assessable",
 * with the seconds not read, otherwise.
 */
import type { DomainCurves } from './decision/curves.js';
import type { PreparedTest } from './preprocess.js';

export interface ReadSpan {
  /** Last second of the analysed span (the 30-s VO2 peak, or the last second of exercise for a model that reads on to it), s from the start of the recording. */
  analysed_until_s: number;
  /** Last second the curves describe, s (null when they describe none). */
  read_until_s: number | null;
  /** Seconds of the analysed span after read_until_s: nothing there was read. */
  unread_s: number;
}

/** The read span of per-second curves on the test's grid up to grid index `end` (an undefined value is a second not read). */
export function readSpan(test: PreparedTest, curves: DomainCurves, end = test.end_index): ReadSpan {
  let last = Math.min(end, curves.moderate.length - 1);
  while (last >= 0 && !Number.isFinite(curves.moderate[last])) last--;
  return {
    analysed_until_s: test.t0_s + end,
    read_until_s: last >= 0 ? test.t0_s + last : null,
    unread_s: end - last,
  };
}
