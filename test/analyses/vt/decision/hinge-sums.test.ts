/**
 * The knot search from sums (analyses/vt/decision/hinge-sums.ts) against fitting every knot afresh, on stretches
 * whose x is time and on stretches whose x is a noisy, non-monotonic channel with repeated values (VE against
 * VCO2), including knots with only a point or two above them.
 */
import { strict as assert } from 'node:assert';
import { bestKnotsBySums, det3 } from '../../../../analyses/vt/decision/hinge-sums.js';
import { createRng } from '../../../../src/synthetic/random.js';

function residualOf(x: ArrayLike<number>, y: ArrayLike<number>, lo: number, hi: number, k: number): number {
  const xk = x[k];
  const rows: number[][] = [];
  for (let i = lo; i <= hi; i++) rows.push([1, x[i] - xk, Math.max(0, x[i] - xk), y[i]]);
  const s = (a: number, b: number) => rows.reduce((t, r) => t + r[a] * r[b], 0);
  const d = det3(s(0, 0), s(0, 1), s(0, 2), s(1, 0), s(1, 1), s(1, 2), s(2, 0), s(2, 1), s(2, 2));
  if (!(Math.abs(d) > 1e-12)) return Infinity;
  const a0 = det3(s(3, 0), s(0, 1), s(0, 2), s(3, 1), s(1, 1), s(1, 2), s(3, 2), s(2, 1), s(2, 2)) / d;
  const b = det3(s(0, 0), s(3, 0), s(0, 2), s(1, 0), s(3, 1), s(1, 2), s(2, 0), s(3, 2), s(2, 2)) / d;
  const c = det3(s(0, 0), s(0, 1), s(3, 0), s(1, 0), s(1, 1), s(3, 1), s(2, 0), s(2, 1), s(3, 2)) / d;
  return rows.reduce((t, r) => t + (r[3] - a0 - b * r[1] - c * r[2]) ** 2, 0);
}

function bruteBest(x: ArrayLike<number>, y: ArrayLike<number>, lo: number, hi: number, kFrom: number, kTo: number): number {
  let best = -1;
  let bestSse = Infinity;
  for (let k = kFrom; k <= kTo; k++) {
    const sse = residualOf(x, y, lo, hi, k);
    if (sse < bestSse) {
      bestSse = sse;
      best = k;
    }
  }
  return best;
}

describe('vt hinge knot from sums', () => {
  it('ranks first the knot a fresh fit of every knot finds best, x as time, on 40 noisy two-segment stretches', () => {
    const rng = createRng(2411);
    const rnd = () => rng.next();
    for (let t = 0; t < 40; t++) {
      const n = 200 + Math.floor(rnd() * 300);
      const knee = 60 + Math.floor(rnd() * (n - 100));
      const x = Float64Array.from({ length: n }, (_, i) => i);
      const y = Float64Array.from({ length: n }, (_, i) => 40 - 0.002 * i - (i > knee ? 0.03 * (i - knee) : 0) + (rnd() - 0.5) * 2);
      const lo = 5;
      const hi = n - 1;
      assert.equal(bestKnotsBySums(x, y, lo, hi, lo + 30, hi - 15, 1)[0], bruteBest(x, y, lo, hi, lo + 30, hi - 15), `stretch ${t}`);
    }
  });

  it('holds the fresh fits best knot among the few it ranks first where x repeats and runs back (VE against VCO2)', () => {
    const rng = createRng(77);
    const rnd = () => rng.next();
    for (let t = 0; t < 20; t++) {
      const n = 300;
      const x = Float64Array.from({ length: n }, (_, i) => Math.round(1500 + 6 * i + (rnd() - 0.5) * 200));
      const y = Float64Array.from(x, (v) => 0.025 * v + (v > 2800 ? 0.02 * (v - 2800) : 0) + (rnd() - 0.5) * 3);
      const ranked = bestKnotsBySums(x, y, 0, n - 1, 30, n - 16, 16);
      assert.ok(ranked.includes(bruteBest(x, y, 0, n - 1, 30, n - 16)), `stretch ${t}`);
    }
  });
});
