/**
 * Decision `petco2-first-end` (analyses/vt/decision/corroborated.ts) on gandalf v1.4.0's card: on subjects
 * stopped 10-60 s after VT2 it reads VT2 closer than `petco2-first` does, where the curves cross early and
 * PetCO2 holds after the crossing, and it leaves VT1 as v1.4.0 reads it.
 */
import { strict as assert } from 'node:assert';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { heldOutShortTailCohort } from '../../../scripts/train/evaluation-cohorts.js';
import { modelsWithDecision, request } from './helpers.js';

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

describe('vt decision petco2-first-end', () => {
  // Twelve short-tail subjects on seeds no evaluation or exploration drew (9_940_000 + i, as scaling-range.test.ts).
  it('reads VT2 closer on tests stopped soon after it, with VT1 unchanged', async () => {
    const errors: Record<string, number[]> = { 'petco2-first': [], 'petco2-first-end': [] };
    const vt1: Record<string, (number | null)[]> = { 'petco2-first': [], 'petco2-first-end': [] };
    const placedAtEnd: number[] = [];
    for (const decision of Object.keys(errors)) {
      const plugin = createVtPlugin({ modelsDir: modelsWithDecision('v1.4.0', decision) });
      for (const o of heldOutShortTailCohort(1).map((o) => ({ ...o, seed: o.seed + 40_000 }))) {
        const g = generateTest(o);
        const out = await plugin.run(g.recording, request('research', { model: 'gandalf', model_version: 'v1.4.0' }));
        if (out.status !== 'ok') return assert.fail(`refused: ${JSON.stringify(out)}`);
        const f = out.findings as { vt1_time_s: number | null; vt2_time_s: number | null; evidence: { vt2: { placed_by: string } } };
        vt1[decision].push(f.vt1_time_s);
        errors[decision].push(f.vt2_time_s === null ? Infinity : Math.abs(f.vt2_time_s - (g.truth.vt2 as { time_s: number }).time_s));
        if (f.evidence.vt2.placed_by.startsWith('the end of the test')) placedAtEnd.push(o.seed);
      }
    }
    assert.deepEqual(vt1['petco2-first-end'], vt1['petco2-first']);
    assert.ok(placedAtEnd.length > 0, 'no subject had its VT2 placed at the end of the test');
    const [before, after] = [mean(errors['petco2-first']), mean(errors['petco2-first-end'])];
    assert.ok(after < before - 5, `VT2 mean |error| ${after} s against petco2-first's ${before} s`);
  });
});
