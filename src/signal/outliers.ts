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
 * of the other samples within +-window_s / 2; samples with fewer than 4 neighbours are kept.
 */
export function maskOutliers(t_s: readonly number[], values: readonly (number | null)[], window_s = OUTLIER_WINDOW_S, k = OUTLIER_SD): (number | null)[] {
  const n = t_s.length;
  const resid = new Float64Array(n).fill(Number.NaN);
  const half = window_s / 2;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    while (t_s[lo] < t_s[i] - half) lo++;
    while (hi < n && t_s[hi] <= t_s[i] + half) hi++;
    if (v === null || !Number.isFinite(v)) continue;
    const neighbours: number[] = [];
    for (let j = lo; j < hi; j++) {
      const w = values[j];
      if (j !== i && w !== null && Number.isFinite(w)) neighbours.push(w);
    }
    if (neighbours.length < 4) continue;
    neighbours.sort((a, b) => a - b);
    const m = neighbours.length >> 1;
    const med = neighbours.length % 2 ? neighbours[m] : (neighbours[m - 1] + neighbours[m]) / 2;
    // Relative distance: breath noise scales with the level (about the same CV at rest and at peak).
    if (med > 0) resid[i] = (v - med) / med;
  }
  const abs = Array.from(resid).filter(Number.isFinite).map(Math.abs).sort((a, b) => a - b);
  if (abs.length === 0) return [...values];
  const mad = abs[abs.length >> 1];
  const limit = k * 1.4826 * mad;
  if (!(limit > 0)) return [...values];
  return values.map((v, i) => (Number.isFinite(resid[i]) && Math.abs(resid[i]) > limit ? null : v));
}
