/**
 * A scaling range that does not depend on where the test stops (card `preprocessing.scaling_range:
 * reference_tail`, gandalf v1.4.0).
 *
 * The Oxynet CNN reads each channel min-max scaled over the test, and was trained on tests that ran on
 * past the respiratory compensation point: the Oxynet database's VT2-to-end is a median of 115 s on its
 * 180 tests with rest (scripts/train/oxynet-summaries, the model's training tests). A test stopped
 * sooner has lower VO2, VCO2 and VE tops and a higher PetCO2 floor, so every second reads nearer the
 * top of its range and the curves cross early (analyses/vt/README.md, gandalf v1.3.0). Here each
 * channel's range is the one the test would have spanned had it run REFERENCE_TAIL_S past its
 * compensation point: the channel's end trend, fitted over the seconds after compensation (at least the
 * last TREND_S), carried on to that second. The compensation point is the one the end-of-test gases show
 * in their own units (VE/VCO2, PetCO2, VE against VCO2; Beaver, Wasserman & Whipp 1986), so no range
 * enters it. A test that already ran that long, or whose gases show no compensation, keeps its measured
 * range.
 */

/** Seconds past the compensation point the range reaches: the training tests' median VT2-to-end (with rest). */
export const REFERENCE_TAIL_S = 115;
/** Fewest seconds an end trend is fitted over, so a short tail's slope is not a few breaths' noise. */
const TREND_S = 60;

/** Least-squares value at `at` of the line through values[lo..hi] against their indices. */
function lineAt(values: ArrayLike<number>, lo: number, hi: number, at: number): number {
  const n = hi - lo + 1;
  const mx = (lo + hi) / 2;
  let my = 0;
  for (let i = lo; i <= hi; i++) my += values[i];
  my /= n;
  let sxy = 0;
  let sxx = 0;
  for (let i = lo; i <= hi; i++) {
    sxy += (i - mx) * (values[i] - my);
    sxx += (i - mx) * (i - mx);
  }
  return my + (sxx > 0 ? sxy / sxx : 0) * (at - mx);
}

/**
 * Per channel [min, max] over `channels` (1-Hz, the analysed span), widened to the value each channel's
 * end trend reaches REFERENCE_TAIL_S after `compensation` (an index of the same seconds; null: none).
 */
export function referenceRanges(channels: readonly ArrayLike<number>[], compensation: number | null): [number, number][] {
  return channels.map((c) => {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 0; i < c.length; i++) {
      if (c[i] < min) min = c[i];
      if (c[i] > max) max = c[i];
    }
    const last = c.length - 1;
    if (compensation === null || compensation + REFERENCE_TAIL_S <= last) return [min, max];
    const reached = lineAt(c, Math.max(0, Math.min(compensation, last - TREND_S)), last, compensation + REFERENCE_TAIL_S);
    return [Math.min(min, reached), Math.max(max, reached)];
  });
}
