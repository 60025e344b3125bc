import { expect } from 'chai';
import { findCrossover } from '../../../analyses/substrate/crossover.js';
import { evalCubic, fitCubicThroughOrigin, interiorMaximum } from '../../../analyses/substrate/fatmax.js';

describe('substrate FATMAX cubic', () => {
  it('recovers the coefficients of an exact cubic through the origin', () => {
    // y = 2x - 1x^2 - 1.5x^3: y' = 2 - 2x - 4.5x^2 = 0 at x = (-2 + sqrt(4 + 36)) / 9 = 0.48050
    const xs = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    const ys = xs.map((x) => 2 * x - x * x - 1.5 * x ** 3);
    const fit = fitCubicThroughOrigin(xs, ys);
    expect(fit).to.not.equal(null);
    if (!fit) return;
    expect(fit.a).to.be.closeTo(2, 1e-9);
    expect(fit.b).to.be.closeTo(-1, 1e-9);
    expect(fit.c).to.be.closeTo(-1.5, 1e-9);
    expect(fit.r2).to.be.closeTo(1, 1e-12);
    const peak = interiorMaximum(fit, 0.2, 0.8);
    expect(peak.found).to.equal(true);
    if (peak.found) {
      expect(peak.x).to.be.closeTo((-2 + Math.sqrt(40)) / 9, 1e-9);
      expect(peak.y).to.be.closeTo(evalCubic(fit, peak.x), 1e-12);
    }
  });

  it('refuses to call a maximum that lies beyond the highest window', () => {
    // Same curve, but the windows stop at 0.45, before the turning point at 0.4805.
    const xs = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45];
    const fit = fitCubicThroughOrigin(
      xs,
      xs.map((x) => 2 * x - x * x - 1.5 * x ** 3),
    );
    if (!fit) throw new Error('fit failed');
    const peak = interiorMaximum(fit, 0.15, 0.45);
    expect(peak.found).to.equal(false);
    if (!peak.found) expect(peak.reason).to.match(/still rising/);
  });

  it('says the maximum lies below the tested range when fat falls from the first window', () => {
    const xs = [0.55, 0.6, 0.65, 0.7, 0.75, 0.8];
    const fit = fitCubicThroughOrigin(
      xs,
      xs.map((x) => 2 * x - x * x - 1.5 * x ** 3),
    );
    if (!fit) throw new Error('fit failed');
    const peak = interiorMaximum(fit, 0.55, 0.8);
    expect(peak.found).to.equal(false);
    if (!peak.found) expect(peak.reason).to.match(/below the tested/);
  });

  it('returns null for fewer than three points or a degenerate axis', () => {
    expect(fitCubicThroughOrigin([0.5, 0.6], [0.3, 0.3])).to.equal(null);
    expect(fitCubicThroughOrigin([0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4])).to.equal(null);
  });

  it('reports R² about the mean, so a flat cloud scores near zero however close it is to the origin line', () => {
    const xs = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7];
    const ys = [0.3, 0.31, 0.29, 0.3, 0.31, 0.29];
    const fit = fitCubicThroughOrigin(xs, ys);
    if (!fit) throw new Error('fit failed');
    expect(fit.r2).to.be.below(0.9);
  });
});

describe('substrate crossover', () => {
  it('interpolates the intensity where fat falls below half the energy', () => {
    // 60 % at 40 %VO2peak, 40 % at 60 %VO2peak: 50 % is half-way, at 50 %VO2peak.
    const c = findCrossover([
      { pct_vo2peak: 60, pct_ee_fat: 40, rer: 0.88, load_w: 150 },
      { pct_vo2peak: 40, pct_ee_fat: 60, rer: 0.8, load_w: 100 },
    ]);
    expect(c.found).to.equal(true);
    if (c.found) {
      expect(c.pct_vo2peak).to.be.closeTo(50, 1e-12);
      expect(c.rer).to.be.closeTo(0.84, 1e-12);
      expect(c.load_w).to.be.closeTo(125, 1e-12);
      expect(c.n_crossings).to.equal(1);
    }
  });

  it('says carbohydrate already dominates when the lowest window is under 50 % fat', () => {
    const c = findCrossover([
      { pct_vo2peak: 30, pct_ee_fat: 45, rer: 0.86, load_w: null },
      { pct_vo2peak: 50, pct_ee_fat: 20, rer: 0.93, load_w: null },
    ]);
    expect(c.found).to.equal(false);
    if (!c.found) expect(c.reason).to.match(/already supplies more energy/);
  });

  it('says fat still dominates when no window falls below 50 %', () => {
    const c = findCrossover([
      { pct_vo2peak: 30, pct_ee_fat: 75, rer: 0.77, load_w: null },
      { pct_vo2peak: 50, pct_ee_fat: 55, rer: 0.83, load_w: null },
    ]);
    expect(c.found).to.equal(false);
    if (!c.found) expect(c.reason).to.match(/still supplies at least half/);
  });
});
