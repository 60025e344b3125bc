/**
 * Breath outliers (coughs, swallows, sighs): breaths far from their neighbours, removed before a
 * peak is taken so that one cough cannot make a 30-s VO2peak. After Lamarra et al. (J Appl
 * Physiol 1987), who dropped breaths lying more than 4 SD from the local mean; here the local
 * level is a running median, the distance relative to it (breath noise is multiplicative) and
 * the SD a robust one (1.4826 x the median absolute deviation). For positive signals (gases, VE).
 */
import { selectInPlace } from './select.js';

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
  // The finite values once, NaN where there is none, so the window's loops read one typed array.
  const finite = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const v = values[j];
    finite[j] = v !== null && Number.isFinite(v) ? v : Number.NaN;
  }
  // The window's finite values in ascending order, shifted in place by plain loops (a window holds a
  // few dozen samples, fewer than a copyWithin call costs to set up).
  const sorted = new Float64Array(n);
  let size = 0;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    while (hi < n && t_s[hi] <= t_s[i] + half) {
      const v = finite[hi];
      if (!Number.isNaN(v)) {
        const at = lowerBound(sorted, size, v);
        for (let j = size; j > at; j--) sorted[j] = sorted[j - 1];
        sorted[at] = v;
        size++;
      }
      hi++;
    }
    while (t_s[lo] < t_s[i] - half) {
      const v = finite[lo];
      if (!Number.isNaN(v)) {
        size--;
        for (let j = lowerBound(sorted, size + 1, v); j < size; j++) sorted[j] = sorted[j + 1];
      }
      lo++;
    }
    const x = finite[i];
    if (Number.isNaN(x) || size < 5) continue;
    const m = size >> 1;
    const med = size % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    // Relative distance: breath noise scales with the level (about the same CV at rest and at peak).
    if (med > 0) resid[i] = (x - med) / med;
  }
  let count = 0;
  const abs = new Float64Array(n);
  for (let i = 0; i < n; i++) if (Number.isFinite(resid[i])) abs[count++] = Math.abs(resid[i]);
  if (count === 0) return [...values];
  const mad = selectInPlace(abs.subarray(0, count), count >> 1);
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
