import { expect } from 'chai';
import { lttbIndices } from '../../src/signal/lttb.js';

describe('LTTB downsampling', () => {
  it('keeps the highest and lowest samples even where a neighbour makes the larger triangle', () => {
    // A noisy ramp whose top sample sits right after a deep dip: plain LTTB keeps the dip's partner.
    const n = 2000;
    const x = Float64Array.from({ length: n }, (_, i) => i);
    const y = Float64Array.from({ length: n }, (_, i) => i + 40 * Math.sin(i * 1.7) + (i === 1500 ? 600 : 0) - (i === 1499 ? 900 : 0));
    const hi = y.indexOf(Math.max(...y));
    const lo = y.indexOf(Math.min(...y));
    for (const threshold of [10, 40, 500]) {
      const kept = lttbIndices(x, y, threshold);
      expect(kept).to.have.length(threshold);
      expect(kept).to.include(hi);
      expect(kept).to.include(lo);
      for (let k = 1; k < kept.length; k++) expect(kept[k]).to.be.above(kept[k - 1]);
      expect(kept[0]).to.equal(0);
      expect(kept.at(-1)).to.equal(n - 1);
    }
  });

  it('returns every index when asked for as many points as there are', () => {
    expect(lttbIndices([0, 1, 2], [5, 6, 7], 10)).to.deep.equal([0, 1, 2]);
  });
});
