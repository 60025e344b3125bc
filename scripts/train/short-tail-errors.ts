/**
 * `npx tsx scripts/train/short-tail-errors.ts [perCell] [gandalf@v1.3.0,gandalf@v1.4.0]`: on the evaluation's
 * short-tail cohort (scripts/train/evaluation-cohorts.ts, the tests `npm run evaluate --per-cell N` reads),
 * the figures the gate table does not print (analyses/vt/README.md, gandalf v1.4.0): per model, the median
 * |VT2 time error|, the share of tests that reach VT2 read within 20 s of it, and VT2 found %.
 */
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR } from '../../analyses/vt/registry.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { heldOutShortTailCohort } from './evaluation-cohorts.js';

const perCell = Number(process.argv[2] ?? 30);
const models = (process.argv[3] ?? 'gandalf@v1.3.0,gandalf@v1.4.0').split(',').map((m) => m.split('@') as [string, string]);
const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
const key = { tier: 'research' as const, allowed_models: null };
const tests = heldOutShortTailCohort(perCell)
  .map((o) => generateTest(o))
  .filter((g) => g.truth.vt2 !== null);
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
for (const [model, version] of models) {
  const errors: number[] = [];
  for (const g of tests) {
    const out = await plugin.run(g.recording, { model, model_version: version, key, surface: 'web' });
    const t = out.status === 'ok' ? (out.findings as { vt2_time_s: number | null }).vt2_time_s : null;
    if (t !== null) errors.push(Math.abs(t - (g.truth.vt2 as { time_s: number }).time_s));
  }
  const within = errors.filter((e) => e <= 20).length;
  console.log(
    `${model} ${version}: ${tests.length} tests reach VT2; found ${((100 * errors.length) / tests.length).toFixed(1)} %; median |VT2 error| ${median(errors)} s; within 20 s ${((100 * within) / tests.length).toFixed(1)} % of the tests that reach it`,
  );
}
