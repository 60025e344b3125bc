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
 * its place: at most the window's width of moves, 15 in preprocess.ts, cheaper than any heap). Each
 * slot holds its sample's value beside its index, so a comparison reads no sample through an index.
 */
export function medianFilter(values: Float64Array, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  if (n === 0) return out;
  const width = Math.min(n, 2 * half + 1);
  const win = new Int32Array(width);
  const val = new Float64Array(width);
  let size = 0;
  // The order test is written out in each loop (value, then index) rather than called through closures: half the time.
  for (let j = 0; j <= Math.min(n - 1, half); j++) {
    const v = values[j];
    let k = size;
    while (k > 0 && (v < val[k - 1] || (v === val[k - 1] && j < win[k - 1]))) {
      win[k] = win[k - 1];
      val[k] = val[k - 1];
      k--;
    }
    win[k] = j;
    val[k] = v;
    size++;
  }
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      // e enters the window and o leaves it; e starts from o's slot (found by bisection) or from the end.
      const e = i + half;
      const o = i - half - 1;
      let k = size;
      if (o >= 0) {
        const vo = values[o];
        let lo = 0;
        let hi = size;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          const vm = val[mid];
          if (vm < vo || (vm === vo && win[mid] < o)) lo = mid + 1;
          else hi = mid;
        }
        k = lo;
        if (e >= n) {
          size--;
          for (; k < size; k++) {
            win[k] = win[k + 1];
            val[k] = val[k + 1];
          }
        }
      } else if (e < n) size++;
      if (e < n) {
        const v = values[e];
        while (k > 0 && (v < val[k - 1] || (v === val[k - 1] && e < win[k - 1]))) {
          win[k] = win[k - 1];
          val[k] = val[k - 1];
          k--;
        }
        while (k < size - 1 && (val[k + 1] < v || (val[k + 1] === v && win[k + 1] < e))) {
          win[k] = win[k + 1];
          val[k] = val[k + 1];
          k++;
        }
        win[k] = e;
        val[k] = v;
      }
    }
    const m = size >> 1;
    out[i] = size % 2 ? val[m] : (val[m - 1] + val[m]) / 2;
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
