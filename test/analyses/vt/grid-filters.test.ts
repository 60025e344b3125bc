import { expect } from 'chai';
import { medianFilter } from '../../../analyses/vt/grid-filters.js';
import { gaussian } from '../eov/recordings.js';

/** The definition: sort each window afresh (stable, so equal values keep their order). */
function sortedMedian(values: Float64Array, half: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const win = Array.from(values.subarray(Math.max(0, i - half), Math.min(n - 1, i + half) + 1)).sort((a, b) => a - b);
    const m = win.length >> 1;
    out[i] = win.length % 2 ? win[m] : (win[m - 1] + win[m]) / 2;
  }
  return out;
}

/** Same bits, so -0 and +0 are told apart. */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  return Buffer.from(a.buffer).equals(Buffer.from(b.buffer));
}

describe('vt grid filters: running median', () => {
  const draw = gaussian(20240611);

  it('gives the bits of the sort-based median on random series, every half-width and length, edges included', () => {
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(Math.abs(draw()) * 40);
      const half = Math.floor(Math.abs(draw()) * 6);
      const values = Float64Array.from({ length: n }, () => draw() * 100);
      expect(sameBits(medianFilter(values, half), sortedMedian(values, half)), `n ${n}, half ${half}`).to.equal(true);
    }
  });

  it('gives the same bits with many ties and with both signed zeros', () => {
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(Math.abs(draw()) * 60);
      const half = Math.floor(Math.abs(draw()) * 8);
      const levels = [-0, 0, 1, 1.5, -2];
      const values = Float64Array.from({ length: n }, () => levels[Math.floor(Math.abs(draw()) * 1000) % levels.length]);
      expect(sameBits(medianFilter(values, half), sortedMedian(values, half)), `n ${n}, half ${half}`).to.equal(true);
    }
  });

  it('averages the two middle samples of an even window at the edges', () => {
    // With half 1 the first window is [10, 0] and the last [4, 8].
    expect(Array.from(medianFilter(Float64Array.from([10, 0, 4, 8]), 1))).to.deep.equal([5, 4, 4, 6]);
  });

  it('keeps a series shorter than its window and an empty one', () => {
    expect(Array.from(medianFilter(Float64Array.from([3]), 7))).to.deep.equal([3]);
    expect(medianFilter(new Float64Array(0), 7).length).to.equal(0);
  });
});
