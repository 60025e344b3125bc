/**
 * Filters over a uniform 1-Hz grid (index = seconds): gap filling, a running median against
 * cough and swallow breaths, a centred moving mean, and min-max scaling. Uniform-grid versions
 * are simpler and faster than the time-based ones, and every vt engine works on the 1-Hz grid.
 */

/** Replaces NaN by linear interpolation between valid neighbours, and edges by the nearest valid value. */
export function fillGaps(values: Float64Array): Float64Array {
  const out = Float64Array.from(values);
  const n = out.length;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(out[i])) continue;
    if (prev === -1) {
      for (let k = 0; k < i; k++) out[k] = out[i];
    } else if (i - prev > 1) {
      for (let k = prev + 1; k < i; k++) out[k] = out[prev] + ((k - prev) / (i - prev)) * (out[i] - out[prev]);
    }
    prev = i;
  }
  if (prev >= 0) for (let k = prev + 1; k < n; k++) out[k] = out[prev];
  return out;
}

/** Running median over `2 * half + 1` points (shrinking at the edges); input must be NaN-free. */
export function medianFilter(values: Float64Array, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const win: number[] = [];
  for (let i = 0; i < n; i++) {
    win.length = 0;
    const lo = Math.max(0, i - half);
    const hi = Math.min(n - 1, i + half);
    for (let j = lo; j <= hi; j++) win.push(values[j]);
    win.sort((a, b) => a - b);
    const m = win.length >> 1;
    out[i] = win.length % 2 ? win[m] : (win[m - 1] + win[m]) / 2;
  }
  return out;
}

/** Centred moving mean over `2 * half + 1` points (shrinking at the edges); input must be NaN-free. */
export function movingMean(values: Float64Array, half: number): Float64Array {
  const n = values.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + values[i];
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n - 1, i + half);
    out[i] = (prefix[hi + 1] - prefix[lo]) / (hi - lo + 1);
  }
  return out;
}

/** Min-max scaling to [0, 1] using the range over indices [0, end]; a flat series scales to 0. */
export function minMaxScale(values: Float64Array, end: number): Float64Array {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i <= end && i < values.length; i++) {
    if (values[i] < lo) lo = values[i];
    if (values[i] > hi) hi = values[i];
  }
  const span = hi - lo;
  const out = new Float64Array(values.length);
  if (!(span > 0)) return out;
  for (let i = 0; i < values.length; i++) out[i] = (values[i] - lo) / span;
  return out;
}

/** Index of the largest value within [from, to]. */
export function argMax(values: Float64Array, from = 0, to = values.length - 1): number {
  let best = from;
  for (let i = from; i <= to; i++) if (values[i] > values[best]) best = i;
  return best;
}
