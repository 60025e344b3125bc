import { expect } from 'chai';
import { maskOutliers } from '../../src/signal/outliers.js';

/** A deterministic breath series: a ramp from 400 to 3000 with +-3 % alternating noise. */
function breaths(n: number): { t: number[]; v: number[] } {
  const t = Array.from({ length: n }, (_, i) => i * 2.5);
  const v = t.map((x, i) => (400 + (2600 * x) / t[n - 1]) * (1 + 0.03 * Math.sin(i * 2.3)));
  return { t, v };
}

describe('maskOutliers', () => {
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
