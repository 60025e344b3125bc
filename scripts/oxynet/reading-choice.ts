/**
 * `npx tsx scripts/oxynet/reading-choice.ts`: chooses how gandalf v1.0.0 reads the Oxynet outputs
 * (`output_reading`, engines/oxynet/curves.ts) on the synthetic TRAINING cohorts only (the realistic
 * training cohort and the v2 training cohort with the expert-reading truth): for each reading, the
 * pipeline's VT1 and VT2 (the curves and the corroborated rule, as the service runs them) against the
 * truth. The held-out cohorts and the real tests are never used to choose.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelCard } from '../../analyses/vt/card.js';
import { corroborated } from '../../analyses/vt/decision/corroborated.js';
import { oxynetCnn } from '../../analyses/vt/engines/oxynet/index.js';
import { checkInput } from '../../analyses/vt/input-check.js';
import type { RegisteredModel } from '../../analyses/vt/registry.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions } from '../../src/synthetic/types.js';
import { readingDelayS, trainingCohort, trainingRealisticCohort } from '../train/cohorts.js';
import { GANDALF_V1_READING } from './cards.js';

const weights = join(PROJECT_ROOT, 'models/oxynet-cnn/v1.0.0/model.onnx');
const sha256 = createHash('sha256').update(readFileSync(weights)).digest('hex');

function probe(reading: 'entered_domain' | 'pairwise'): RegisteredModel {
  const card = {
    name: `reading-${reading}`,
    version: 'v0.0.0',
    tier: 'research',
    status: 'research',
    engine: 'learned',
    description: 'probe',
    inputs: ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'],
    pipeline: { engine: 'oxynet-cnn', decision: 'corroborated' },
    preprocessing: { ...GANDALF_V1_READING, output_reading: reading },
    weights: { file: 'model.onnx', sha256 },
    evaluation: null,
  } as ModelCard;
  return { card, dir: '', weights_path: weights, problem: null };
}

const cohorts: { name: string; options: GeneratorOptions[] }[] = [
  { name: 'realistic training (114)', options: trainingRealisticCohort() },
  { name: 'v2 training, expert reading (120)', options: trainingCohort(120, 'v2').map((o) => ({ ...o, realism: { reading_delay_s: { vt1: readingDelayS(o.seed), vt2: 0 } } })) },
];
const stat = (e: number[]) =>
  e.length ? `bias ${(e.reduce((a, b) => a + b, 0) / e.length).toFixed(1)} s, MAE ${(e.reduce((a, b) => a + Math.abs(b), 0) / e.length).toFixed(1)} s, n ${e.length}` : 'n 0';
for (const c of cohorts) {
  const tests = c.options.map((o) => generateTest(o));
  for (const reading of ['entered_domain', 'pairwise'] as const) {
    const model = probe(reading);
    const err: { vt1: number[]; vt2: number[] } = { vt1: [], vt2: [] };
    let missed = 0;
    for (const g of tests) {
      const checked = checkInput(g.recording, model.card.inputs);
      if (!checked.ok) continue;
      const input = { model, rec: g.recording, test: checked.test, exercise_start_index: checked.exercise_start_index };
      const out = await oxynetCnn.run(input);
      if (out.kind !== 'curves') continue;
      const d = corroborated.decide(out.curves, input, out.evidence);
      for (const k of ['vt1', 'vt2'] as const) {
        const truth = g.truth[k];
        const placed = d[k];
        if (truth && placed) err[k].push(checked.test.t0_s + placed.index - truth.time_s);
        else if (truth) missed++;
      }
    }
    console.log(`${c.name.padEnd(36)} ${reading.padEnd(15)} VT1 ${stat(err.vt1)} | VT2 ${stat(err.vt2)} | missed ${missed}`);
  }
}
