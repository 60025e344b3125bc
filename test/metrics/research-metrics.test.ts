import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { readUpload } from '../../src/formats/read-upload.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { vo2Peak } from '../../src/metrics/vo2peak.js';
import { builtInFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import type { AveragingSpec } from '../../src/signal/averaging/index.js';
import { generateTest } from '../../src/synthetic/generate.js';

const reg = createMetricRegistry();

async function fixture(id: string): Promise<Recording> {
  const c = builtInFixtureCases().find((f) => `${f.format}/${f.name}` === id)!;
  const { formats } = await loadPlugins();
  return (await readUpload(`input.${c.extension}`, readFileSync(c.input), formats)).recording;
}

const value = (r: { status: string; value?: unknown }) => {
  expect(r.status, JSON.stringify(r)).to.equal('ok');
  return r.value as any;
};

describe('relative VO2peak', () => {
  it('divides VO2peak by the body mass the file records (Parvo breath-by-breath, 71 kg)', async () => {
    const rec = await fixture('parvo-trueone/csv-breath-by-breath');
    const r = reg.compute(rec, ['vo2max', 'vo2max_relative']);
    expect(value(r.vo2max_relative)).to.be.closeTo(value(r.vo2max) / 71, 0.05);
    expect((r.vo2max_relative as unknown as { detail: { body_mass_source: string } }).detail.body_mass_source).to.equal('file');
  });

  it('takes the request body mass over the file, and refuses with the reason when there is none', async () => {
    const withMass = await fixture('parvo-trueone/csv-breath-by-breath');
    const r = reg.compute(withMass, ['vo2max', 'vo2max_relative'], { body_mass_kg: 80 });
    expect(value(r.vo2max_relative)).to.be.closeTo(value(r.vo2max) / 80, 0.05);
    const without = await fixture('cortex-metasoft/xlsx-de-anonymised');
    const refused = reg.compute(without, ['vo2max_relative']).vo2max_relative;
    expect(refused).to.deep.include({ status: 'unavailable', error: 'INSUFFICIENT_SIGNAL' });
    if (refused.status === 'unavailable') expect(refused.context).to.deep.include({ reason: 'MISSING_BODY_MASS', missing: ['body_mass_kg'] });
    expect(value(reg.compute(without, ['vo2max_relative'], { body_mass_kg: 70 }).vo2max_relative)).to.be.greaterThan(10);
  });
});

describe('VO2 plateau', () => {
  it('finds the plateau the generator placed', () => {
    const flat = generateTest({ seed: 3, noise_cv: 0.01, realism: { plateau_s: 120 } }).recording;
    const p = value(reg.compute(flat, ['vo2_plateau']).vo2_plateau);
    expect(p).to.include({ plateau: true, criterion: 'taylor_1955_150', threshold_ml_min: 150 });
    expect(p.delta_ml_min).to.be.below(50);
  });

  it('reads a real ramp (MGC Breeze) and a real 30-s-binned step file (Parvo), naming the criterion', async () => {
    const ramp = value(reg.compute(await fixture('mgc-breeze-txt/gasexchanger-aaron'), ['vo2_plateau']).vo2_plateau);
    expect(ramp).to.include({ plateau: true, criterion: 'taylor_1955_150' });
    expect(ramp.delta_ml_min).to.be.within(0, 150);
    const steps = value(reg.compute(await fixture('parvo-trueone/xlsx-30s-bins'), ['vo2_plateau']).vo2_plateau);
    expect(steps.criterion).to.equal('taylor_1955_150');
    const bxb = value(reg.compute(await fixture('parvo-trueone/csv-breath-by-breath'), ['vo2_plateau']).vo2_plateau);
    expect(bxb.plateau).to.equal(false);
  });
});

describe('averaging as a parameter', () => {
  const kinds: AveragingSpec[] = [
    { kind: 'time_bins', window_s: 30, statistic: 'mean' },
    { kind: 'rolling_time', window_s: 30, alignment: 'centred', statistic: 'median' },
    { kind: 'rolling_breaths', breaths: 8, alignment: 'trailing', statistic: 'mean' },
    { kind: 'low_pass', cutoff_hz: 0.04, order: 3 },
  ];

  it('each kind gives a VO2peak near the default on a real breath-by-breath ramp, and says which it used', async () => {
    const rec = await fixture('mgc-breeze-txt/gasexchanger-aaron');
    const base = vo2Peak(rec)!.value;
    for (const averaging of kinds) {
      const r = reg.compute(rec, ['vo2max', 'vemax', 'rermax', 'o2_pulse'], { averaging });
      expect(value(r.vo2max), averaging.kind).to.be.within(base * 0.9, base * 1.1);
      expect((r.vo2max as unknown as { detail: { averaging: unknown } }).detail.averaging).to.deep.equal({ ...averaging, default: false });
      expect(value(r.vo2max)).to.be.closeTo(vo2Peak(rec, averaging)!.value, 0.05);
    }
  });

  it('shorter breath windows read higher peaks than 30-s bins (Robergs 2010)', async () => {
    const rec = await fixture('parvo-trueone/csv-breath-by-breath');
    const breaths = vo2Peak(rec, { kind: 'rolling_breaths', breaths: 3, alignment: 'trailing', statistic: 'mean' })!.value;
    const bins = vo2Peak(rec, { kind: 'time_bins', window_s: 30, statistic: 'mean' })!.value;
    expect(breaths).to.be.greaterThan(bins);
  });
});
