import { expect } from 'chai';
import { optimalFilter } from '../../../../../analyses/vt/engines/oxynet/optimal-filter.js';
import { uniformFilterReflect } from '../../../../../analyses/vt/engines/oxynet/uniform-filter.js';

/** The smoother's system solved by dense Gaussian elimination (an independent check of the Thomas solve). */
function denseOptimalFilter(t: number[], y: number[], lambda: number): number[] {
  const n = t.length;
  const m = n - 1;
  const dt = t.slice(1).map((v, i) => v - t[i]);
  const h = t.map((_, i) => (i === 0 ? dt[0] : i === n - 1 ? dt[m - 1] : (t[i + 1] - t[i - 1]) / 2));
  const positive = h.filter((v) => v > 0).sort((a, b) => a - b);
  const med = positive.length % 2 ? positive[positive.length >> 1] : (positive[positive.length / 2 - 1] + positive[positive.length / 2]) / 2;
  const hh = h.map((v) => (v === 0 ? med : v));
  const d = hh.map((v) => lambda / v);
  const A = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => (j === m ? y[i + 1] - y[i] : j === i ? dt[i] + d[i] + d[i + 1] : Math.abs(j - i) === 1 ? -d[Math.max(i, j)] : 0)),
  );
  for (let c = 0; c < m; c++) {
    const p = A.slice(c).reduce((best, row, k) => (Math.abs(row[c]) > Math.abs(A[best][c]) ? c + k : best), c);
    [A[c], A[p]] = [A[p], A[c]];
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let k = c; k <= m; k++) A[r][k] -= f * A[c][k];
    }
  }
  const u = A.map((row, i) => row[m] / row[i]);
  const x = [y[0] + (lambda * u[0]) / hh[0]];
  for (let i = 0; i < m; i++) x.push(x[i] + dt[i] * u[i]);
  return x;
}

describe('the upstream smoothers', () => {
  it('optimal_filter solves its tridiagonal system as a dense solve does, on uneven times', () => {
    const t = [0, 2, 3, 7, 8, 10, 15, 16, 17, 21, 22, 25];
    const y = t.map((v, i) => Math.sin(v / 4) + (i % 3) * 0.1);
    for (const lambda of [1, 100]) {
      const got = optimalFilter(t, y, lambda);
      denseOptimalFilter(t, y, lambda).forEach((v, i) => {
        expect(got[i]).to.be.closeTo(v, 1e-9);
      });
    }
  });

  it('optimal_filter keeps a constant series, smooths noise, and fills a zero step with the median', () => {
    expect(Array.from(optimalFilter([0, 1, 2, 3], [5, 5, 5, 5], 100))).to.deep.equal([5, 5, 5, 5]);
    const t = Array.from({ length: 60 }, (_, i) => 2 * i);
    const y = t.map((_, i) => (i % 2 ? 1 : -1));
    const s = optimalFilter(t, y, 100);
    expect(Math.max(...s.map(Math.abs))).to.be.below(0.2);
    const withTie = [0, 0, 1, 2, 3];
    const tied = optimalFilter(withTie, [1, 2, 3, 4, 5], 10);
    denseOptimalFilter(withTie, [1, 2, 3, 4, 5], 10).forEach((v, i) => {
      expect(tied[i]).to.be.closeTo(v, 1e-9);
    });
  });

  it("uniform_filter1d with 'reflect' edges: centred i - size/2 .. i + size/2 - 1, edges mirrored with the edge sample repeated", () => {
    expect(Array.from(uniformFilterReflect([1, 2, 3, 4, 5], 4))).to.deep.equal([1.5, 1.75, 2.5, 3.5, 4.25]);
    expect(Array.from(uniformFilterReflect([1, 2, 3, 4, 5], 3))).to.deep.equal([4 / 3, 2, 3, 4, 14 / 3]);
    // A window wider than the series keeps mirroring: indices -4..3 of [1, 2, 3] read 3 3 2 1 1 2 3 3.
    expect(Array.from(uniformFilterReflect([1, 2, 3], 8))).to.deep.equal([18 / 8, 17 / 8, 15 / 8]);
  });
});
