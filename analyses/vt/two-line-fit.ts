/**
 * Two separate least-squares lines over consecutive points, split where their summed squared error
 * is least: the breakpoint search of the V-slope method (Beaver, Wasserman and Whipp 1986) and of
 * the ventilatory-equivalent and end-tidal criteria. O(n) over all splits through prefix sums.
 */

export interface TwoLineFit {
  /** First index of the second segment. */
  split: number;
  slope_before: number;
  slope_after: number;
  intercept_before: number;
  intercept_after: number;
  sse: number;
}

/**
 * Best split of points [from, to] (inclusive) with at least `minPoints` on each side; null when the
 * range is too short. x and y are centred on their means first so the sums keep their precision.
 */
export function twoLineFit(x: Float64Array, y: Float64Array, from: number, to: number, minPoints: number): TwoLineFit | null {
  const n = to - from + 1;
  if (n < 2 * minPoints || minPoints < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = from; i <= to; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  // Prefix sums of x, y, x^2, y^2, xy over the centred points.
  const sx = new Float64Array(n + 1);
  const sy = new Float64Array(n + 1);
  const sxx = new Float64Array(n + 1);
  const syy = new Float64Array(n + 1);
  const sxy = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) {
    const xv = x[from + k] - mx;
    const yv = y[from + k] - my;
    sx[k + 1] = sx[k] + xv;
    sy[k + 1] = sy[k] + yv;
    sxx[k + 1] = sxx[k] + xv * xv;
    syy[k + 1] = syy[k] + yv * yv;
    sxy[k + 1] = sxy[k] + xv * yv;
  }
  const segment = (a: number, b: number) => {
    // Points a..b-1 (relative indices).
    const m = b - a;
    const X = sx[b] - sx[a];
    const Y = sy[b] - sy[a];
    const cxx = sxx[b] - sxx[a] - (X * X) / m;
    const cxy = sxy[b] - sxy[a] - (X * Y) / m;
    const cyy = syy[b] - syy[a] - (Y * Y) / m;
    const slope = cxx > 0 ? cxy / cxx : 0;
    const intercept = Y / m - slope * (X / m);
    return { slope, intercept, sse: Math.max(0, cyy - slope * cxy) };
  };
  let best: TwoLineFit | null = null;
  for (let k = minPoints; k <= n - minPoints; k++) {
    const a = segment(0, k);
    const b = segment(k, n);
    const sse = a.sse + b.sse;
    if (best === null || sse < best.sse) {
      best = {
        split: from + k,
        slope_before: a.slope,
        slope_after: b.slope,
        // Back from centred to original units: y = my + s (x - mx) + c.
        intercept_before: my + a.intercept - a.slope * mx,
        intercept_after: my + b.intercept - b.slope * mx,
        sse,
      };
    }
  }
  return best;
}
