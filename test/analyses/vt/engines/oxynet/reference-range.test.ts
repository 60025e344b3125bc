import { expect } from 'chai';
import { REFERENCE_TAIL_S, referenceRanges } from '../../../../../analyses/vt/engines/oxynet/reference-range.js';

/** A channel rising `slope` per second from `start` for `n` seconds. */
const line = (n: number, start: number, slope: number) => Float64Array.from({ length: n }, (_, i) => start + slope * i);

describe('the Oxynet scaling range that does not depend on where the test stops', () => {
  it('gives a test stopped 30 s after its compensation the range the same test has run to REFERENCE_TAIL_S after it', () => {
    const compensation = 500;
    const stopped = [line(compensation + 31, 300, 4), line(compensation + 31, 45, -0.02)];
    const ranWithReference = [line(compensation + REFERENCE_TAIL_S + 1, 300, 4), line(compensation + REFERENCE_TAIL_S + 1, 45, -0.02)];
    const [vo2, petco2] = referenceRanges(stopped, compensation);
    const [vo2Ref, petco2Ref] = referenceRanges(ranWithReference, null);
    expect(vo2[0]).to.equal(vo2Ref[0]);
    expect(vo2[1]).to.be.closeTo(vo2Ref[1], 1e-6);
    expect(petco2[0]).to.be.closeTo(petco2Ref[0], 1e-9);
    expect(petco2[1]).to.equal(petco2Ref[1]);
  });

  it('keeps the measured range when the gases show no compensation or the test already ran that long', () => {
    const c = line(800, 300, 4);
    expect(referenceRanges([c], null)).to.deep.equal([[300, 300 + 4 * 799]]);
    expect(referenceRanges([c], 799 - REFERENCE_TAIL_S)).to.deep.equal([[300, 300 + 4 * 799]]);
    expect(referenceRanges([c], 800 - REFERENCE_TAIL_S)[0][1]).to.be.closeTo(300 + 4 * 800, 1e-6);
  });

  it('fits the end trend over at least the last 60 s, so a short tail is not read from a few seconds', () => {
    // Flat for 500 s, then rising 1 per second: stopped 10 s after the compensation at 500, the trend over the last 60 s is gentler than the tail's.
    const c = Float64Array.from({ length: 511 }, (_, i) => (i > 500 ? i - 500 : 0));
    const [[, max]] = referenceRanges([c], 500);
    expect(max).to.be.greaterThan(10);
    expect(max).to.be.lessThan(REFERENCE_TAIL_S);
  });
});
