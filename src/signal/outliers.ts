/**
 * Breath outliers (coughs, swallows, sighs): breaths far from their neighbours, removed before a
 * peak is taken so that one cough cannot make a 30-s VO2peak. After Lamarra et al. (J Appl
 * Physiol 1987), who dropped breaths lying more than 4 SD from the local mean; here the local
 * level is a running median, the distance relative to it (breath noise is multiplicative) and
 * the SD a robust one (1.4826 x the median absolute deviation). For positive signals (gases, VE).
 */

/** Distance from the local level, in robust SDs, beyond which a breath is an outlier (Lamarra 1987). */
export const OUTLIER_SD = 4;
/** Width of the local neighbourhood, s. */
export const OUTLIER_WINDOW_S = 30;

/**
 * A copy of `values` with outlying samples replaced by null. A sample is compared with the median
 * of the samples within +-window_s / 2 (itself included; kept in a sorted window, so the cost is
 * linear in the window); samples with fewer than 5 in their window are kept.
 */
export function maskOutliers(t_s: readonly number[], values: readonly (number | null)[], window_s = OUTLIER_WINDOW_S, k = OUTLIER_SD): (number | null)[] {
  const n = t_s.length;
  const resid = new Float64Array(n).fill(Number.NaN);
  const half = window_s / 2;
  const sorted: number[] = [];
  const ok = (j: number) => {
    const v = values[j];
    return v !== null && Number.isFinite(v);
  };
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    while (hi < n && t_s[hi] <= t_s[i] + half) {
      if (ok(hi)) sorted.splice(lowerBound(sorted, values[hi] as number), 0, values[hi] as number);
      hi++;
    }
    while (t_s[lo] < t_s[i] - half) {
      if (ok(lo)) sorted.splice(lowerBound(sorted, values[lo] as number), 1);
      lo++;
    }
    if (!ok(i) || sorted.length < 5) continue;
    const m = sorted.length >> 1;
    const med = sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    // Relative distance: breath noise scales with the level (about the same CV at rest and at peak).
    if (med > 0) resid[i] = ((values[i] as number) - med) / med;
  }
  let count = 0;
  const abs = new Float64Array(n);
  for (let i = 0; i < n; i++) if (Number.isFinite(resid[i])) abs[count++] = Math.abs(resid[i]);
  if (count === 0) return [...values];
  // A typed array sorts numerically without a comparator call per pair.
  abs.subarray(0, count).sort();
  const mad = abs[count >> 1];
  const limit = k * 1.4826 * mad;
  if (!(limit > 0)) return [...values];
  return values.map((v, i) => (Number.isFinite(resid[i]) && Math.abs(resid[i]) > limit ? null : v));
}

/** First index in ascending `a` whose value is >= x. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
