/**
 * pyoxynet's `optimal_filter(t, y, lambda)`: a penalised smoother over unevenly spaced samples,
 * used on the per-row probabilities and on VO2 before the threshold rule. It solves a symmetric
 * tridiagonal system for the first differences of the smoothed series (Thomas algorithm):
 * with dt_i = t_{i+1} - t_i, h_i half the span of the neighbouring steps (the single step at the
 * ends; a zero h takes the median of the positive ones) and d_i = lambda / h_i, the main diagonal
 * is dt_i + d_i + d_{i+1}, the off-diagonal -d_{i+1}, the right-hand side y_{i+1} - y_i; then
 * x_0 = y_0 + lambda u_0 / h_0 and x_{i+1} = x_i + dt_i u_i.
 */

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The smoothed series (same length as y); needs at least two samples at distinct, increasing times. */
export function optimalFilter(t: ArrayLike<number>, y: ArrayLike<number>, lambda: number): Float64Array {
  const n = t.length;
  if (y.length !== n) throw new Error(`${n} times for ${y.length} values`);
  if (n < 2) throw new Error('the smoother needs at least two samples');
  const m = n - 1;
  const dt = new Float64Array(m);
  for (let i = 0; i < m; i++) dt[i] = t[i + 1] - t[i];
  const h = new Float64Array(n);
  h[0] = dt[0];
  h[n - 1] = dt[m - 1];
  for (let i = 1; i < n - 1; i++) h[i] = (t[i + 1] - t[i - 1]) / 2;
  if (h.some((v) => v === 0)) {
    const positive = Array.from(h).filter((v) => v > 0);
    if (positive.length === 0) throw new Error('all sample times are equal');
    const fill = median(positive);
    for (let i = 0; i < n; i++) if (h[i] === 0) h[i] = fill;
  }
  const d = h.map((v) => lambda / v);

  // Thomas algorithm on diag[i] = dt_i + d_i + d_{i+1}, off[i] = -d_{i+1} (between u_i and u_{i+1}).
  const c = new Float64Array(m);
  const r = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const diag = dt[i] + d[i] + d[i + 1];
    const rhs = y[i + 1] - y[i];
    const below = i > 0 ? -d[i] : 0;
    const denom = i > 0 ? diag - below * c[i - 1] : diag;
    c[i] = i < m - 1 ? -d[i + 1] / denom : 0;
    r[i] = i > 0 ? (rhs - below * r[i - 1]) / denom : rhs / denom;
  }
  const u = new Float64Array(m);
  u[m - 1] = r[m - 1];
  for (let i = m - 2; i >= 0; i--) u[i] = r[i] - c[i] * u[i + 1];

  const x = new Float64Array(n);
  x[0] = y[0] + (lambda * u[0]) / h[0];
  for (let i = 0; i < m; i++) x[i + 1] = x[i] + dt[i] * u[i];
  return x;
}
