/**
 * The k-th smallest of a Float64Array by selection (Hoare's FIND, Commun ACM 1961) instead of a whole
 * sort: partitioning around one order statistic costs O(n) where sorting costs O(n log n). The value
 * found is the one a numeric sort would put at k (no NaN in the input).
 */

/**
 * Partition rounds allowed per doubling of the length before the rest is sorted: a median-of-three
 * pivot can be driven to quadratic time by a crafted input, a sort cannot.
 */
const ROUNDS_PER_DOUBLING = 2;

/** Reorders `a` so that a[k] is the k-th smallest, nothing before it larger and nothing after it smaller; returns a[k]. */
export function selectInPlace(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  let rounds = ROUNDS_PER_DOUBLING * (32 - Math.clz32(a.length));
  while (hi > lo) {
    if (rounds-- === 0) {
      a.subarray(lo, hi + 1).sort();
      return a[k];
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
    else return a[k];
  }
  return a[k];
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
