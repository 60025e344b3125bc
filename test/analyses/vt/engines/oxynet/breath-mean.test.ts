/**
 * engines/oxynet/breath-mean.ts: an averaged export's 1-Hz series cut into breaths at the breathing
 * rate and read through upstream's 20-breath mean, as breath-by-breath data are; and where the rate
 * comes from.
 */
import { expect } from 'chai';
import { breathingRate, breathMean, estimatedRate } from '../../../../../analyses/vt/engines/oxynet/breath-mean.js';
import type { OneHzSeries } from '../../../../../analyses/vt/engines/oxynet/upstream.js';
import type { Recording } from '../../../../../src/recording/recording.js';
import { generateTest } from '../../../../../src/synthetic/generate.js';
import { heldOutCohort } from '../../../../../scripts/train/cohorts.js';

/** A 1-Hz series over 0 .. n - 1 s whose five channels all hold `f(t)`. */
function series(n: number, f: (t: number) => number): OneHzSeries {
  const time_s = Float64Array.from({ length: n }, (_, i) => i);
  return { input: 'averaged', time_s, channels: Array.from({ length: 5 }, () => time_s.map(f)), samples_used: n, samples_skipped: 0 };
}

describe('vt oxynet breath mean of an averaged series', () => {
  it('lags a ramp by one breath, as the 20-breath mean of breaths stamped at their ends does, and the lag follows the rate', () => {
    // Breaths of 3 s: breath k holds the mean of t over (3k - 3, 3k], 3k - 1.5; the even 20-breath window k - 10 .. k + 9 centres 0.5 breath earlier.
    const slow = breathMean(
      series(600, (t) => t),
      new Float64Array(600).fill(20),
    )[0];
    for (const t of [150, 301, 450]) expect(slow[t]).to.be.closeTo(t - 3, 1e-9);
    const fast = breathMean(
      series(600, (t) => t),
      new Float64Array(600).fill(40),
    )[2];
    for (const t of [150, 301, 450]) expect(fast[t]).to.be.closeTo(t - 1.5, 1e-9);
  });

  it('spans 20 breaths, so a step spreads over the seconds 20 breaths take at the rate in force', () => {
    const rate = Float64Array.from({ length: 900 }, (_, t) => (t < 450 ? 20 : 60));
    const step = (t: number) => ((t >= 200 && t < 450) || t >= 700 ? 1 : 0);
    const out = breathMean(series(900, step), rate)[1];
    // At 20/min a 20-breath window is 60 s wide: the step at 200 s shows from about 170 s to about 230 s.
    expect(out[165]).to.equal(0);
    expect(out[200]).to.be.within(0.4, 0.6);
    expect(out[235]).to.equal(1);
    // At 60/min it is 20 s wide.
    expect(out[688]).to.equal(0);
    expect(out[700]).to.be.within(0.4, 0.6);
    expect(out[712]).to.equal(1);
  });

  it('keeps a constant series as it is', () => {
    const out = breathMean(
      series(200, () => 7.5),
      new Float64Array(200).fill(33),
    );
    for (const c of out) for (const v of c) expect(v).to.be.closeTo(7.5, 1e-12);
  });

  it('reads the rate from RF, else from VE over tidal volume, else estimates it from VE, within 15-60 breaths/min', () => {
    const rec = generateTest({ ...heldOutCohort(1)[0], sampling: { kind: 'averaged', window_s: 10 } }).recording;
    const grid = series(Math.floor(rec.t_s.at(-1) as number), () => 0);
    grid.time_s = grid.time_s.map((t) => t + Math.ceil(rec.t_s[0]));
    grid.channels[2] = grid.time_s.map((t) => 50 + (t > 300 ? 100 : 0));
    const rf = breathingRate(grid, rec);
    expect(rf.source).to.equal('RF');
    const k = rec.t_s.findIndex((t) => t > 400);
    expect(rf.rate_per_min[Math.round(rec.t_s[k]) - grid.time_s[0]]).to.be.closeTo(rec.channels.RF!.values[k] as number, 1e-9);

    const withoutRf: Recording = { ...rec, channels: { ...rec.channels, RF: undefined } };
    const fromVt = breathingRate(grid, withoutRf);
    expect(fromVt.source).to.equal('VE/VT');
    const ve = rec.channels.VE!.values[k] as number;
    const vt = rec.channels.VT!.values[k] as number;
    expect(fromVt.rate_per_min[Math.round(rec.t_s[k]) - grid.time_s[0]]).to.be.closeTo(ve / vt, 1e-9);

    const neither: Recording = { ...withoutRf, channels: { ...withoutRf.channels, VT: undefined } };
    const estimated = breathingRate(grid, neither);
    expect(estimated.source).to.equal('estimated_from_VE');
    // VE 50 L/min over the 2.93-L plateau tidal volume is 17.1/min; 150 L/min is 51.2/min.
    expect(estimated.rate_per_min[0]).to.be.closeTo(50 / 2.93, 1e-9);
    expect(estimated.rate_per_min.at(-1)).to.be.closeTo(150 / 2.93, 1e-9);
    expect(Array.from(estimatedRate(Float64Array.of(10, 500)))).to.deep.equal([10 / 2.93, 500 / 2.93]);
    const bounded = breathingRate({ ...grid, channels: grid.channels.map((c, i) => (i === 2 ? c.map((v) => (v > 60 ? 400 : 10)) : c)) }, neither);
    expect(Math.min(...bounded.rate_per_min)).to.equal(15);
    expect(Math.max(...bounded.rate_per_min)).to.equal(60);
  });
});
