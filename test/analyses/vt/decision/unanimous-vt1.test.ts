/**
 * `preprocessing.vt1_landmarks: unanimous` (analyses/vt/decision/unanimous-vt1.ts): a card that names none keeps
 * landmarks to the undecided zone, an unknown reading is refused with the card, the four criteria count as
 * unanimous only when all are accepted and within a minute of their median, and on ramps recorded without rest
 * (where gandalf reads VT1 late) the unanimous landmarks bring VT1 closer.
 */
import { strict as assert } from 'node:assert';
import { createVtPlugin } from '../../../../analyses/vt/plugin.js';
import { ModelRegistry } from '../../../../analyses/vt/registry.js';
import { unanimousVt1, vt1LandmarksOf, UNANIMOUS_WITHIN_S } from '../../../../analyses/vt/decision/unanimous-vt1.js';
import type { CriterionEvidence } from '../../../../analyses/vt/engines/wasserman/criteria.js';
import { trainingRealisticCohort } from '../../../../scripts/train/cohorts.js';
import { generateTest } from '../../../../src/synthetic/generate.js';
import { modelsWithPreprocessing, request } from '../helpers.js';

const criterion = (index: number | null, accepted = true): CriterionEvidence => ({ criterion: 'c', index, slope_before: null, slope_after: null, accepted, why: '' });
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

describe('vt VT1 landmarks: unanimous', () => {
  it('keeps landmarks in the zone when the card names no reading, and refuses a card naming an unknown one', () => {
    assert.equal(vt1LandmarksOf({}), 'in_zone');
    assert.equal(vt1LandmarksOf({ preprocessing: { vt1_landmarks: 'unanimous' } }), 'unanimous');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.5.0', { vt1_landmarks: 'anywhere' }));
    assert.equal(registry.find('gandalf', 'v1.5.0'), undefined);
    assert.match(registry.rejected.map((r) => r.reason).join(), /vt1_landmarks anywhere is not one of in_zone, unanimous/);
  });

  it('counts the criteria as unanimous only when all four are accepted and within a minute of their median', () => {
    assert.equal(unanimousVt1([criterion(100), criterion(130), criterion(150), criterion(160)], 60), true);
    assert.equal(unanimousVt1([criterion(100), criterion(130), criterion(150), criterion(160, false)], 60), false);
    assert.equal(unanimousVt1([criterion(100), criterion(130), criterion(150)], 60), false);
    assert.equal(unanimousVt1([criterion(100), criterion(null), criterion(150), criterion(160)], 60), false);
    // Median 145: 145 - 84 = 61 s is one second beyond the agreement.
    assert.equal(unanimousVt1([criterion(145 - UNANIMOUS_WITHIN_S - 1), criterion(140), criterion(150), criterion(160)], 60), false);
  });

  // Ramps without a recorded rest from the realistic training rows, on seeds no evaluation or exploration drew (+300_000).
  it('reads VT1 closer on ramps recorded without rest, where the curves cross late', async () => {
    const subjects = trainingRealisticCohort()
      .filter((o) => !((o.rest_s ?? 0) > 0))
      .slice(0, 8)
      .map((o) => ({ ...o, seed: o.seed + 300_000 }));
    const errors: Record<string, number[]> = { in_zone: [], unanimous: [] };
    for (const reading of Object.keys(errors)) {
      const plugin = createVtPlugin({ modelsDir: modelsWithPreprocessing('v1.5.0', { vt1_landmarks: reading }) });
      for (const o of subjects) {
        const g = generateTest(o);
        const out = await plugin.run(g.recording, request('research', { model: 'gandalf', model_version: 'v1.5.0' }));
        if (out.status !== 'ok') return assert.fail(`refused: ${JSON.stringify(out)}`);
        const f = out.findings as { vt1_vo2_ml_min: number | null };
        errors[reading].push(f.vt1_vo2_ml_min === null ? Infinity : Math.abs(f.vt1_vo2_ml_min - (g.truth.vt1 as { vo2_ml_min: number }).vo2_ml_min));
      }
    }
    const [before, after] = [mean(errors.in_zone), mean(errors.unanimous)];
    assert.ok(after < before - 50, `VT1 mean |VO2 error| ${after} mL/min against ${before} with landmarks in the zone only`);
  });
});
