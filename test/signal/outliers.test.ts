import { expect } from 'chai';
import { maskOutliers } from '../../src/signal/outliers.js';

/** A deterministic breath series: a ramp from 400 to 3000 with +-3 % alternating noise. */
function breaths(n: number): { t: number[]; v: number[] } {
  const t = Array.from({ length: n }, (_, i) => i * 2.5);
  const v = t.map((x, i) => (400 + (2600 * x) / t[n - 1]) * (1 + 0.03 * Math.sin(i * 2.3)));
  return { t, v };
}

/** The definition read plainly: each window's finite values sorted afresh, the MAD from a sort of every residual. */
function maskOutliersBySorting(t: number[], values: (number | null)[], window_s = 30, k = 4): (number | null)[] {
  const resid = t.map((ti, i) => {
    const x = values[i];
    if (x === null || !Number.isFinite(x)) return Number.NaN;
    const w = values.filter((v, j): v is number => v !== null && Number.isFinite(v) && Math.abs(t[j] - ti) <= window_s / 2);
    if (w.length < 5) return Number.NaN;
    w.sort((a, b) => a - b);
    const m = w.length >> 1;
    const med = w.length % 2 ? w[m] : (w[m - 1] + w[m]) / 2;
    return med > 0 ? (x - med) / med : Number.NaN;
  });
  const abs = resid
    .filter(Number.isFinite)
    .map(Math.abs)
    .sort((a, b) => a - b);
  if (abs.length === 0) return [...values];
  const limit = k * 1.4826 * abs[abs.length >> 1];
  if (!(limit > 0)) return [...values];
  return values.map((v, i) => (Number.isFinite(resid[i]) && Math.abs(resid[i]) > limit ? null : v));
}

describe('maskOutliers', () => {
  it('masks what sorting every window gives, with gaps, ties, nulls, uneven breaths and coughs', () => {
    let seed = 5;
    const next = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (const n of [7, 60, 400, 1500]) {
      const t: number[] = [];
      let at = 0;
      for (let i = 0; i < n; i++) {
        at += next() < 0.02 ? 40 : 0.5 + 4 * next();
        t.push(at);
      }
      const v = t.map((x): number | null => {
        const r = next();
        if (r < 0.05) return null;
        if (r < 0.07) return Number.NaN;
        if (r < 0.1) return 1000;
        return Math.round((800 + x) * (r < 0.13 ? 2.5 : 1 + 0.05 * (next() - 0.5)));
      });
      for (const w of [30, 10]) expect(maskOutliers(t, v, w)).to.deep.equal(maskOutliersBySorting(t, v, w));
    }
  });

  it('drops a cough breath three times its neighbours and nothing else', () => {
    const { t, v } = breaths(300);
    const withCough: (number | null)[] = [...v];
    withCough[200] = v[200] * 3;
    const out = maskOutliers(t, withCough);
    expect(out[200]).to.equal(null);
    expect(out.filter((x) => x === null)).to.have.length(1);
  });

  it('keeps plain noise at rest and at peak alike (the distance is relative to the level)', () => {
    const { t, v } = breaths(300);
    expect(maskOutliers(t, v).every((x) => x !== null)).to.equal(true);
  });

  it('keeps nulls and leaves samples with too few neighbours alone', () => {
    expect(maskOutliers([0, 100, 200], [1, null, 50])).to.deep.equal([1, null, 50]);
  });
});
