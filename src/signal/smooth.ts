/**
 * Centred smoothing over time windows and small order statistics, for irregular (breath by
 * breath) samples. Centred so a smoothed peak or rise sits at the time it happened, not half a
 * window later as a trailing mean would put it.
 */

/**
 * Mean of the finite values within [t - window_s / 2, t + window_s / 2] at each sample; NaN where
 * the window holds no finite value. Two pointers, so O(n) for any window.
 */
export function centeredTimeMean(t_s: readonly number[], values: readonly (number | null)[], window_s: number): Float64Array {
  const n = t_s.length;
  const out = new Float64Array(n).fill(Number.NaN);
  const half = window_s / 2;
  let lo = 0;
  let hi = 0;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    while (hi < n && t_s[hi] <= t_s[i] + half) {
      const v = values[hi];
      if (v !== null && Number.isFinite(v)) {
        sum += v;
        count++;
      }
      hi++;
    }
    while (t_s[lo] < t_s[i] - half) {
      const v = values[lo];
      if (v !== null && Number.isFinite(v)) {
        sum -= v;
        count--;
      }
      lo++;
    }
    if (count > 0) out[i] = sum / count;
  }
  return out;
}

/** Running median over `2 * half_width + 1` samples (nulls skipped); removes single-sample spikes. */
export function runningMedian(values: readonly (number | null)[], half_width: number): (number | null)[] {
  const out: (number | null)[] = new Array(values.length).fill(null);
  // One sorted window, filled by a stable insertion sort: the order, and so the median, that sorting
  // each window would give, without an array and a sort per sample (three calls per compute on the
  // work rate of a 20,000-sample recording; issue 23).
  const win = new Float64Array(2 * half_width + 1);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || !Number.isFinite(v)) continue;
    let count = 0;
    for (let j = Math.max(0, i - half_width); j <= Math.min(values.length - 1, i + half_width); j++) {
      const w = values[j];
      if (w === null || !Number.isFinite(w)) continue;
      let k = count++;
      while (k > 0 && win[k - 1] > w) {
        win[k] = win[k - 1];
        k--;
      }
      win[k] = w;
    }
    const m = count >> 1;
    out[i] = count % 2 ? win[m] : (win[m - 1] + win[m]) / 2;
  }
  return out;
}

/** The q-quantile (0..1) of the finite values, by linear interpolation; NaN when there are none. */
export function quantile(values: ArrayLike<number>, q: number): number {
  const s: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) s.push(values[i]);
  if (s.length === 0) return Number.NaN;
  s.sort((a, b) => a - b);
  const pos = Math.min(Math.max(q, 0), 1) * (s.length - 1);
  const k = Math.floor(pos);
  return k + 1 < s.length ? s[k] + (pos - k) * (s[k + 1] - s[k]) : s[k];
}
