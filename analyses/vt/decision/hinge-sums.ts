/**
 * The knot of the least-squares hinge y = a + b x + c max(0, x - xk) over a long stretch, found from sums.
 *
 * Fitting each candidate knot afresh costs the stretch's length per knot, so a search over a whole test
 * (`compensation_search: whole_test`, thousands of seconds on a long recording) grows with the square of its
 * length. Every sum the normal equations need is a sum over the whole stretch or over the points whose x lies
 * above the knot, so one sort of the points by x and suffix sums give each knot's fit in constant time.
 * The sums are taken about the stretch's means, so the subtractions that re-centre them on each knot stay
 * small against the data.
 */

/** Determinant of the 3 x 3 matrix [[a0, a1, a2], [a3, a4, a5], [a6, a7, a8]] (arguments, not an array: it runs for every candidate knot). */
export function det3(a0: number, a1: number, a2: number, a3: number, a4: number, a5: number, a6: number, a7: number, a8: number): number {
  return a0 * (a4 * a8 - a5 * a7) - a1 * (a3 * a8 - a5 * a6) + a2 * (a3 * a7 - a4 * a6);
}

/**
 * The knot indices in [kFrom, kTo] whose hinges over [lo, hi] leave the least residual by the sums, best first (at
 * most `count`). A knot with only a point or two above it gives a nearly singular fit whose residual from sums is
 * mostly rounding, so the caller refits these few directly and keeps the best of those fits.
 */
export function bestKnotsBySums(x: ArrayLike<number>, y: ArrayLike<number>, lo: number, hi: number, kFrom: number, kTo: number, count: number): number[] {
  const n = hi - lo + 1;
  let mx = 0;
  let my = 0;
  for (let i = lo; i <= hi; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = x[lo + i] - mx;
    ys[i] = y[lo + i] - my;
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let ascending = true;
  for (let i = 1; i < n && ascending; i++) ascending = xs[i] >= xs[i - 1];
  // Time is already in order; a channel (VCO2 for VE against VCO2) is sorted.
  if (!ascending) order.sort((a, b) => xs[a] - xs[b]);
  // Suffix sums over the points in ascending x: entry p sums the points order[p..n-1] (n - p of them).
  const sx = new Float64Array(n + 1);
  const sxx = new Float64Array(n + 1);
  const sy = new Float64Array(n + 1);
  const sxy = new Float64Array(n + 1);
  for (let p = n - 1; p >= 0; p--) {
    const i = order[p];
    sx[p] = sx[p + 1] + xs[i];
    sxx[p] = sxx[p + 1] + xs[i] * xs[i];
    sy[p] = sy[p + 1] + ys[i];
    sxy[p] = sxy[p + 1] + xs[i] * ys[i];
  }
  // above[p]: the first position after p whose x is strictly greater, so a knot's first point above it is
  // above[rank[knot]] without a bisection per knot. A NaN leaves the order unsorted: those stretches bisect as before.
  const rank = new Uint32Array(n);
  const above = new Uint32Array(n);
  let sorted = true;
  above[n - 1] = n;
  rank[order[n - 1]] = n - 1;
  for (let p = n - 2; p >= 0; p--) {
    const here = xs[order[p]];
    const next = xs[order[p + 1]];
    if (!(here <= next)) sorted = false;
    above[p] = next > here ? p + 1 : above[p + 1];
    rank[order[p]] = p;
  }
  const Sxx = sxx[0];
  const Sxy = sxy[0];
  // The `count` best so far, best first: kept by insertion, as `count` is small against the knots.
  const knots: number[] = [];
  const residual: number[] = [];
  for (let k = kFrom; k <= kTo; k++) {
    const xk = xs[k - lo];
    // The first point in ascending x strictly above the knot: the points where the hinge term is non-zero.
    let a = sorted ? above[rank[k - lo]] : 0;
    let b = n;
    while (!sorted && a < b) {
      const mid = (a + b) >> 1;
      if (xs[order[mid]] > xk) b = mid;
      else a = mid + 1;
    }
    const m = n - a;
    // Sums of u = x - xk and h = max(0, u); the stretch's own sums of x and y are zero about their means.
    const su = -n * xk;
    const suu = Sxx + n * xk * xk;
    const suy = Sxy;
    const sh = sx[a] - m * xk;
    const shh = sxx[a] - 2 * xk * sx[a] + m * xk * xk;
    const shy = sxy[a] - xk * sy[a];
    const d = det3(n, su, sh, su, suu, shh, sh, shh, shh);
    if (!(Math.abs(d) > 1e-12)) continue;
    const bb = det3(n, 0, sh, su, suy, shh, sh, shy, shh) / d;
    const c = det3(n, su, 0, su, suu, suy, sh, shh, shy) / d;
    // Residual = y'y - coefficients . X'y, where X'y's first entry (the sum of y about its mean) is zero and y'y is
    // the same for every knot: comparing the rest orders the knots as their residuals do.
    const sse = -(bb * suy + c * shy);
    if (knots.length === count && !(sse < residual[count - 1])) continue;
    let at = Math.min(knots.length, count - 1);
    while (at > 0 && sse < residual[at - 1]) at--;
    knots.splice(at, 0, k);
    residual.splice(at, 0, sse);
    if (knots.length > count) {
      knots.pop();
      residual.pop();
    }
  }
  return knots;
}
