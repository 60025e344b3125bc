/**
 * The Hampel identifier (analyses/vt/hampel.ts) and `preprocessing.breath_despiking` (card.ts): a spike is
 * replaced as the running median replaces it, the breaths around it stay as measured, so a series of
 * skewed breaths keeps its mean where the running median moves it; a card naming no despiking keeps the
 * running median and an unknown one is refused with the card; on the Exercise Threshold App test the excess-CO2
 * breakpoint read from its breaths lands with the one its 10-s export gives, where the running median of the
 * breaths puts it more than 15 s later.
 */
import { expect } from 'chai';
import { breathDespikingOf } from '../../../analyses/vt/card.js';
import { medianFilter } from '../../../analyses/vt/grid-filters.js';
import { hampelFilter } from '../../../analyses/vt/hampel.js';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import type { Recording } from '../../../src/recording/recording.js';
import { binned } from '../../../scripts/train/binned-export.js';
import { realTests } from '../../../scripts/train/real-tests.js';
import { modelsWithPreprocessing, request } from './helpers.js';

/** The excess-CO2 breakpoint VT1's evidence lists, s. */
async function excessCo2(plugin: ReturnType<typeof createVtPlugin>, rec: Recording): Promise<number> {
  const out = await plugin.run(rec, request('research', { model: 'gandalf', model_version: 'v1.5.0' }));
  if (out.status !== 'ok') throw new Error(`refused: ${JSON.stringify(out)}`);
  const landmarks = (out.findings as { evidence: { vt1: { landmarks: { criterion: string; time_s: number }[] } } }).evidence.vt1.landmarks;
  return (landmarks.find((l) => l.criterion === 'excess CO2 starts to rise') as { time_s: number }).time_s;
}

const mean = (v: Float64Array) => v.reduce((a, b) => a + b, 0) / v.length;

describe('vt hampel despiking', () => {
  it('replaces a cough breath by the median and leaves the breaths around it as measured', () => {
    const values = Float64Array.from({ length: 60 }, (_, i) => 1000 + 5 * i + (i % 2 ? 20 : -20));
    for (const i of [30, 31, 32]) values[i] += 1500;
    const out = hampelFilter(values, 7);
    const median = medianFilter(values, 7);
    for (let i = 0; i < values.length; i++) {
      if (i >= 30 && i <= 32) expect(out[i], `second ${i}`).to.equal(median[i]);
      else expect(out[i], `second ${i}`).to.equal(values[i]);
    }
  });

  it('keeps the mean of skewed breaths, which the running median moves', () => {
    // Three breaths close together and a fourth further above them, over and over (a right-skewed spread).
    const values = Float64Array.from({ length: 120 }, (_, i) => 1000 + [0, 20, 40, 100][i % 4]);
    expect(mean(hampelFilter(values, 7))).to.be.closeTo(mean(values), 1e-9);
    expect(mean(values) - mean(medianFilter(values, 7))).to.be.greaterThan(5);
  });

  it('keeps the running median where a card names no despiking, and refuses an unknown one', () => {
    expect(breathDespikingOf({})).to.equal('running_median');
    expect(breathDespikingOf({ preprocessing: { breath_despiking: 'hampel' } })).to.equal('hampel');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.5.0', { breath_despiking: 'mean' }));
    expect(registry.find('gandalf', 'v1.5.0')).to.equal(undefined);
    expect(registry.rejected.map((r) => r.reason).join()).to.match(/breath_despiking mean is not one of running_median, hampel/);
  });

  it("reads the Exercise Threshold App test's excess-CO2 breakpoint from its breaths where its 10-s export reads it", async () => {
    const eta = (await realTests()).find((r) => r.id.startsWith('exercise threshold app'));
    if (!eta) throw new Error('the Exercise Threshold App test is missing');
    const export10 = binned(eta.recording, 10, false);
    const median = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
    const hampel = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.5.0', { breath_despiking: 'hampel' }) });
    const [m, mx] = [await excessCo2(median, eta.recording), await excessCo2(median, export10)];
    const [h, hx] = [await excessCo2(hampel, eta.recording), await excessCo2(hampel, export10)];
    expect(m - mx, 'running median: breaths minus export').to.be.greaterThan(15);
    expect(Math.abs(h - hx), 'hampel: breaths minus export').to.be.at.most(5);
  });
});
