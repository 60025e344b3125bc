import { expect } from 'chai';
import { applyAveraging, DEFAULT_AVERAGING, filtfiltLowPass, parseAveraging } from '../../../src/signal/averaging/index.js';

const t = Array.from({ length: 120 }, (_, i) => i);

describe('averaging specification', () => {
  it('fills defaults, and the default is the trailing 30-s mean', () => {
    expect(parseAveraging(undefined)).to.deep.equal({ ok: true, spec: DEFAULT_AVERAGING });
    expect(parseAveraging({ kind: 'rolling_breaths', breaths: 8 })).to.deep.equal({ ok: true, spec: { kind: 'rolling_breaths', breaths: 8, alignment: 'trailing', statistic: 'mean' } });
    expect(parseAveraging({ kind: 'low_pass', cutoff_hz: 0.04 })).to.deep.equal({ ok: true, spec: { kind: 'low_pass', cutoff_hz: 0.04, order: 2 } });
  });

  it('names every problem: unknown kind, a field of another kind, out-of-range and non-integer values', () => {
    const kind = parseAveraging({ kind: 'ensemble' });
    expect(kind.ok).to.equal(false);
    if (!kind.ok) expect(kind.issues[0].loc).to.deep.equal(['kind']);
    const bad = parseAveraging({ kind: 'time_bins', window_s: 0, breaths: 3 });
    expect(bad.ok).to.equal(false);
    if (!bad.ok) expect(bad.issues.map((i) => i.loc[0]).sort()).to.deep.equal(['breaths', 'window_s']);
    const frac = parseAveraging({ kind: 'rolling_breaths', breaths: 2.5 });
    expect(frac.ok).to.equal(false);
    const nyquist = parseAveraging({ kind: 'low_pass', cutoff_hz: 0.6 });
    expect(nyquist.ok).to.equal(false);
  });
});

describe('applying an averaging', () => {
  const ramp = t.map((x) => x);
  it('time bins: one point per bin, at its centre, with the bin mean or median', () => {
    const out = applyAveraging(t, ramp, { kind: 'time_bins', window_s: 30, statistic: 'mean' });
    expect(out.t_s).to.deep.equal([15, 45, 75, 105]);
    expect(out.values).to.deep.equal([14.5, 44.5, 74.5, 104.5]);
    const spiky = ramp.map((v, i) => (i === 10 ? 1000 : v));
    expect(applyAveraging(t, spiky, { kind: 'time_bins', window_s: 30, statistic: 'median' }).values[0]).to.equal(15.5);
  });

  it('rolling time: trailing lags a ramp by half the window, centred does not', () => {
    const trailing = applyAveraging(t, ramp, { kind: 'rolling_time', window_s: 30, alignment: 'trailing', statistic: 'mean' });
    const centred = applyAveraging(t, ramp, { kind: 'rolling_time', window_s: 30, alignment: 'centred', statistic: 'mean' });
    expect(trailing.values[60]).to.equal(45.5);
    expect(centred.values[60]).to.equal(60);
    // A window holding data over less than half its length is no window.
    expect(trailing.values[10]).to.equal(null);
  });

  it('rolling breaths: k breaths, whatever their spacing', () => {
    const ts = [0, 1, 5, 6, 20, 21];
    const out = applyAveraging(ts, [1, 2, 3, 4, 5, 6], { kind: 'rolling_breaths', breaths: 3, alignment: 'trailing', statistic: 'mean' });
    expect(out.values).to.deep.equal([null, null, 2, 3, 4, 5]);
    expect(out.t_start_s[5]).to.equal(6);
  });

  it('low-pass: passes a constant, removes a fast oscillation, and has no lag on a slow ramp', () => {
    const flat = filtfiltLowPass(new Array(200).fill(3), 1, 0.04, 2);
    for (const v of flat) expect(v).to.be.closeTo(3, 1e-9);
    const fast = filtfiltLowPass(
      Array.from({ length: 400 }, (_, i) => Math.sin((2 * Math.PI * i) / 4)),
      1,
      0.04,
      3,
    );
    for (const v of fast.slice(50, 350)) expect(Math.abs(v)).to.be.below(0.01);
    const slow = filtfiltLowPass(
      Array.from({ length: 400 }, (_, i) => i),
      1,
      0.04,
      4,
    );
    expect(slow[200]).to.be.closeTo(200, 0.5);
  });
});
