import { expect } from 'chai';
import { readUpload } from '../../src/formats/read-upload.js';
import canonicalJson from '../../formats/canonical-json/index.js';
import { coverage } from '../../src/recording/recording.js';
import { drawOptions } from '../../src/synthetic/cohort.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { generateSample, generateSampleTest } from '../../src/synthetic/sample.js';

describe('synthetic generator', () => {
  it('gives the same bytes for the same seed and different bytes for another', () => {
    expect(generateSample(false).content).to.equal(generateSample(false).content);
    const a = JSON.stringify(generateTest({ seed: 5 }).recording);
    expect(JSON.stringify(generateTest({ seed: 5 }).recording)).to.equal(a);
    expect(JSON.stringify(generateTest({ seed: 6 }).recording)).to.not.equal(a);
  });

  it('places the sample thresholds near 55 % and 80 % of its 900-s test', () => {
    const { truth, recording } = generateSampleTest(false);
    expect(truth.vt1?.time_s).to.be.within(0.55 * 900 - 20, 0.55 * 900 + 20);
    expect(truth.vt2?.time_s).to.be.within(0.8 * 900 - 20, 0.8 * 900 + 20);
    expect(recording.sampling.raw_interval_s).to.equal(2);
    expect(recording.t_s[recording.t_s.length - 1]).to.be.within(890, 900);
    for (const name of ['VO2', 'VCO2', 'VE', 'RF', 'PetO2', 'PetCO2', 'HR'] as const) expect(coverage(recording, name)).to.equal(1);
  });

  it('states the placed oscillation of the oscillating sample', () => {
    const { expected } = generateSample(true);
    expect(expected.oscillation?.period_s).to.equal(60);
    expect(expected.oscillation?.amplitude_l_min).to.be.greaterThan(5);
    expect(generateSample(false).expected.oscillation).to.equal(null);
  });

  it('uploads the sample content back to the same recording through the canonical JSON format', async () => {
    const sample = generateSample(false);
    const { recording } = await readUpload(sample.filename, Buffer.from(sample.content), [canonicalJson]);
    expect(recording).to.deep.equal(generateSampleTest(false).recording);
  });

  it('writes physiology: RER rises past 1, PetCO2 falls after VT2, the VE/VCO2 slope is the placed one', () => {
    const { recording, truth } = generateTest({ seed: 11, noise_cv: 0, outlier_rate: 0, sampling: { kind: 'averaged', window_s: 10 } });
    const vo2 = recording.channels.VO2!.values as number[];
    const vco2 = recording.channels.VCO2!.values as number[];
    const ve = recording.channels.VE!.values as number[];
    const peak = vo2.indexOf(Math.max(...vo2));
    expect(vco2[peak] / vo2[peak]).to.be.greaterThan(1.05);
    expect(vco2[2] / vo2[2]).to.be.within(0.75, 0.9);
    const below = recording.t_s.map((_, i) => i).filter((i) => recording.t_s[i] > truth.phases.warmup_end_s + 60 && recording.t_s[i] < truth.vt2!.time_s - 30);
    const slope = (ve[below.at(-1)!] - ve[below[0]]) / ((vco2[below.at(-1)!] - vco2[below[0]]) / 1000);
    expect(slope).to.be.closeTo(truth.ve_vco2_slope, 1.5);
  });

  it('draws varied cohorts: protocols, samplings, and tests that never reach VT2 or VT1', () => {
    const tests = Array.from({ length: 60 }, (_, i) => generateTest(drawOptions(i + 1)));
    const protocols = new Set(tests.map((t) => t.truth.protocol));
    expect([...protocols].sort()).to.deep.equal(['ramp', 'steps', 'treadmill']);
    expect(tests.some((t) => t.recording.sampling.method === 'averaged')).to.equal(true);
    expect(tests.some((t) => t.recording.sampling.method === 'breath_by_breath')).to.equal(true);
    expect(tests.some((t) => t.truth.vt2 === null)).to.equal(true);
    for (const t of tests) {
      if (t.truth.vt1 && t.truth.vt2) expect(t.truth.vt1.time_s).to.be.lessThan(t.truth.vt2.time_s);
      expect(t.recording.t_s.length).to.be.greaterThan(20);
    }
  });

  it('places FATMAX on step protocols and not on ramps', () => {
    const steps = generateTest({ seed: 3, protocol: 'steps', fatmax_fraction: 0.5 });
    expect(steps.truth.fatmax?.fraction_vo2peak).to.be.within(0.4, 0.6);
    expect(generateTest({ seed: 3, protocol: 'ramp' }).truth.fatmax).to.equal(null);
  });
});
