/**
 * scripts/train/artifacts.ts `without`: a kind left out of a draw is drawn but not applied, so every other artefact of
 * the draw stays exactly as the evaluation lays it (vt1-errors.ts --without reads what one kind alone does).
 */
import assert from 'node:assert/strict';
import { ARTIFACT_KINDS, withArtifacts } from '../../../scripts/train/artifacts.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { heldOutCohort } from '../../../scripts/train/cohorts.js';

const SEED = 9_731_234;
const base = generateTest({ ...heldOutCohort(1)[0], seed: SEED }).recording;
const values = (rec: typeof base, name: 'VO2' | 'VCO2' | 'VE' | 'PetO2' | 'PetCO2') => rec.channels[name]?.values ?? [];

describe('training artefacts: leaving one kind out', () => {
  it('leaves every channel the end-tidal drift does not touch exactly as the full draw lays it', () => {
    const full = withArtifacts(base, SEED);
    const noDrift = withArtifacts(base, SEED, 1, new Set(['drift_end_tidal']));
    for (const name of ['VO2', 'VCO2', 'VE'] as const) assert.deepEqual(values(noDrift, name), values(full, name));
    assert.notDeepEqual(values(noDrift, 'PetO2'), values(full, 'PetO2'));
    assert.notDeepEqual(values(noDrift, 'PetCO2'), values(full, 'PetCO2'));
  });

  it('with nothing left out is the evaluation draw, and with every kind left out is the recording itself', () => {
    assert.deepEqual(withArtifacts(base, SEED, 1, new Set()), withArtifacts(base, SEED));
    const none = withArtifacts(base, SEED, 1, new Set(ARTIFACT_KINDS));
    for (const name of ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const) {
      values(none, name).forEach((v, i) => {
        const orig = values(base, name)[i];
        assert.ok(v === orig || (v !== null && orig !== null && Math.abs(v - orig) < 1e-9), `${name}[${i}]`);
      });
    }
  });
});
