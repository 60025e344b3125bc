import { expect } from 'chai';
import { endCompensation } from '../../../../analyses/vt/decision/end-compensation.js';
import type { PreparedTest } from '../../../../analyses/vt/preprocess.js';

/**
 * A 1-Hz ramp whose VE turns steeper against VCO2 `after` seconds before its last second (PetCO2 falling
 * from there), or never when `after` is null.
 */
function ramp(n: number, after: number | null): PreparedTest {
  const brk = after === null ? Infinity : n - 1 - after;
  const vco2 = Float64Array.from({ length: n }, (_, i) => 1000 + 10 * i);
  const ve = Float64Array.from({ length: n }, (_, i) => 0.03 * vco2[i] + (i > brk ? 0.4 * (i - brk) : 0));
  const petco2 = Float64Array.from({ length: n }, (_, i) => 42 - (i > brk ? 0.25 * (i - brk) : 0));
  return { t0_s: 0, n, vo2: vco2, vco2, ve, peto2: new Float64Array(n).fill(100), petco2, coverage: { VO2: 1, VCO2: 1, VE: 1, PetO2: 1, PetCO2: 1 }, end_index: n - 1 };
}

/**
 * A test that runs 399 s past its compensation point (600 s, VT1 at 400 s): PetCO2 steady, then falling from
 * 600 s; VE/VCO2 steady, rising from 600 s and steeper from 850 s, where VCO2 levels off and VE steepens against
 * it (a second, later break, as the Exercise Threshold App test shows). `noise` scales a breath noise smoothed
 * as the preparation smooths it (21-s means of a seeded uniform draw): 0 is an averaged file's smooth series.
 */
function twoBreaks(noise: number): PreparedTest {
  const n = 1000;
  let state = 7;
  const draw = Array.from({ length: n + 30 }, () => {
    state = (state * 16807) % 2147483647;
    return state / 2147483647 - 0.5;
  });
  const breath = (i: number) => (noise * 0.3 * draw.slice(i, i + 21).reduce((a, b) => a + b, 0)) / Math.sqrt(21);
  const vco2 = Float64Array.from({ length: n }, (_, i) => 1000 + 4 * Math.min(i, 850) + Math.max(0, i - 850));
  const ratio = Float64Array.from({ length: n }, (_, i) => 25 + 0.01 * Math.max(0, i - 600) + 0.04 * Math.max(0, i - 850) + breath(i));
  const ve = Float64Array.from({ length: n }, (_, i) => (ratio[i] * vco2[i]) / 1000);
  const petco2 = Float64Array.from({ length: n }, (_, i) => 42 - 0.02 * Math.max(0, i - 600) + breath(i + 3));
  return { t0_s: 0, n, vo2: vco2, vco2, ve, peto2: new Float64Array(n).fill(100), petco2, coverage: { VO2: 1, VCO2: 1, VE: 1, PetO2: 1, PetCO2: 1 }, end_index: n - 1 };
}

describe('respiratory compensation read from the gases over the end of a test', () => {
  for (const noise of [0, 2]) {
    it(`reads the compensation, not a later steepening, over the whole test (breath noise x${noise}), where the last 180 s place the later one`, () => {
      const test = twoBreaks(noise);
      const last = endCompensation(test, 430, 999, 'clear_petco2_first');
      expect(Math.abs((last.index as number) - 850)).to.be.at.most(5);
      const whole = endCompensation(test, 430, 999, 'clear_petco2_first', 'whole_test', 400);
      expect(whole.span).to.deep.equal([400, 999]);
      expect(whole.placed_by).to.equal('a clear PetCO2 fall');
      expect(Math.abs((whole.index as number) - 600), JSON.stringify(whole.signs)).to.be.at.most(10);
    });
  }

  for (const after of [20, 25, 30]) {
    it(`finds a compensation ${after} s before the last second within 5 s`, () => {
      const test = ramp(400, after);
      const ec = endCompensation(test, 200, test.end_index);
      expect(ec.index, JSON.stringify(ec.signs)).to.not.equal(null);
      expect(Math.abs((ec.index as number) - (399 - after))).to.be.at.most(5);
      expect(ec.signs.filter((s) => s.accepted).length).to.be.at.least(2);
    });
  }

  it('places nothing on a test whose gases never turn', () => {
    const test = ramp(400, null);
    const ec = endCompensation(test, 200, test.end_index);
    expect(ec.index).to.equal(null);
    expect(ec.signs.every((s) => !s.accepted)).to.equal(true);
  });

  it('places a clear PetCO2 fall alone with clear_petco2_first, where two_agreeing needs a second sign', () => {
    // PetCO2 falls from 30 s before the end while VE keeps its slope against VCO2 and VE/VCO2 stays flat.
    const test = ramp(400, 30);
    const flat = { ...test, ve: test.vco2.map((v) => 0.03 * v) };
    expect(endCompensation(flat, 200, flat.end_index).index).to.equal(null);
    const ec = endCompensation(flat, 200, flat.end_index, 'clear_petco2_first');
    expect(ec.placed_by).to.equal('a clear PetCO2 fall');
    expect(Math.abs((ec.index as number) - 369)).to.be.at.most(5);
    expect(endCompensation(ramp(400, null), 200, 399, 'clear_petco2_first').index).to.equal(null);
  });

  it('reads a PetCO2 turn in the last 30 s as the compensation with clear_petco2_first, though too few seconds follow it for the fit to accept it', () => {
    // PetCO2 falls slowly from 20 s before the end under breath-to-breath alternation: the hinge explains little.
    const test = ramp(400, null);
    const petco2 = Float64Array.from({ length: 400 }, (_, i) => 42 + 0.4 * (i % 2 ? 1 : -1) - (i > 379 ? 0.1 * (i - 379) : 0));
    const noisy = { ...test, petco2 };
    const ec = endCompensation(noisy, 200, 399, 'clear_petco2_first');
    expect(ec.signs[1].accepted).to.equal(false);
    expect(ec.placed_by).to.equal('a late PetCO2 fall');
    expect(Math.abs((ec.index as number) - 379)).to.be.at.most(5);
    expect(endCompensation(noisy, 200, 399).index).to.equal(null);
  });

  it('needs 15 s after a break: a span too short for a fit places nothing and says why', () => {
    const test = ramp(400, 20);
    const ec = endCompensation(test, 380, test.end_index);
    expect(ec.index).to.equal(null);
    expect(ec.signs[0].why).to.match(/shorter than 45 s/);
  });
});
