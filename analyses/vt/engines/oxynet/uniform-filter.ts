/**
 * The moving mean pyoxynet applies to breath-by-breath data before interpolating it to 1 Hz
 * (`load_exercise_threshold_app_data`: scipy.ndimage.uniform_filter1d, size 20, mode 'reflect').
 * Over samples, not seconds: output i is the mean of inputs i - size/2 .. i + size/2 - 1 (for an
 * even size; the window centre of an odd size), and the ends mirror the series with the edge
 * sample repeated (d c b a | a b c d | d c b a).
 */

/** Index into a series of length n under 'reflect' edges (periodic with period 2n). */
function reflect(index: number, n: number): number {
  const period = 2 * n;
  const i = ((index % period) + period) % period;
  return i < n ? i : period - 1 - i;
}

/** Moving mean over `size` samples with 'reflect' edges. */
export function uniformFilterReflect(values: ArrayLike<number>, size: number): Float64Array {
  const n = values.length;
  if (!Number.isInteger(size) || size < 1) throw new Error(`filter size ${size} is not a positive integer`);
  const out = new Float64Array(n);
  if (n === 0) return out;
  const left = Math.floor(size / 2);
  for (let i = 0; i < n; i++) {
    const from = i - left;
    let sum = 0;
    // The same sum in the same order; only windows that reach past an end need the mirrored index.
    if (from >= 0 && from + size <= n) for (let j = from; j < from + size; j++) sum += values[j];
    else for (let j = from; j < from + size; j++) sum += values[reflect(j, n)];
    out[i] = sum / size;
  }
  return out;
}
