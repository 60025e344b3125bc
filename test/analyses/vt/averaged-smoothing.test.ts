/**
 * `preprocessing.averaged_smoothing` (analyses/vt/card.ts, engines/oxynet/breath-mean.ts): a card that
 * names none smooths averaged exports over a time span (published versions keep their numbers), an
 * unknown smoothing is refused with the card, and `breaths` reads a 5-s export through the 20-breath
 * mean, keeping VT1 within 15 s of the breath-by-breath answer on synthetic tests where the time-span
 * mean, with the rows centred, moves it further.
 */
import { strict as assert } from 'node:assert';
import { averagedSmoothingOf } from '../../../analyses/vt/card.js';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import type { Recording } from '../../../src/recording/recording.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { heldOutCohort } from '../../../scripts/train/cohorts.js';
import { modelsWithPreprocessing, request } from './helpers.js';

type Plugin = ReturnType<typeof createVtPlugin>;

async function findings(plugin: Plugin, rec: Recording): Promise<{ vt1_time_s: number; vt2_time_s: number; evidence: Record<string, unknown> }> {
  const out = await plugin.run(rec, request('research', { model: 'gandalf', model_version: 'v1.3.0' }));
  if (out.status !== 'ok') return assert.fail(`refused: ${JSON.stringify(out)}`);
  return out.findings as { vt1_time_s: number; vt2_time_s: number; evidence: Record<string, unknown> };
}

describe('vt averaged smoothing', () => {
  it('smooths over a time span when the card names no smoothing, and refuses a card naming an unknown one', () => {
    assert.equal(averagedSmoothingOf({}), 'time_span');
    assert.equal(averagedSmoothingOf({ preprocessing: { averaged_smoothing: 'breaths' } }), 'breaths');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.3.0', { averaged_smoothing: 'seconds' }));
    assert.equal(registry.find('gandalf', 'v1.3.0'), undefined);
    assert.match(registry.rejected.map((r) => r.reason).join(), /averaged_smoothing seconds is not one of time_span, breaths/);
  });

  it('says where the breathing rate came from, and leaves breath-by-breath data as they are', async () => {
    const plugin = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.3.0', { averaged_smoothing: 'breaths' }) });
    const o = heldOutCohort(1)[0];
    const averaged = generateTest({ ...o, sampling: { kind: 'averaged', window_s: 10 } }).recording;
    assert.equal((await findings(plugin, averaged)).evidence.breathing_rate, 'RF');
    const { RF: _rf, VT: _vt, ...gases } = averaged.channels;
    assert.equal((await findings(plugin, { ...averaged, channels: { ...gases, VT: averaged.channels.VT } })).evidence.breathing_rate, 'VE/VT');
    assert.equal((await findings(plugin, { ...averaged, channels: gases })).evidence.breathing_rate, 'estimated_from_VE');
    const breaths = generateTest({ ...o, sampling: { kind: 'breath' } }).recording;
    const published = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
    const [a, b] = [await findings(plugin, breaths), await findings(published, breaths)];
    assert.equal(a.evidence.breathing_rate, undefined);
    assert.deepEqual([a.vt1_time_s, a.vt2_time_s], [b.vt1_time_s, b.vt2_time_s]);
  });

  // Two held-out synthetic tests (seeds as scripts/train/export-shift.ts draws them) on which a 5-s
  // export read through the time-span mean, rows centred, moves VT1 more than 15 s; through breaths it
  // stays within.
  const CASES = [9, 20];
  it('keeps a 5-s export within 15 s of breath-by-breath with breaths where the time-span mean does not', async () => {
    const timeSpan = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.3.0', { averaged_rows: 'interval_centre' }) });
    const breaths = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.3.0', { averaged_rows: 'interval_centre', averaged_smoothing: 'breaths' }) });
    const options = heldOutCohort(2).map((o, i) => ({ ...o, seed: 9_990_000 + i }));
    for (const i of CASES) {
      const reference = (await findings(breaths, generateTest({ ...options[i], sampling: { kind: 'breath' } }).recording)).vt1_time_s;
      const export5 = generateTest({ ...options[i], sampling: { kind: 'averaged', window_s: 5 } }).recording;
      const spanned = (await findings(timeSpan, export5)).vt1_time_s;
      const byBreaths = (await findings(breaths, export5)).vt1_time_s;
      assert.ok(Math.abs(spanned - reference) > 15, `test ${i}: the time-span mean moves VT1 ${spanned - reference} s: the case no longer shows the offset`);
      assert.ok(Math.abs(byBreaths - reference) <= 15, `test ${i}: ${byBreaths} s through breaths against ${reference} s breath by breath`);
    }
  });
});
