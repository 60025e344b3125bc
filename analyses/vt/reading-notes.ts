/**
 * The notes for a threshold the model did not give, in words that say what was looked at: "not reached"
 * only when the curves were read to the last second of the analysed span and stayed below the domain;
 * "not assessable", with the seconds not read, when the tail was not read or the evidence was still
 * rising at the last second read.
 */
import type { ReadSpan } from './read-span.js';

/** What a decision rule's evidence may say about a missing VT2 (decision/corroborated.ts). */
export interface MissingEvidence {
  placed_by?: string;
  at_or_after_s?: number;
}

function unreadTail(span: ReadSpan): string {
  return span.read_until_s === null
    ? `the model's curves describe none of the analysed span (to ${span.analysed_until_s} s)`
    : `the model's curves stop at ${span.read_until_s} s, so the last ${span.unread_s} s of the analysed span (to ${span.analysed_until_s} s) were not read`;
}

/**
 * Notes for a missing VT1 and/or VT2; `span` is absent for engines that place thresholds themselves (they
 * read the whole span); `vt2NotSought` is such an engine's reason when it had no VT2 criterion it could run.
 */
export function missingThresholdNotes(vt1Missing: boolean, vt2Missing: boolean, span: ReadSpan | undefined, vt2: MissingEvidence | undefined, vt2NotSought?: string): string[] {
  const unread = span !== undefined && span.unread_s > 0;
  if (vt1Missing) {
    return [
      unread
        ? `No VT1 in the seconds read: ${unreadTail(span)}; a threshold there is not assessable (not an error).`
        : 'No VT1: the subject did not leave the moderate domain in this recording, so no threshold is reported (not an error).',
    ];
  }
  if (!vt2Missing) return [];
  if (vt2?.placed_by === 'not assessable' && vt2.at_or_after_s !== undefined) {
    return [
      `VT2 not assessable: the evidence for the severe domain was still rising at the last second read, so VT2 lies at or after ${vt2.at_or_after_s} s if the test reached it (evidence.vt2.at_or_after_s).`,
    ];
  }
  if (vt2NotSought) return [vt2NotSought];
  if (unread) return [`VT2 not assessable: ${unreadTail(span)}, and a VT2 in them cannot be excluded.`];
  return ['No VT2: the test ended before the severe domain (respiratory compensation) was reached.'];
}
