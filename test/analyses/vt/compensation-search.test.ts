/**
 * `preprocessing.compensation_search` (analyses/vt/card.ts, decision/end-compensation.ts): a card that names
 * none seeks the respiratory compensation over the last 180 s of exercise (published versions keep their
 * numbers), an unknown search is refused with the card, and `whole_test` keeps the Exercise Threshold App
 * test's VT2 on a 10-s export within 15 s of its breath-by-breath answer, where the last 180 s accept a later
 * break on the export (bins removed the breath noise that keeps it unaccepted breath by breath).
 */
import { strict as assert } from 'node:assert';
import { compensationSearchOf } from '../../../analyses/vt/card.js';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import type { Recording } from '../../../src/recording/recording.js';
import { binned } from '../../../scripts/train/binned-export.js';
import { realTests } from '../../../scripts/train/real-tests.js';
import { modelsWithPreprocessing, request } from './helpers.js';

type Plugin = ReturnType<typeof createVtPlugin>;

async function vt2(plugin: Plugin, rec: Recording): Promise<number> {
  const out = await plugin.run(rec, request('research', { model: 'gandalf', model_version: 'v1.4.0' }));
  if (out.status !== 'ok') return assert.fail(`refused: ${JSON.stringify(out)}`);
  return (out.findings as { vt2_time_s: number }).vt2_time_s;
}

describe('vt compensation search', () => {
  it('seeks over the last 180 s when the card names no search, and refuses a card naming an unknown one', () => {
    assert.equal(compensationSearchOf({}), 'last_180_s');
    assert.equal(compensationSearchOf({ preprocessing: { compensation_search: 'whole_test' } }), 'whole_test');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.4.0', { compensation_search: 'everywhere' }));
    assert.equal(registry.find('gandalf', 'v1.4.0'), undefined);
    assert.match(registry.rejected.map((r) => r.reason).join(), /compensation_search everywhere is not one of last_180_s, whole_test/);
  });

  it("keeps the Exercise Threshold App test's VT2 on a 10-s export within 15 s of breath by breath over the whole test, where the last 180 s move it", async () => {
    const eta = (await realTests()).find((r) => r.id.startsWith('exercise threshold app'));
    if (!eta) return assert.fail('the Exercise Threshold App test is missing');
    const export10 = binned(eta.recording, 10, false);
    const published = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
    const whole = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.4.0', { compensation_search: 'whole_test' }) });
    const moved = (await vt2(published, export10)) - (await vt2(published, eta.recording));
    assert.ok(Math.abs(moved) > 15, `the last 180 s moved VT2 by ${moved} s`);
    const kept = (await vt2(whole, export10)) - (await vt2(whole, eta.recording));
    assert.ok(Math.abs(kept) <= 15, `the whole test moved VT2 by ${kept} s`);
  });
});
