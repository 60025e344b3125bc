import { expect } from 'chai';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions, SamplingOption } from '../../src/synthetic/types.js';

const BASE: GeneratorOptions = { seed: 77, realism: { breath_noise: 'measured' } };
const written = (sampling: SamplingOption) => generateTest({ ...BASE, sampling }).recording;

function diffs(t: number[]): number[] {
  return t.slice(1).map((x, i) => Math.round((x - t[i]) * 1000) / 1000);
}

/** SD of first differences: how much a series jumps from row to row. */
function jumpiness(values: number[]): number {
  const d = values.slice(1).map((v, i) => v - values[i]);
  const m = d.reduce((a, b) => a + b, 0) / d.length;
  return Math.sqrt(d.reduce((a, b) => a + (b - m) ** 2, 0) / d.length);
}

describe('synthetic averaged exports', () => {
  const breaths = written({ kind: 'breath' });
  const vo2 = breaths.channels.VO2!.values as number[];

  it('writes a rolling 8-breath mean at every breath, read as breath by breath', () => {
    const rolling = written({ kind: 'rolling_breaths', breaths: 8 });
    expect(rolling.t_s).to.deep.equal(breaths.t_s);
    expect(rolling.sampling.method).to.equal('breath_by_breath');
    const r = rolling.channels.VO2!.values as number[];
    for (const i of [0, 3, 7, 50, 200, vo2.length - 1]) {
      const window = vo2.slice(Math.max(0, i - 7), i + 1);
      expect(r[i]).to.be.closeTo(window.reduce((a, b) => a + b, 0) / window.length, 0.1);
    }
  });

  it('writes a rolling 15-s mean every second, marked as 15-s averages', () => {
    const rolling = written({ kind: 'rolling_time', window_s: 15 });
    expect(new Set(diffs(rolling.t_s))).to.deep.equal(new Set([1]));
    expect(rolling.sampling).to.include({ method: 'averaged', averaging_s: 15 });
    const r = rolling.channels.VO2!.values as number[];
    const t = 400;
    const inWindow = breaths.t_s.map((_, i) => i).filter((i) => breaths.t_s[i] > t - 15 && breaths.t_s[i] <= t);
    const plain = inWindow.reduce((a, i) => a + vo2[i], 0) / inWindow.length;
    expect(r[rolling.t_s.indexOf(t)]).to.be.closeTo(plain, 0.15 * plain);
    expect(jumpiness(r)).to.be.below(jumpiness(vo2) / 3);
  });

  it('writes a 1-Hz series interpolated from smoothed breaths, like pyoxynet data_test.csv', () => {
    const hz = written({ kind: 'interpolated_1hz', smoothing_breaths: 20 });
    expect(new Set(diffs(hz.t_s))).to.deep.equal(new Set([1]));
    expect(hz.t_s.every((t) => Number.isInteger(t))).to.equal(true);
    expect(hz.t_s[0]).to.equal(Math.ceil(breaths.t_s[0]));
    expect(hz.t_s.at(-1)).to.be.within(breaths.t_s.at(-1)! - 1, breaths.t_s.at(-1)!);
    expect(hz.sampling).to.include({ method: 'averaged', raw_interval_s: 1 });
    expect(jumpiness(hz.channels.VO2!.values as number[])).to.be.below(jumpiness(vo2) / 10);
  });

  it('keeps the fixed windows it always wrote', () => {
    const ten = written({ kind: 'averaged', window_s: 10 });
    expect(new Set(diffs(ten.t_s))).to.deep.equal(new Set([10]));
    expect(ten.sampling).to.include({ method: 'averaged', averaging_s: 10 });
  });

  it('gives the same bytes for the same options', () => {
    for (const sampling of [
      { kind: 'rolling_breaths', breaths: 7 },
      { kind: 'rolling_time', window_s: 20 },
      { kind: 'interpolated_1hz', smoothing_breaths: 15 },
    ] as const) {
      expect(JSON.stringify(written(sampling))).to.equal(JSON.stringify(written(sampling)));
    }
  });
});
