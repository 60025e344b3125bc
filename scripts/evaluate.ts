/**
 * `npm run evaluate [-- --write] [--promote name@version] [--per-cell N] [--model name]`: evaluates every installed threshold
 * model through the vt plugin itself (the code path the service runs) on
 *   1. the held-out synthetic cohort (scripts/train/cohorts.ts heldOutCohort: seeds and settings
 *      never used in training; 3 protocols x 4 fitness levels x N tests),
 *   2. a second held-out synthetic cohort with thresholds placed far more widely (heldOutWideCohort),
 *      which a model that learned the usual threshold position instead of the signals fails,
 *   2b. a third with full-strength measurement artefacts (gain errors, end-tidal offsets and drift,
 *      extra noise; heldOutArtifactCohort + scripts/train/artifacts.ts), and
 *   3. the real labelled tests (test/fixtures/vt/), reported per test as a check, never tuned on, and
 *   4. a sanity check on every real vendor file of the format plugins (scripts/train/vendor-sanity.ts).
 * Prints the gate table (spec rule 4). With --write, records the evaluation in each model card; a
 * card is (or stays) production only when every unseen cohort of at least 30 tests clears all four
 * limits for VT1 and VT2 (the two real tests are too few to count and are reported as a check), and a
 * research card becomes production only when named with --promote: clearing the gate makes a version
 * eligible, it does not by itself replace the default.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATE, gateFailures, type CohortEvaluation, type ModelCard, type ThresholdAgreement } from '../analyses/vt/card.js';
import { createVtPlugin } from '../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../analyses/vt/registry.js';
import type { AnalysisPlugin } from '../src/analyses/analysis-plugin.js';
import type { Recording } from '../src/recording/recording.js';
import { generateTest } from '../src/synthetic/generate.js';
import { generateSampleTest } from '../src/synthetic/sample.js';
import { agreement, type Pair } from './train/agreement.js';
import { withArtifacts } from './train/artifacts.js';
import { heldOutArtifactCohort, heldOutCohort, heldOutWideCohort } from './train/cohorts.js';
import { realTests } from './train/real-tests.js';
import { sanity, vendorFiles } from './train/vendor-sanity.js';

function argValue(name: string): string | null {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
}

const write = process.argv.includes('--write');
const perCell = Number(argValue('--per-cell') ?? 30);
const only = argValue('--model');
/** `name@version` to promote when its gate clears; without it a research card stays research. */
const promote = argValue('--promote');

type Est = { time_s: number | null; vo2_ml_min: number | null };

async function estimate(plugin: AnalysisPlugin, rec: Recording, name: string, version: string): Promise<{ vt1: Est | null; vt2: Est | null; refusal: string | null }> {
  const out = await plugin.run(rec, { model: name, model_version: version, key: { tier: 'research', allowed_models: null }, surface: 'web' });
  if (out.status !== 'ok') return { vt1: null, vt2: null, refusal: out.error };
  const f = out.findings as Record<string, number | null>;
  const pick = (k: 'vt1' | 'vt2'): Est | null => (f[`${k}_time_s`] === null ? null : { time_s: f[`${k}_time_s`], vo2_ml_min: f[`${k}_vo2_ml_min`] });
  return { vt1: pick('vt1'), vt2: pick('vt2'), refusal: null };
}

function fmt(a: ThresholdAgreement): string {
  const cell = (v: number | null, limit: number, worse: 'above' | 'below', unit: string) => {
    if (v === null) return `${'n/a'.padStart(8)}        `;
    const pass = worse === 'above' ? Math.abs(v) <= limit : v >= limit;
    return `${String(v).padStart(8)}${unit} ${pass ? 'pass' : 'FAIL'}`;
  };
  return [
    `n ${String(a.n).padStart(3)} missed ${String(a.missed).padStart(3)} spurious ${String(a.spurious).padStart(3)}`,
    `VO2 bias ${cell(a.vo2_bias_ml_min, GATE.vo2_bias_ml_min, 'above', '')}`,
    `r ${cell(a.vo2_r, GATE.vo2_r, 'below', '')}`,
    `MAE ${String(a.vo2_mae_ml_min).padStart(7)}`,
    `| time bias ${cell(a.time_bias_s, GATE.time_bias_s, 'above', 's')}`,
    `r ${cell(a.time_r, GATE.time_r, 'below', '')}`,
    `MAE ${String(a.time_mae_s).padStart(6)}s`,
  ].join('  ');
}

const registry = new ModelRegistry(DEFAULT_MODELS_DIR);
const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
const syntheticCohorts = [
  { cohort: 'synthetic held-out', tests: heldOutCohort(perCell).map((o) => generateTest(o)) },
  { cohort: 'synthetic held-out, wide threshold placement', tests: heldOutWideCohort(Math.ceil((perCell * 2) / 3)).map((o) => generateTest(o)) },
  {
    cohort: 'synthetic held-out with measurement artefacts',
    tests: heldOutArtifactCohort(Math.ceil((perCell * 2) / 3)).map((o) => {
      const g = generateTest(o);
      return { ...g, recording: withArtifacts(g.recording, o.seed) };
    }),
  },
];
const real = await realTests();
const vendor = await vendorFiles();
for (const c of syntheticCohorts) console.log(`${c.cohort}: ${c.tests.length} tests (3 protocols x 4 fitness levels)`);
console.log(`real labelled tests: ${real.length}`);
console.log(`gate (spec rule 4): |VO2 bias| <= ${GATE.vo2_bias_ml_min} mL/min, VO2 r >= ${GATE.vo2_r}, |time bias| <= ${GATE.time_bias_s} s, time r >= ${GATE.time_r}`);

for (const model of registry.models) {
  const { name, version } = model.card;
  if (only && only !== name) continue;
  const started = Date.now();
  const refusals: Record<string, number> = {};
  const cohorts: CohortEvaluation[] = [];
  for (const c of syntheticCohorts) {
    const vt1: Pair[] = [];
    const vt2: Pair[] = [];
    for (const g of c.tests) {
      const e = await estimate(plugin, g.recording, name, version);
      if (e.refusal) refusals[e.refusal] = (refusals[e.refusal] ?? 0) + 1;
      vt1.push({ est: e.vt1, truth: g.truth.vt1 });
      vt2.push({ est: e.vt2, truth: g.truth.vt2 });
    }
    cohorts.push({ cohort: c.cohort, unseen: true, n_tests: c.tests.length, vt1: agreement(vt1), vt2: agreement(vt2) });
  }
  const realPairs: { vt1: Pair[]; vt2: Pair[] } = { vt1: [], vt2: [] };
  const perTest: Record<string, unknown>[] = [];
  for (const r of real) {
    const e = await estimate(plugin, r.recording, name, version);
    realPairs.vt1.push({ est: e.vt1, truth: r.vt1 });
    realPairs.vt2.push({ est: e.vt2, truth: r.vt2 });
    const err = (est: Est | null, truth: RealTestTruth, k: 'time_s' | 'vo2_ml_min') => (est?.[k] != null && truth[k] !== null ? Math.round((est[k] as number) - (truth[k] as number)) : null);
    perTest.push({
      test: r.id,
      refusal: e.refusal,
      vt1: { estimate: e.vt1, truth: r.vt1, vo2_error_ml_min: err(e.vt1, r.vt1, 'vo2_ml_min'), time_error_s: err(e.vt1, r.vt1, 'time_s') },
      vt2: { estimate: e.vt2, truth: r.vt2, vo2_error_ml_min: err(e.vt2, r.vt2, 'vo2_ml_min'), time_error_s: err(e.vt2, r.vt2, 'time_s') },
    });
  }
  cohorts.push({ cohort: 'real labelled (pyoxynet samples)', unseen: true, n_tests: real.length, vt1: agreement(realPairs.vt1), vt2: agreement(realPairs.vt2), per_test: perTest });
  console.log(`\n## ${name} ${version} (${model.card.engine}, tier ${model.card.tier}, card status ${model.card.status}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (Object.keys(refusals).length) console.log(`refusals on the synthetic cohort: ${JSON.stringify(refusals)}`);
  for (const c of cohorts) {
    console.log(`${c.cohort} (n=${c.n_tests})`);
    console.log(`  VT1  ${fmt(c.vt1)}`);
    console.log(`  VT2  ${fmt(c.vt2)}`);
  }
  for (const p of perTest) console.log(`  ${JSON.stringify(p)}`);
  const vendorSanity: { file: string; result: string }[] = [];
  for (const v of vendor) {
    const out = await plugin.run(v.recording, { model: name, model_version: version, key: { tier: 'research', allowed_models: null }, surface: 'web' });
    vendorSanity.push({ file: v.id, result: sanity(v.recording, out) });
  }
  console.log('sanity on the real vendor files (formats/*/fixtures):');
  for (const v of vendorSanity) console.log(`  ${v.file.padEnd(52)} ${v.result.slice(0, 150)}`);
  const failures = gateFailures({ evaluation: { evaluated_at: '', command: '', cohorts } });
  console.log(failures.length === 0 ? 'GATE CLEARED on every unseen cohort large enough to count' : `gate not cleared: ${failures.join('; ')}`);

  if (write) {
    const cardPath = join(model.dir, 'card.json');
    const card = JSON.parse(readFileSync(cardPath, 'utf8')) as ModelCard;
    // The public sample's findings, which test/analyses/vt/replay.test.ts replays bit for bit.
    const replay = await plugin.run(generateSampleTest(false).recording, { model: name, model_version: version, key: { tier: 'research', allowed_models: null }, surface: 'web' });
    card.replay = { recording: 'generateSampleTest(false) (src/synthetic/sample.ts)', findings: replay.status === 'ok' ? replay.findings : null };
    card.evaluation = { evaluated_at: new Date().toISOString(), command: `npm run evaluate -- --write --per-cell ${perCell}`, cohorts, vendor_sanity: vendorSanity };
    // Clearing the gate makes a version eligible; promotion is a decision, taken with --promote.
    const eligible = failures.length === 0;
    card.status = eligible && (card.status === 'production' || promote === `${name}@${version}`) ? 'production' : 'research';
    writeFileSync(cardPath, JSON.stringify(card, null, 2) + '\n');
    console.log(`wrote ${cardPath} (status ${card.status})`);
  }
}

type RealTestTruth = { time_s: number | null; vo2_ml_min: number };
