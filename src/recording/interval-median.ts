/**
 * The median of a clock's intervals by selection instead of a sort: the median is one order
 * statistic (two for an even count), so partitioning around it costs O(n) where sorting costs
 * O(n log n). The selected elements are the sorted array's, so the value is bit for bit the sorted
 * median's (the inputs hold no NaN and no -0, where the two orders could differ).
 */

/**
 * Partition rounds allowed per doubling of the length before the rest is sorted: a median-of-three
 * pivot can be driven to quadratic time by a crafted input, a sort cannot.
 */
const ROUNDS_PER_DOUBLING = 2;

/** Median of finite numbers with no -0 among them (NaN for none). */
export function intervalMedian(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const a = Float64Array.from(values);
  const m = n >> 1;
  select(a, m);
  if (n % 2) return a[m];
  // After selecting m, every element before it is at most a[m]; the largest of them is the (m-1)th.
  let below = a[0];
  for (let i = 1; i < m; i++) if (a[i] > below) below = a[i];
  return (below + a[m]) / 2;
}

/** Reorders `a` so that a[k] is the k-th smallest, nothing before it larger and nothing after it smaller. */
function select(a: Float64Array, k: number): void {
  let lo = 0;
  let hi = a.length - 1;
  let rounds = ROUNDS_PER_DOUBLING * (32 - Math.clz32(a.length));
  while (hi > lo) {
    if (rounds-- === 0) {
      a.subarray(lo, hi + 1).sort();
      return;
    }
    const mid = (lo + hi) >> 1;
    // Median of three as the pivot, left at a[mid]; a[lo] <= pivot <= a[hi] bound the scans.
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    // Now a[lo..j] <= pivot, a[i..hi] >= pivot, and anything between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
