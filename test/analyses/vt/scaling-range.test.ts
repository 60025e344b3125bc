/**
 * `preprocessing.scaling_range` (analyses/vt/card.ts, engines/oxynet/reference-range.ts): a card that
 * names no range scales over the measured span (published versions keep their numbers), an unknown
 * range is refused with the card, and gandalf v1.4.0 (`reference_tail`) reads the same synthetic subject
 * stopped soon after VT2 much as it reads the subject run on to REFERENCE_TAIL_S past it, where v1.3.0
 * reads the stopped test's thresholds early.
 */
import { strict as assert } from 'node:assert';
import { scalingRangeOf } from '../../../analyses/vt/card.js';
import { REFERENCE_TAIL_S } from '../../../analyses/vt/engines/oxynet/reference-range.js';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import type { Recording } from '../../../src/recording/recording.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { heldOutShortTailCohort } from '../../../scripts/train/evaluation-cohorts.js';
import { modelsWithPreprocessing, request } from './helpers.js';

const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

describe('vt scaling range', () => {
  it('scales over the measured span when the card names no range, and refuses a card naming an unknown one', () => {
    assert.equal(scalingRangeOf({}), 'test_span');
    assert.equal(scalingRangeOf({ preprocessing: { scaling_range: 'reference_tail' } }), 'reference_tail');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.4.0', { scaling_range: 'predicted_peak' }));
    assert.equal(registry.find('gandalf', 'v1.4.0'), undefined);
    assert.match(registry.rejected.map((r) => r.reason).join(), /scaling_range predicted_peak is not one of test_span, reference_tail/);
  });

  // Twelve short-tail subjects on seeds no evaluation or exploration drew (9_940_000 + i), each generated
  // twice: stopped 10-60 s after VT2, and run on to REFERENCE_TAIL_S after it.
  it('reads a subject stopped soon after VT2 as it reads the same subject run on, where v1.3.0 reads them early', async () => {
    const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
    const times = async (version: string, rec: Recording) => {
      const out = await plugin.run(rec, request('research', { model: 'gandalf', model_version: version }));
      if (out.status !== 'ok') return assert.fail(`refused: ${JSON.stringify(out)}`);
      const f = out.findings as { vt1_time_s: number | null; vt2_time_s: number | null };
      return [f.vt1_time_s, f.vt2_time_s];
    };
    const shifts: Record<string, number[][]> = { 'v1.3.0': [[], []], 'v1.4.0': [[], []] };
    for (const o of heldOutShortTailCohort(1).map((o) => ({ ...o, seed: o.seed + 40_000 }))) {
      const stopped = generateTest(o).recording;
      const ranOn = generateTest({ ...o, realism: { ...o.realism, end_after_vt2_s: REFERENCE_TAIL_S } }).recording;
      for (const version of Object.keys(shifts)) {
        const [a, b] = [await times(version, stopped), await times(version, ranOn)];
        for (const k of [0, 1]) if (a[k] !== null && b[k] !== null) shifts[version][k].push(Math.abs((a[k] as number) - (b[k] as number)));
      }
    }
    // VT1 only the scaling moves (the decision rule places VT2 alone), so its mean shift tests the range itself.
    const vt1 = mean(shifts['v1.4.0'][0]);
    const vt2 = median(shifts['v1.4.0'][1]);
    assert.ok(vt1 <= 20, `v1.4.0 moves VT1 by a mean ${vt1} s when the test stops soon after VT2`);
    assert.ok(vt2 <= 45, `v1.4.0 moves VT2 by a median ${vt2} s when the test stops soon after VT2`);
    const [vt1Before, vt2Before] = [mean(shifts['v1.3.0'][0]), median(shifts['v1.3.0'][1])];
    assert.ok(vt1Before > 20 && vt2Before > 45, `v1.3.0 moves VT1 by a mean ${vt1Before} s and VT2 by a median ${vt2Before} s: the subjects no longer show the early reading`);
  });
});
