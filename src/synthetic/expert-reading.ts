/**
 * What the synthetic truth means: where an expert marks a threshold, not where its changes begin.
 * Readers mark VT1 once its signs are plain on the plot; the classic breakpoint criteria, which find
 * where the changes begin, read VT1 about a minute before the experts on real labelled tests (the
 * project's measurement, issue 10). The mean delay is calibrated by scripts/train/reading-delay.ts:
 * with it, the frozen classic engine reads VT1 as early on the realistic training cohort as on real
 * tests. No such delay is measured at VT2, so none is applied there.
 */

/** Mean delay (s) between the start of VT1's changes and the expert's mark; spread and bounds of its draw per test. */
export const VT1_READING_DELAY = { mean_s: 85, sd_s: 30, min_s: 10, max_s: 150 } as const;
