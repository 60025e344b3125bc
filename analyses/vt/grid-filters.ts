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

/**
 * Running median over `2 * half + 1` points (shrinking at the edges; an even count gives the mean
 * of its two middle samples); input must be NaN-free. The window's indices are kept sorted, by value
 * then by index (the order a stable sort of the window gives them), so the median is the very sample
 * (the same bits, -0 included) that sorting each window would pick; a step inserts one index and
 * removes one (the leaving sample's slot found by bisection, the entering one moved from there to
 * its place: at most the window's width of moves, 15 in preprocess.ts, cheaper than any heap).
 */
export function medianFilter(values: Float64Array, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const win = new Int32Array(Math.min(n, 2 * half + 1));
  let size = 0;
  /** The first slot whose sample does not sort before sample i (i's own slot when i is in the window). */
  const slotOf = (i: number): number => {
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sortsBefore(values, win[mid], i)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const add = (i: number): void => {
    const at = slotOf(i);
    for (let k = size; k > at; k--) win[k] = win[k - 1];
    win[at] = i;
    size++;
  };
  const drop = (i: number): void => {
    const at = slotOf(i);
    size--;
    for (let k = at; k < size; k++) win[k] = win[k + 1];
  };
  /** Sample `i` takes the place of sample `o`, moved from o's slot to its own. */
  const replace = (o: number, i: number): void => {
    let k = slotOf(o);
    while (k > 0 && sortsBefore(values, i, win[k - 1])) {
      win[k] = win[k - 1];
      k--;
    }
    while (k < size - 1 && sortsBefore(values, win[k + 1], i)) {
      win[k] = win[k + 1];
      k++;
    }
    win[k] = i;
  };
  for (let j = 0; j <= Math.min(n - 1, half); j++) add(j);
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      const enters = i + half < n;
      const leaves = i - half - 1 >= 0;
      if (enters && leaves) replace(i - half - 1, i + half);
      else if (enters) add(i + half);
      else if (leaves) drop(i - half - 1);
    }
    const m = size >> 1;
    out[i] = size % 2 ? values[win[m]] : (values[win[m - 1]] + values[win[m]]) / 2;
  }
  return out;
}

/** The window order: by value, then by index (-0 and +0 are equal values, so they keep their index order). */
function sortsBefore(values: Float64Array, a: number, b: number): boolean {
  return values[a] < values[b] || (values[a] === values[b] && a < b);
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
