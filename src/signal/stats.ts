/**
 * Small statistics shared by metrics and analyses: means over time windows and least squares with
 * confidence intervals. Pure functions over plain arrays.
 */

/** Mean of finite values (NaN when there are none). */
export function mean(values: ArrayLike<number>): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) {
      s += v;
      n++;
    }
  }
  return n ? s / n : Number.NaN;
}

export interface LinearFit {
  slope: number;
  intercept: number;
  /** 95 % confidence interval of the slope. */
  ci_low: number;
  ci_high: number;
  r2: number;
  n: number;
  /** Residual sum of squares. */
  sse: number;
}

/** Ordinary least squares of y on x with a 95 % CI of the slope (Student t); null below 3 points. */
export function linearFit(x: ArrayLike<number>, y: ArrayLike<number>): LinearFit | null {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isFinite(x[i]) && Number.isFinite(y[i])) {
      n++;
      sx += x[i];
      sy += y[i];
    }
  }
  if (n < 3) return null;
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    if (Number.isFinite(x[i]) && Number.isFinite(y[i])) {
      const dx = x[i] - mx;
      const dy = y[i] - my;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const sse = Math.max(0, syy - slope * sxy);
  const se = Math.sqrt(sse / (n - 2) / sxx);
  const t = tQuantile975(n - 2);
  return { slope, intercept, ci_low: slope - t * se, ci_high: slope + t * se, r2: syy > 0 ? 1 - sse / syy : 1, n, sse };
}

/** 97.5th percentile of Student's t with `df` degrees of freedom (table below 30, then a series). */
export function tQuantile975(df: number): number {
  const table = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048,
    2.045, 2.042,
  ];
  if (df < 1) return Number.NaN;
  if (df <= 30) return table[df - 1];
  const z = 1.959964;
  // Cornish-Fisher expansion of t around the normal quantile.
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2);
}

/**
 * Means of `values` over a window of `window_s` seconds ending at each sample (time-based, so it
 * works on irregular breaths). Windows that span less than half their length give NaN.
 */
export function rollingTimeMean(t_s: readonly number[], values: readonly (number | null)[], window_s: number): Float64Array {
  const out = new Float64Array(t_s.length).fill(Number.NaN);
  let start = 0;
  let sum = 0;
  let count = 0;
  for (let i = 0; i < t_s.length; i++) {
    const v = values[i];
    if (v !== null && Number.isFinite(v)) {
      sum += v;
      count++;
    }
    while (t_s[i] - t_s[start] > window_s) {
      const w = values[start];
      if (w !== null && Number.isFinite(w)) {
        sum -= w;
        count--;
      }
      start++;
    }
    if (count > 0 && t_s[i] - t_s[start] >= window_s / 2) out[i] = sum / count;
  }
  return out;
}
