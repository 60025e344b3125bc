/**
 * The median of a clock's intervals by selection instead of a sort: the median is one order
 * statistic (two for an even count), so partitioning around it costs O(n) where sorting costs
 * O(n log n). The selected elements are the sorted array's, so the value is bit for bit the sorted
 * median's (the inputs hold no NaN and no -0, where the two orders could differ).
 */
import { selectInPlace } from '../signal/select.js';

/** Median of finite numbers with no -0 among them (NaN for none). */
export function intervalMedian(values: readonly number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const a = Float64Array.from(values);
  const m = n >> 1;
  selectInPlace(a, m);
  if (n % 2) return a[m];
  // After selecting m, every element before it is at most a[m]; the largest of them is the (m-1)th.
  let below = a[0];
  for (let i = 1; i < m; i++) if (a[i] > below) below = a[i];
  return (below + a[m]) / 2;
}
