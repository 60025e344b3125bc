/**
 * FATMAX: the turning point of a third-order polynomial through the origin fitted to fat oxidation
 * against intensity (Achten, Gleeson and Jeukendrup, Med Sci Sports Exerc 2002). A fitted point, not a
 * measured sample; least squares gives it no confidence interval, and none is claimed.
 */

/** y = a x + b x^2 + c x^3, with x as a fraction of VO2peak. */
export interface CubicFit {
  a: number;
  b: number;
  c: number;
  /** 1 - SSE / SST with SST about the mean of y (not about zero, which would flatter a fit through the origin). */
  r2: number;
  n: number;
}

/** Value of the cubic at x. */
export function evalCubic(fit: CubicFit, x: number): number {
  return x * (fit.a + x * (fit.b + x * fit.c));
}

/** Least-squares cubic through the origin; null with fewer than 3 points or a singular system. */
export function fitCubicThroughOrigin(x: readonly number[], y: readonly number[]): CubicFit | null {
  const n = x.length;
  if (n < 3 || y.length !== n) return null;
  // Normal equations for the basis (x, x^2, x^3): M[j][k] = sum x^(j+k+2), r[j] = sum x^(j+1) y.
  const m = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const r = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const p = [x[i], x[i] ** 2, x[i] ** 3];
    for (let j = 0; j < 3; j++) {
      r[j] += p[j] * y[i];
      for (let k = 0; k < 3; k++) m[j][k] += p[j] * p[k];
    }
  }
  const coef = solve3(m, r);
  if (!coef) return null;
  const fit: CubicFit = { a: coef[0], b: coef[1], c: coef[2], r2: 0, n };
  let my = 0;
  for (const v of y) my += v / n;
  let sse = 0;
  let sst = 0;
  for (let i = 0; i < n; i++) {
    sse += (y[i] - evalCubic(fit, x[i])) ** 2;
    sst += (y[i] - my) ** 2;
  }
  fit.r2 = sst > 0 ? 1 - sse / sst : 1;
  return fit;
}

/** Gaussian elimination with partial pivoting on a 3x3 system; null when (nearly) singular. */
function solve3(m: number[][], r: number[]): number[] | null {
  const a = m.map((row, i) => [...row, r[i]]);
  const scale = Math.max(...a.flat().map(Math.abs)) || 1;
  for (let col = 0; col < 3; col++) {
    let piv = col;
    for (let row = col + 1; row < 3; row++) if (Math.abs(a[row][col]) > Math.abs(a[piv][col])) piv = row;
    if (Math.abs(a[piv][col]) < 1e-12 * scale) return null;
    [a[col], a[piv]] = [a[piv], a[col]];
    for (let row = col + 1; row < 3; row++) {
      const f = a[row][col] / a[col][col];
      for (let k = col; k < 4; k++) a[row][k] -= f * a[col][k];
    }
  }
  const out = [0, 0, 0];
  for (let row = 2; row >= 0; row--) {
    let s = a[row][3];
    for (let k = row + 1; k < 3; k++) s -= a[row][k] * out[k];
    out[row] = s / a[row][row];
  }
  return out.every(Number.isFinite) ? out : null;
}

/** An interior maximum of the fitted curve (x as a fraction of VO2peak), or why there is none. */
export type TurningPoint = { found: true; x: number; y: number } | { found: false; reason: string };

/**
 * The maximum of the cubic strictly inside [x_lo, x_hi] (the fitted windows' range): a root of
 * a + 2b x + 3c x^2 = 0 where the second derivative 2b + 6c x is negative.
 */
export function interiorMaximum(fit: CubicFit, x_lo: number, x_hi: number): TurningPoint {
  const { a, b, c } = fit;
  const roots: number[] = [];
  if (Math.abs(c) < 1e-12 * (Math.abs(a) + Math.abs(b) + 1e-300)) {
    if (b !== 0) roots.push(-a / (2 * b));
  } else {
    const disc = 4 * b * b - 12 * a * c;
    if (disc >= 0) {
      const s = Math.sqrt(disc);
      roots.push((-2 * b + s) / (6 * c), (-2 * b - s) / (6 * c));
    }
  }
  const maxima = roots.filter((x) => x > x_lo && x < x_hi && 2 * b + 6 * c * x < 0);
  if (maxima.length > 0) {
    const x = maxima[0];
    const y = evalCubic(fit, x);
    if (y > 0) return { found: true, x, y };
    return { found: false, reason: 'the fitted fat oxidation curve peaks at a rate that is not positive.' };
  }
  const slope = (x: number): number => a + 2 * b * x + 3 * c * x * x;
  // A curve that falls from the first window has its peak below the tested range, even if a cubic
  // turns up again at the top; only a curve rising from the first window can still be rising at the last.
  if (slope(x_lo) < 0) {
    return { found: false, reason: 'fat oxidation falls from the lowest window: the maximum lies below the tested intensities.' };
  }
  if (slope(x_hi) > 0) {
    return { found: false, reason: 'fat oxidation is still rising at the highest window below RER 1.0: the curve has no interior maximum (the test may have stopped too early).' };
  }
  return { found: false, reason: 'the fitted fat oxidation curve has no maximum inside the tested intensities.' };
}
