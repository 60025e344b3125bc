import { expect } from 'chai';
import { intervalMedian } from '../../src/recording/interval-median.js';
import { createRng } from '../../src/synthetic/random.js';

/** The median as a sort gives it: what intervalMedian must equal bit for bit. */
function sortedMedian(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

describe('intervalMedian', () => {
  it('is NaN for no values and the value itself for one', () => {
    expect(intervalMedian([])).to.be.NaN;
    expect(intervalMedian([2.5])).to.equal(2.5);
  });

  it('equals the sorted median on odd and even lengths, random, sorted, reversed and tied inputs', () => {
    const { next } = createRng(7);
    for (let n = 2; n < 300; n += 7) {
      const random = Array.from({ length: n }, () => 0.2 + 3 * next());
      const ties = Array.from({ length: n }, () => Math.floor(4 * next()) + 1);
      const rounded = Array.from({ length: n }, () => Math.round(10 * (1 + next())) / 10);
      for (const values of [random, ties, rounded, [...random].sort((a, b) => a - b), [...random].sort((a, b) => b - a), new Array(n).fill(1.5)]) {
        expect(intervalMedian(values)).to.equal(sortedMedian(values));
      }
    }
  });

  it('leaves its input as it was', () => {
    const values = [3, 1, 2, 5, 4];
    intervalMedian(values);
    expect(values).to.deep.equal([3, 1, 2, 5, 4]);
  });

  it('equals the sorted median on long patterned inputs (organ pipe, sawtooth)', () => {
    const n = 20_001;
    const pipe = Array.from({ length: n }, (_, i) => 1 + (i < n / 2 ? i : n - i));
    const saw = Array.from({ length: n }, (_, i) => 1 + (i % 97));
    expect(intervalMedian(pipe)).to.equal(sortedMedian(pipe));
    expect(intervalMedian(saw)).to.equal(sortedMedian(saw));
  });
});
