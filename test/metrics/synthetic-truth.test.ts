import { expect } from 'chai';
import type { MetricResult } from '../../src/metrics/metric-entry.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { Protocol, SamplingOption } from '../../src/synthetic/types.js';

const reg = createMetricRegistry();

/** The value of an ok result (fails the test otherwise). */
function value<T>(r: MetricResult): T {
  expect(r.status, JSON.stringify(r)).to.equal('ok');
  return (r as { value: T }).value;
}

interface Segment {
  label: string;
  slope: number;
  ci_low: number;
  ci_high: number;
  n: number;
  t_end_s: number;
  ventilatory_class: string;
}

const COHORT: { protocol: Protocol; sampling: SamplingOption }[] = [
  { protocol: 'ramp', sampling: { kind: 'breath' } },
  { protocol: 'steps', sampling: { kind: 'breath' } },
  { protocol: 'ramp', sampling: { kind: 'interval', interval_s: 2 } },
  { protocol: 'steps', sampling: { kind: 'averaged', window_s: 10 } },
];

describe('metrics against the generator truth', () => {
  it('vo2max equals the placed 30-s peak within a few percent', () => {
    const errors: number[] = [];
    for (const c of COHORT) {
      for (let seed = 1; seed <= 5; seed++) {
        const { recording, truth } = generateTest({ seed, ...c });
        const r = reg.compute(recording, ['vo2max']).vo2max;
        const err = value<number>(r) / truth.vo2peak_30s_ml_min - 1;
        expect(Math.abs(err), `${c.protocol} seed ${seed}`).to.be.at.most(0.07);
        expect(r.status === 'ok' && r.detail?.window_s).to.be.at.least(30);
        errors.push(Math.abs(err));
      }
    }
    // The highest of many noisy 30-s means sits a little above the noise-free peak; on average by little.
    expect(errors.reduce((a, b) => a + b, 0) / errors.length).to.be.at.most(0.04);
  });

  it('vo2max does not crop to a phase: a peak in recovery is still the peak', () => {
    const { recording } = generateTest({ seed: 2 });
    const rec: Recording = structuredClone(recording);
    const vo2 = rec.channels.VO2!.values;
    const i = rec.t_s.findIndex((t) => t > rec.t_s[rec.t_s.length - 1] - 60);
    for (let k = i; k < i + 40 && k < vo2.length; k++) vo2[k] = 9000;
    const r = reg.compute(rec, ['vo2max']).vo2max;
    expect(value<number>(r)).to.be.greaterThan(5000);
    expect(r.status === 'ok' && r.detail?.phase).to.equal('recovery');
  });

  it('recovers the placed VE/VCO2 slope within the confidence interval of the last segment below VT2', () => {
    // A 95 % interval misses the truth now and then: ask for 90 % of cases inside, none far outside.
    let inside = 0;
    let cases = 0;
    for (const c of COHORT) {
      for (let seed = 1; seed <= 4; seed++) {
        const { recording, truth } = generateTest({ seed, ...c });
        const segments = value<Segment[]>(reg.compute(recording, ['ve_vco2_slope']).ve_vco2_slope);
        expect(segments.map((s) => s.label)).to.include('100%');
        const below = segments.filter((s) => s.t_end_s <= truth.vt2!.time_s - 30);
        const seg = below[below.length - 1];
        expect(seg, `${c.protocol} seed ${seed}: no segment below VT2`).to.not.equal(undefined);
        const half = (seg.ci_high - seg.ci_low) / 2;
        expect(Math.abs(truth.ve_vco2_slope - seg.slope), `${c.protocol} seed ${seed} ${seg.label}`).to.be.at.most(1.5 * half);
        if (truth.ve_vco2_slope >= seg.ci_low && truth.ve_vco2_slope <= seg.ci_high) inside++;
        cases++;
        expect(seg.ventilatory_class).to.equal(truth.ve_vco2_slope < 30 ? 'I' : 'II');
      }
    }
    expect(inside / cases).to.be.at.least(0.9);
  });

  it('places the V-slope landmark within tens of seconds of the placed VT1', () => {
    const errs: number[] = [];
    for (const c of COHORT.slice(0, 2)) {
      for (let seed = 1; seed <= 6; seed++) {
        const { recording, truth } = generateTest({ seed, ...c });
        const lm = value<{ points: Record<string, { t_s: number; pct_vo2peak: number }> }>(reg.compute(recording, ['landmarks']).landmarks);
        const vs = lm.points.v_slope_breakpoint;
        expect(vs, `${c.protocol} seed ${seed}`).to.not.equal(undefined);
        expect(vs.pct_vo2peak).to.be.within(30, 100);
        errs.push(Math.abs(vs.t_s - truth.vt1!.time_s));
      }
    }
    expect(Math.max(...errs), `errors ${errs.map(Math.round)}`).to.be.at.most(75);
    expect([...errs].sort((a, b) => a - b)[errs.length >> 1]).to.be.at.most(30);
  });

  it('says o2_pulse is unavailable for want of HR once HR is removed', () => {
    const { recording } = generateTest({ seed: 3 });
    const rec: Recording = structuredClone(recording);
    expect(reg.compute(rec, ['o2_pulse']).o2_pulse.status).to.equal('ok');
    delete rec.channels.HR;
    rec.absent.HR = 'not in the file';
    const r = reg.compute(rec, ['o2_pulse']).o2_pulse;
    expect(r).to.deep.include({ status: 'unavailable', error: 'MISSING_CHANNEL' });
    expect((r as { context: unknown }).context).to.deep.equal({ required: ['VO2', 'HR'], missing: ['HR'] });
    expect((r as { message: string }).message).to.match(/HR/);
  });

  it('grades sampling: breath by breath resolves the band, 1-min averages resolve nothing graded', () => {
    const breath = value<{ gradable: boolean; band_narrowed: boolean }>(reg.compute(generateTest({ seed: 1 }).recording, ['sampling_adequacy']).sampling_adequacy);
    expect(breath).to.include({ gradable: true, band_narrowed: false });
    const minute = generateTest({ seed: 1, sampling: { kind: 'averaged', window_s: 60 } }).recording;
    const m = value<{ gradable: boolean; note: string; period_floor_s: number }>(reg.compute(minute, ['sampling_adequacy']).sampling_adequacy);
    expect(m.gradable).to.equal(false);
    expect(m.period_floor_s).to.equal(240);
    expect(m.note).to.match(/cannot resolve oscillation/);
  });

  it('counts only runnable gas checks: without PetO2 the closure check neither runs nor passes', () => {
    const { recording } = generateTest({ seed: 1 });
    const full = value<{ n_checks: number; n_passed: number; verdict: string }>(reg.compute(recording, ['gas_quality']).gas_quality);
    expect(full).to.include({ n_checks: 4, n_passed: 4, verdict: 'good' });
    const rec: Recording = structuredClone(recording);
    delete rec.channels.PetO2;
    const g = value<{ n_checks: number; n_passed: number; closure_coherence: number | null; note: string }>(reg.compute(rec, ['gas_quality']).gas_quality);
    expect(g).to.include({ n_checks: 3, n_passed: 3, closure_coherence: null });
    expect(g.note).to.match(/not run: petco2_opposes_peto2/);
  });

  it('fails the VCO2-follows-VE check when VCO2 is shuffled in time', () => {
    const { recording } = generateTest({ seed: 1 });
    const rec: Recording = structuredClone(recording);
    const v = rec.channels.VCO2!.values;
    // Reverse the exercise part: same values, no longer following VE.
    rec.channels.VCO2!.values = [...v].reverse();
    const g = value<{ checks: { name: string; passed: boolean }[] }>(reg.compute(rec, ['gas_quality']).gas_quality);
    expect(g.checks.find((c) => c.name === 'vco2_follows_ve')!.passed).to.equal(false);
  });

  it('reports landmarks it cannot place with a reason instead of a number', () => {
    const { recording } = generateTest({ seed: 1 });
    const rec: Recording = structuredClone(recording);
    delete rec.channels.PetCO2;
    const lm = value<{ points: Record<string, unknown>; not_found: Record<string, string>; reading: string }>(reg.compute(rec, ['landmarks']).landmarks);
    expect(lm.points).to.not.have.property('petco2_peak');
    expect(lm.not_found.petco2_peak).to.match(/needs PetCO2/);
    expect(lm.reading).to.match(/never override/);
  });
});
