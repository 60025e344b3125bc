import { expect } from 'chai';
import { centeredTimeMean, quantile, runningMedian } from '../../src/signal/smooth.js';

describe('centeredTimeMean', () => {
  it('averages the finite values within half a window on either side, skipping nulls', () => {
    const t = [0, 1, 2, 3, 4, 5, 6];
    const v = [0, 10, null, 30, 40, 50, 60];
    const m = centeredTimeMean(t, v, 2);
    expect(m[0]).to.equal(5);
    expect(m[1]).to.equal(5);
    expect(m[3]).to.equal(35);
    expect(m[6]).to.equal(55);
  });

  it('keeps a symmetric peak where it is on irregular samples', () => {
    const t = Array.from({ length: 101 }, (_, i) => i + (i % 3) * 0.3);
    const v = t.map((x) => 100 - Math.abs(x - 50));
    const m = centeredTimeMean(t, v, 10);
    let best = 0;
    for (let i = 0; i < m.length; i++) if (m[i] > m[best]) best = i;
    expect(t[best]).to.be.closeTo(50, 1);
  });

  it('gives NaN where the window holds nothing', () => {
    expect(Number.isNaN(centeredTimeMean([0, 100], [null, 5], 10)[0])).to.equal(true);
  });
});

describe('runningMedian and quantile', () => {
  it('removes a single-sample spike and keeps steps', () => {
    expect(runningMedian([0, 0, 500, 0, 0, 0, 20, 20, 20, 20], 2)).to.deep.equal([0, 0, 0, 0, 0, 0, 20, 20, 20, 20]);
    expect(runningMedian([1, null, 3], 1)).to.deep.equal([1, null, 3]);
  });

  it('gives the median of each sorted window, -0 and ties in the order a stable sort leaves them', () => {
    const sortEach = (values: (number | null)[], h: number) =>
      values.map((v, i) => {
        if (v === null || !Number.isFinite(v)) return null;
        const win = values.slice(Math.max(0, i - h), i + h + 1).filter((w): w is number => w !== null && Number.isFinite(w));
        win.sort((a, b) => a - b);
        const m = win.length >> 1;
        return win.length % 2 ? win[m] : (win[m - 1] + win[m]) / 2;
      });
    const values = [0, -0, 3, null, Number.NaN, -0, 0, 2.5, -1, Number.POSITIVE_INFINITY, 7, 7, -0, 1e-300, 4, null, 0];
    for (const h of [0, 1, 2, 3]) {
      const got = runningMedian(values, h);
      const want = sortEach(values, h);
      for (let i = 0; i < values.length; i++) expect(Object.is(got[i], want[i]), `half width ${h}, sample ${i}: ${got[i]} vs ${want[i]}`).to.equal(true);
    }
  });

  it('interpolates quantiles and ignores non-finite values', () => {
    expect(quantile([4, 1, 3, 2, Number.NaN], 0.5)).to.equal(2.5);
    expect(quantile([10, 20], 0.1)).to.equal(11);
    expect(Number.isNaN(quantile([], 0.5))).to.equal(true);
  });
});
