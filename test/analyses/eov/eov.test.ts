import { expect } from 'chai';
import plugin from '../../../analyses/eov/index.js';
import type { AnalysisOutcome } from '../../../src/analyses/analysis-plugin.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import canonicalJson from '../../../formats/canonical-json/index.js';
import { FileView } from '../../../src/formats/file-view.js';
import type { Recording } from '../../../src/recording/recording.js';
import { generateSample, generateSampleTest, sampleOptions, type Sample } from '../../../src/synthetic/sample.js';
import type { GeneratorOptions } from '../../../src/synthetic/types.js';
import { gaussian, makeRecording } from './recordings.js';

const request = { key: { tier: 'free' as const, allowed_models: null } };

type Findings = Record<string, any>;

/** The sample as GET /v1/sample serves it, read back the way an upload of its content is. */
async function uploaded(sample: Sample): Promise<Recording> {
  return canonicalJson.parse(new FileView(sample.filename, Buffer.from(sample.content)));
}

function findings(out: AnalysisOutcome): Findings {
  expect(out.status, out.status === 'not_analysable' ? out.message : '').to.equal('ok');
  return (out as { findings: Findings }).findings;
}

function oscillating(seed: number, period_s: number, extra: Partial<GeneratorOptions> = {}): GeneratorOptions {
  return { ...sampleOptions(false), seed, oscillation: { period_s, amplitude_fraction: 0.3, petco2_phase_deg: 180 }, ...extra };
}

describe('EOV analysis', () => {
  it('declares itself as the eov plugin needing VE and PetCO2', () => {
    expect(plugin.name).to.equal('eov');
    expect(plugin.product).to.equal('eov');
    expect(plugin.requires).to.deep.equal(['VE', 'PetCO2']);
  });

  it('grades the uploaded oscillating sample with the placed period and an amplitude near the placed one', async () => {
    const sample = generateSample(true);
    const out = await plugin.run(await uploaded(sample), request);
    const f = findings(out);
    const truth = sample.expected.oscillation!;
    expect(f.grade).to.not.equal('none');
    expect(f.event.graded).to.equal(true);
    expect(f.event.period_peak_s).to.be.within(truth.period_s * 0.9, truth.period_s * 1.1);
    expect(f.event.amplitude_l_min).to.be.within(truth.amplitude_l_min * 0.75, truth.amplitude_l_min * 1.25);
    expect(f.event.corroborated).to.equal(true);
    expect(f.burden).to.be.greaterThan(0.6);
    expect(f.definitions.some((d: { fired: boolean }) => d.fired)).to.equal(true);
    expect(out.model).to.deep.equal({ name: 'eov-cwt', version: '0.1.0' });
    expect(out.notes.join(' ')).to.match(/transportability to other populations is untested/);
  });

  it('finds no graded oscillation in the uploaded plain sample', async () => {
    const f = findings(await plugin.run(await uploaded(generateSample(false)), request));
    expect(f.grade).to.equal('none');
    expect(f.burden).to.be.below(0.6);
    expect(f.headline).to.match(/^No exercise oscillatory ventilation/);
  });

  it('reports a 20-s oscillation as an event without grading it', async () => {
    const f = findings(await plugin.run(generateTest(oscillating(21, 20)).recording, request));
    expect(f.grade).to.equal('none');
    expect(f.event.graded).to.equal(false);
    expect(f.event.period_peak_s).to.be.within(18, 22);
  });

  for (const [period, seed] of [
    [60, 31],
    [120, 32],
  ] as const) {
    it(`grades a ${period}-s oscillation at its period`, async () => {
      const test = generateTest(oscillating(seed, period));
      const f = findings(await plugin.run(test.recording, request));
      expect(f.grade).to.equal('sustained');
      expect(f.event.graded).to.equal(true);
      expect(f.event.period_peak_s).to.be.within(period * 0.9, period * 1.1);
      expect(f.event.amplitude_l_min).to.be.within(test.truth.oscillation!.amplitude_l_min * 0.7, test.truth.oscillation!.amplitude_l_min * 1.3);
      expect(f.event.co2_coupling).to.match(/antiphase/);
    });
  }

  it('grades nothing in white noise', async () => {
    const z = gaussian(7);
    const t = Array.from({ length: 451 }, (_, i) => i * 2);
    const rec = makeRecording(t, { VE: t.map(() => 30 + 3 * z()), PetCO2: t.map(() => 40 + z()) }, 2);
    const f = findings(await plugin.run(rec, request));
    expect(f.grade).to.equal('none');
    expect(f.burden).to.equal(0);
  });

  it('does not corroborate an oscillation whose PetCO2 moves in phase with VE', async () => {
    const test = generateTest({ ...oscillating(41, 60), oscillation: { period_s: 60, amplitude_fraction: 0.3, petco2_phase_deg: 0 } });
    const out = await plugin.run(test.recording, request);
    const f = findings(out);
    expect(f.event.corroborated).to.equal(false);
    expect(Math.abs(f.event.phase_deg)).to.be.below(45);
    expect(out.notes.join(' ')).to.match(/not corroborated/);
  });

  it('finds the oscillation in breath-by-breath data and splits its drive towards tidal volume', async () => {
    const test = generateTest(oscillating(51, 80, { sampling: { kind: 'breath' } }));
    const f = findings(await plugin.run(test.recording, request));
    expect(f.event.period_peak_s).to.be.within(72, 88);
    expect(f.event.drive).to.equal('tidal volume');
    expect(f.event.drive_rf_fraction + f.event.drive_vt_fraction).to.be.closeTo(1, 1e-6);
    expect(f.event.loop_gain_margin).to.be.within(0, 1);
  });

  it('does not grade the staircase treadmill stages impose on VE, and names the work-rate channel', async () => {
    const f = findings(await plugin.run(generateTest({ ...sampleOptions(false), seed: 19, protocol: 'treadmill' }).recording, request));
    expect(f.grade).to.equal('none');
    expect(f.event.graded).to.equal(false);
    expect(f.event.protocol_driven_by).to.equal('Speed');
    expect(f.headline).to.match(/follows the protocol's stages/);
  });

  it('still grades a real oscillation during a step protocol', async () => {
    const test = generateTest({ ...oscillating(20, 60), protocol: 'steps', step_s: 120 });
    const f = findings(await plugin.run(test.recording, request));
    expect(f.grade).to.equal('sustained');
    expect(f.event.protocol_driven_by).to.equal(null);
    expect(f.event.period_peak_s).to.be.within(54, 66);
  });

  it('refuses without PetCO2 and never runs on VE alone', async () => {
    const rec = generateSampleTest(true).recording;
    const noCo2 = { ...rec, channels: { ...rec.channels, PetCO2: undefined } };
    delete noCo2.channels.PetCO2;
    const out = await plugin.run(noCo2, request);
    expect(out.status).to.equal('not_analysable');
    if (out.status !== 'not_analysable') return;
    expect(out.error).to.equal('MISSING_CHANNEL');
    expect(out.context).to.include.keys('required', 'missing');
    expect(out.context.missing).to.deep.equal(['PetCO2']);
  });

  it('refuses when PetCO2 covers less than 80 % of samples', async () => {
    const rec = generateSampleTest(false).recording;
    const values = rec.channels.PetCO2!.values.map((v, i) => (i % 4 === 0 ? v : null));
    const out = await plugin.run({ ...rec, channels: { ...rec.channels, PetCO2: { values, unit_in: 'mmHg' } } }, request);
    expect(out.status).to.equal('not_analysable');
    expect(out.status === 'not_analysable' && out.error).to.equal('NO_USABLE_DATA');
  });

  it('refuses less than 128 s of usable data', async () => {
    const t = Array.from({ length: 60 }, (_, i) => i * 2);
    const out = await plugin.run(makeRecording(t, { VE: t.map(() => 20), PetCO2: t.map(() => 40) }, 2), request);
    expect(out.status === 'not_analysable' && out.error).to.equal('INSUFFICIENT_DURATION');
  });

  it('accepts an unknown medication and says so in the notes', async () => {
    const out = await plugin.run(generateSampleTest(false).recording, { ...request, medications: ['Beta-blocker', 'unobtainium'] });
    const f = findings(out);
    expect(f.medications).to.deep.equal({ recognised: ['beta_blocker'], unrecognised: ['unobtainium'], factor: 1 });
    expect(out.notes.join(' ')).to.match(/unobtainium/);
  });
});
