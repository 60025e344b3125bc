import { expect } from 'chai';
import { centredMean, detrend, detrendGain, detrendPoints, fitRedNoise, toGrid } from '../../../analyses/eov/series.js';

describe('EOV series preparation', () => {
  it('uses an odd detrend window of about a minute', () => {
    expect(detrendPoints(2)).to.equal(31);
    expect(detrendPoints(1)).to.equal(61);
    expect(detrendPoints(15) % 2).to.equal(1);
  });

  it('removes a straight line completely away from the ends', () => {
    const line = Float64Array.from({ length: 200 }, (_, i) => 3 + 0.5 * i);
    const residual = detrend(line, 31);
    for (let i = 20; i < 180; i++) expect(residual[i]).to.be.closeTo(0, 1e-9);
  });

  it('predicts the amplitude a sine keeps after the moving-average detrend', () => {
    for (const period of [40, 60, 120]) {
      const x = Float64Array.from({ length: 1000 }, (_, i) => Math.sin((2 * Math.PI * i * 2) / period));
      const r = detrend(x, 31);
      let peak = 0;
      for (let i = 200; i < 800; i++) peak = Math.max(peak, Math.abs(r[i]));
      expect(peak).to.be.closeTo(detrendGain(period, 2, 31), 0.02);
    }
  });

  it('shrinks the moving-average window symmetrically at the ends', () => {
    const m = centredMean(Float64Array.from([1, 2, 3, 4, 5]), 5);
    expect(Array.from(m)).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('bridges gaps with straight lines and holds the ends', () => {
    const g = toGrid([4, 6, 8, 64, 66], [1, 1, 1, 3, 3], 0, 2, 36);
    expect(g[0]).to.equal(1);
    expect(g[18]).to.be.closeTo(1 + (2 * (36 - 8)) / 56, 1e-9);
    expect(g[35]).to.equal(3);
  });

  it('fits no autocorrelation to alternating noise and a high one to a slow sine', () => {
    expect(fitRedNoise(Float64Array.from({ length: 100 }, (_, i) => (i % 2 ? 1 : -1))).lag1).to.equal(0);
    expect(fitRedNoise(Float64Array.from({ length: 400 }, (_, i) => Math.sin(i / 20))).lag1).to.be.greaterThan(0.9);
  });
});
