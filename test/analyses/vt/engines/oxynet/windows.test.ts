import { expect } from 'chai';
import { buildWindows, minMaxScale } from '../../../../../analyses/vt/engines/oxynet/windows.js';

describe('oxynet windows', () => {
  it('min-max scales a channel over the whole series and refuses a constant one', () => {
    expect(Array.from(minMaxScale([2, 4, 3, 6]))).to.deep.equal([0, 0.5, 0.25, 1]);
    expect(() => minMaxScale([3, 3, 3], 'PetO2')).to.throw(/PetO2 is constant/);
    expect(() => minMaxScale([1, Number.NaN], 'VE')).to.throw(/VE holds a non-finite value/);
  });

  it('stacks [N, 40, 5] row-major (window, second, channel) from the given starts', () => {
    const channels = [0, 1, 2, 3, 4].map((c) => Float64Array.from({ length: 50 }, (_, t) => 100 * c + t));
    const w = buildWindows(channels, [0, 7]);
    expect(w).to.have.length(2 * 40 * 5);
    expect(w[0]).to.equal(0);
    expect(w[4]).to.equal(400);
    expect(w[5]).to.equal(1);
    expect(w[200 + 39 * 5 + 2]).to.equal(200 + 7 + 39);
    expect(() => buildWindows(channels, [11])).to.throw(/does not fit/);
    expect(() => buildWindows(channels.slice(1), [0])).to.throw(/expected 5 channels/);
  });
});
