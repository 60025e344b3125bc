/**
 * Usual positions of the thresholds as % of VO2peak: VT1 at 40-80 %, VT2 at 65-95 % (ranges of
 * the project's sanity rule; healthy adults and athletes span them, Wasserman's Principles of
 * Exercise Testing and Interpretation). A threshold outside is reported with a note, never hidden.
 */

export const VT1_PCT_RANGE: readonly [number, number] = [40, 80];
export const VT2_PCT_RANGE: readonly [number, number] = [65, 95];

/** Notes for thresholds outside their usual range (empty when both are inside or absent). */
export function plausibilityNotes(vt1Pct: number | null, vt2Pct: number | null): string[] {
  const notes: string[] = [];
  const check = (v: number | null, [lo, hi]: readonly [number, number], label: string) => {
    if (v !== null && (v < lo || v > hi)) notes.push(`${label} at ${v} % of VO2peak lies outside the usual ${lo}-${hi} %: read it against the recording before use.`);
  };
  check(vt1Pct, VT1_PCT_RANGE, 'VT1');
  check(vt2Pct, VT2_PCT_RANGE, 'VT2');
  return notes;
}
