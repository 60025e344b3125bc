import { expect } from 'chai';
import { rcpBreakpoint, twoLineBreakpoint, vSlope } from '../../src/signal/breakpoints.js';
import { detectPhases } from '../../src/signal/phases.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { Protocol } from '../../src/synthetic/types.js';

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

describe('twoLineBreakpoint', () => {
  const x = Array.from({ length: 100 }, (_, i) => i);
  const y = x.map((v) => (v < 60 ? 2 + 0.5 * v : 32 + 2 * (v - 60)));

  it('recovers the knot and both slopes of an exact hinge', () => {
    const fit = twoLineBreakpoint(x, y)!;
    expect(fit.x_break).to.be.closeTo(60, 1e-6);
    expect(fit.slope_before).to.be.closeTo(0.5, 1e-9);
    expect(fit.slope_after).to.be.closeTo(2, 1e-9);
    expect(fit.sse).to.be.below(1e-6);
    expect(fit.intercept_after + fit.slope_after * 60).to.be.closeTo(32, 1e-6);
  });

  it('finds the same break with two free lines and with shuffled input order', () => {
    const order = x.map((_, i) => (i * 37) % 100);
    const fit = twoLineBreakpoint(
      order.map((i) => x[i]),
      order.map((i) => y[i]),
      { continuous: false },
    )!;
    expect(fit.x_break).to.be.closeTo(60, 1);
    expect(fit.slope_before).to.be.closeTo(0.5, 1e-9);
    expect(fit.slope_after).to.be.closeTo(2, 1e-9);
    expect(x[order[fit.index]]).to.be.within(59, 61);
  });

  it('splits a time series in the order given when asked, even where x steps back', () => {
    // y follows the time index; x is noisy and not monotonic, so x order would mix before and after.
    const n = 200;
    const t = Array.from({ length: n }, (_, i) => i);
    const xs = t.map((i) => 1000 + 10 * i + (i % 7 === 3 ? -45 : 0));
    const ys = t.map((i) => (i < 120 ? 0.9 * xs[i] : 0.9 * xs[i] + 0.5 * (xs[i] - 1000 - 10 * 120)));
    const fit = twoLineBreakpoint(xs, ys, { continuous: false, order: 'given', min_points: 10 })!;
    expect(fit.index).to.equal(120);
    expect(fit.slope_before).to.be.closeTo(0.9, 1e-9);
    expect(fit.slope_after).to.be.closeTo(1.4, 1e-9);
    expect(fit.intercept_before).to.be.closeTo(0, 1e-6);
    expect(twoLineBreakpoint(xs.slice(0, 15), ys.slice(0, 15), { continuous: false, order: 'given', min_points: 8 })).to.equal(null);
  });

  it('skips non-finite pairs and refuses too few points', () => {
    expect(twoLineBreakpoint([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])).to.equal(null);
    const withGaps = twoLineBreakpoint([...x, Number.NaN], [...y, 5])!;
    expect(withGaps.n_before + withGaps.n_after).to.equal(100);
  });
});

describe('vSlope and rcpBreakpoint', () => {
  for (const protocol of ['ramp', 'steps'] as Protocol[]) {
    it(`find the placed VT1 and VT2 of ${protocol} tests within tens of seconds`, () => {
      const vt1: number[] = [];
      const vt2: number[] = [];
      for (let seed = 1; seed <= 6; seed++) {
        const { recording, truth } = generateTest({ seed, protocol });
        const phases = detectPhases(recording)!;
        const v = vSlope(recording, phases)!;
        const r = rcpBreakpoint(recording, phases)!;
        expect(v.accepted, `seed ${seed}: ${v.reason}`).to.equal(true);
        expect(v.slope_after).to.be.greaterThan(v.slope_before + 0.1);
        vt1.push(Math.abs(v.t_s - truth.vt1!.time_s));
        if (r.accepted) vt2.push(Math.abs(r.t_s - truth.vt2!.time_s));
      }
      expect(median(vt1), `VT1 errors ${vt1.map(Math.round)}`).to.be.at.most(35);
      expect(Math.max(...vt1), `VT1 errors ${vt1.map(Math.round)}`).to.be.at.most(80);
      expect(vt2.length).to.be.at.least(5);
      expect(median(vt2), `VT2 errors ${vt2.map(Math.round)}`).to.be.at.most(40);
    });
  }

  it('say null without the channels they need', () => {
    const { recording } = generateTest({ seed: 1 });
    const phases = detectPhases(recording)!;
    const noCo2 = structuredClone(recording);
    delete noCo2.channels.VCO2;
    expect(vSlope(noCo2, phases)).to.equal(null);
    expect(rcpBreakpoint(noCo2, phases)).to.equal(null);
  });
});
