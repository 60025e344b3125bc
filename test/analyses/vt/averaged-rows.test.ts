/**
 * `preprocessing.averaged_rows` (analyses/vt/card.ts, preprocess.ts): a card that names no placement
 * reads averaged rows as stamped (published versions keep their numbers), an unknown placement is
 * refused with the card, and `interval_centre` keeps a 30-s export's thresholds within 15 s of the
 * breath-by-breath answer on synthetic tests where reading the rows at their stamps moves them further.
 */
import { strict as assert } from 'node:assert';
import { averagedRowsOf } from '../../../analyses/vt/card.js';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { placeAveragedRows } from '../../../analyses/vt/preprocess.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import type { Recording } from '../../../src/recording/recording.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { heldOutCohort } from '../../../scripts/train/cohorts.js';
import { modelsWithPreprocessing, request } from './helpers.js';

describe('vt averaged rows', () => {
  it('reads rows as stamped when the card names no placement, and refuses a card naming an unknown one', () => {
    assert.equal(averagedRowsOf({}), 'as_stamped');
    assert.equal(averagedRowsOf({ preprocessing: { averaged_rows: 'interval_centre' } }), 'interval_centre');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.2.0', { averaged_rows: 'bin_start' }));
    assert.equal(registry.find('gandalf', 'v1.2.0'), undefined);
    assert.match(registry.rejected.map((r) => r.reason).join(), /averaged_rows bin_start is not one of as_stamped, interval_centre/);
  });

  it('moves an averaged export back by half its window, and leaves breath-by-breath and pyoxynet 1-Hz series alone', () => {
    const averaged = generateTest({ ...heldOutCohort(1)[0], sampling: { kind: 'averaged', window_s: 30 } }).recording;
    assert.deepEqual(
      placeAveragedRows(averaged, 'interval_centre').t_s,
      averaged.t_s.map((t) => t - 15),
    );
    assert.equal(placeAveragedRows(averaged, 'as_stamped'), averaged);
    const breaths = generateTest({ ...heldOutCohort(1)[0], sampling: { kind: 'breath' } }).recording;
    assert.equal(placeAveragedRows(breaths, 'interval_centre'), breaths);
    const upstream: Recording = { ...averaged, sampling: { ...averaged.sampling, averaging_s: 1 }, flags: [{ code: 'interpolated_upstream', detail: '' }] };
    assert.equal(placeAveragedRows(upstream, 'interval_centre'), upstream);
  });

  // Two held-out synthetic tests (seeds as scripts/train/export-shift.ts draws them) on which the
  // as-stamped reading of a 30-s export moves a threshold more than 15 s; centred, both stay within.
  const CASES = [5, 15];
  it('keeps a 30-s export within 15 s of breath-by-breath with interval_centre', async () => {
    const stamped = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
    const centred = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.2.0', { averaged_rows: 'interval_centre' }) });
    const options = heldOutCohort(2).map((o, i) => ({ ...o, seed: 9_990_000 + i }));
    const times = async (plugin: typeof stamped, rec: Recording) => {
      const out = await plugin.run(rec, request('research', { model: 'gandalf', model_version: 'v1.2.0' }));
      if (out.status !== 'ok') return assert.fail(`refused: ${JSON.stringify(out)}`);
      const f = out.findings as { vt1_time_s: number; vt2_time_s: number };
      return [f.vt1_time_s, f.vt2_time_s];
    };
    let stampedWorst = 0;
    for (const i of CASES) {
      const reference = await times(stamped, generateTest({ ...options[i], sampling: { kind: 'breath' } }).recording);
      const export30 = generateTest({ ...options[i], sampling: { kind: 'averaged', window_s: 30 } }).recording;
      const asStamped = await times(stamped, export30);
      const atCentre = await times(centred, export30);
      for (const k of [0, 1]) {
        stampedWorst = Math.max(stampedWorst, Math.abs(asStamped[k] - reference[k]));
        assert.ok(Math.abs(atCentre[k] - reference[k]) <= 15, `test ${i} VT${k + 1}: ${atCentre[k]} s centred against ${reference[k]} s breath by breath`);
      }
    }
    assert.ok(stampedWorst > 15, `as stamped the worst shift is ${stampedWorst} s: the cases no longer show the lag`);
  });
});
