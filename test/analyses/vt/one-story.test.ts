import { expect } from 'chai';
import plugin from '../../../analyses/vt/index.js';
import eov from '../../../analyses/eov/index.js';
import { implausibilities } from '../../../analyses/vt/implausible.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { sampleOptions } from '../../../src/synthetic/sample.js';

const key = { tier: 'research' as const, allowed_models: null };
const LESS_RELIABLE = /Thresholds are less reliable on this test: the eov analysis grades/;

describe('vt and eov tell one story', () => {
  it('says thresholds are less reliable, and why, when eov grades oscillation on the test', async () => {
    const rec = generateTest({ ...sampleOptions(false), seed: 41, oscillation: { period_s: 60, amplitude_fraction: 0.3, petco2_phase_deg: 180 } }).recording;
    const graded = await eov.run(rec, { key });
    expect(graded.status).to.equal('ok');
    if (graded.status === 'ok') expect(['intermittent', 'sustained']).to.include((graded.findings as { grade: string }).grade);
    const out = await plugin.run(rec, { key });
    expect(out.notes.filter((n) => LESS_RELIABLE.test(n))).to.have.length(1);
    expect(out.notes.join(' ')).to.match(/VE\/VCO2, VE\/VO2 and the end-tidal gases/);
  });

  it('adds nothing on a test without oscillation', async () => {
    const out = await plugin.run(generateTest(sampleOptions(false)).recording, { key });
    expect(out.notes.join(' ')).to.not.match(LESS_RELIABLE);
  });

  it('lists thresholds that contradict each other or the test, for the page to flag', () => {
    expect(implausibilities({ time_s: 600, vo2_ml_min: 2000 }, { time_s: 700, vo2_ml_min: 2600 }, 800)).to.deep.equal([]);
    const codes = implausibilities({ time_s: 700, vo2_ml_min: 2600 }, { time_s: 650, vo2_ml_min: 2400 }, 800).map((i) => i.code);
    expect(codes).to.deep.equal(['vt2_before_vt1', 'vt2_vo2_below_vt1']);
    expect(implausibilities({ time_s: 700, vo2_ml_min: 2000 }, { time_s: 820, vo2_ml_min: 2600 }, 800).map((i) => i.code)).to.deep.equal(['after_exercise']);
  });
});
