import { expect } from 'chai';
import { selectInPlace } from '../../src/signal/select.js';
import { createRng } from '../../src/synthetic/random.js';

describe('selectInPlace', () => {
  it('finds at every rank the value a numeric sort puts there, and partitions around it', () => {
    const { next } = createRng(7);
    for (const n of [1, 2, 3, 8, 31, 200]) {
      const values = Float64Array.from({ length: n }, () => Math.round(next() * 20) - 10);
      const sorted = values.slice().sort();
      for (let k = 0; k < n; k++) {
        const a = values.slice();
        expect(selectInPlace(a, k), `n ${n}, k ${k}`).to.equal(sorted[k]);
        for (let i = 0; i < k; i++) expect(a[i]).to.be.at.most(a[k]);
        for (let i = k + 1; i < n; i++) expect(a[i]).to.be.at.least(a[k]);
      }
    }
  });

  it('gives the sorted value on long sorted, reversed and constant inputs', () => {
    const n = 4096;
    for (const values of [Float64Array.from({ length: n }, (_, i) => i), Float64Array.from({ length: n }, (_, i) => n - i), new Float64Array(n).fill(3)]) {
      const sorted = values.slice().sort();
      for (const k of [0, 1, n >> 1, n - 1]) expect(selectInPlace(values.slice(), k)).to.equal(sorted[k]);
    }
  });
});
