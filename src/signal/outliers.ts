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
  // The window's finite values in ascending order, shifted in place (no array per insert or removal).
  const sorted = new Float64Array(n);
  let size = 0;
  const ok = (j: number) => {
    const v = values[j];
    return v !== null && Number.isFinite(v);
  };
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    while (hi < n && t_s[hi] <= t_s[i] + half) {
      if (ok(hi)) {
        const v = values[hi] as number;
        const at = lowerBound(sorted, size, v);
        sorted.copyWithin(at + 1, at, size);
        sorted[at] = v;
        size++;
      }
      hi++;
    }
    while (t_s[lo] < t_s[i] - half) {
      if (ok(lo)) {
        const at = lowerBound(sorted, size, values[lo] as number);
        sorted.copyWithin(at, at + 1, size);
        size--;
      }
      lo++;
    }
    if (!ok(i) || size < 5) continue;
    const m = size >> 1;
    const med = size % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
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

/** First index in ascending `a[0, size)` whose value is >= x. */
function lowerBound(a: Float64Array, size: number, x: number): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
