/**
 * Largest-Triangle-Three-Buckets downsampling (Steinarsson 2013): keeps the points that shape the
 * curve. LTTB alone can drop the highest or lowest sample (its triangle may lose to a neighbour's), so
 * each extreme replaces the point chosen in its own bucket: a plot of 500 points always shows the VO2
 * peak the full record has.
 */

/** Indices of the points to keep (always the first and last): `threshold` of them, or all when there are fewer (or threshold < 3). */
export function lttbIndices(x: ArrayLike<number>, y: ArrayLike<number>, threshold: number): number[] {
  const n = x.length;
  if (threshold >= n || threshold < 3) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [0];
  const bucket = (n - 2) / (threshold - 2);
  let a = 0;
  for (let i = 0; i < threshold - 2; i++) {
    const start = Math.floor(i * bucket) + 1;
    const end = Math.min(Math.floor((i + 1) * bucket) + 1, n - 1);
    const nextStart = end;
    const nextEnd = Math.min(Math.floor((i + 2) * bucket) + 1, n);
    let avgX = 0;
    let avgY = 0;
    for (let j = nextStart; j < nextEnd; j++) {
      avgX += x[j];
      avgY += y[j];
    }
    const count = Math.max(1, nextEnd - nextStart);
    avgX /= count;
    avgY /= count;
    let best = start;
    let bestArea = -1;
    for (let j = start; j < end; j++) {
      const area = Math.abs((x[a] - avgX) * (y[j] - y[a]) - (x[a] - x[j]) * (avgY - y[a]));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    out.push(best);
    a = best;
  }
  out.push(n - 1);
  let hi = 0;
  let lo = 0;
  for (let j = 1; j < n; j++) {
    if (y[j] > y[hi]) hi = j;
    if (y[j] < y[lo]) lo = j;
  }
  // Bucket i (1-based in `out`) holds indices floor((i - 1) * bucket) + 1 .. floor(i * bucket).
  const slot = (j: number) => Math.min(threshold - 2, Math.floor((j - 1) / bucket) + 1);
  const keep = (j: number) => {
    if (j > 0 && j < n - 1 && !out.includes(j)) out[slot(j)] = j;
  };
  keep(lo);
  keep(hi);
  return out.sort((a, b) => a - b);
}
