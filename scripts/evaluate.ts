/**
 * `npm run evaluate [-- --write | --replay-only] [--promote name@version] [--per-cell N] [--model name [--version vX.Y.Z]]`: evaluates every installed
 * threshold model through the vt plugin itself (the code path the service runs) on the same cohorts,
 * and prints them side by side:
 *   - the held-out synthetic cohorts of scripts/train/cohorts.ts (seeds and settings never used in
 *     training): the generator's default placement, a wide placement, measurement artefacts, and the
 *     realistic cohort (threshold positions and durations of real tests, spread nadirs, realistic
 *     noise, varied starts, tests that end soon after VT2, averaged exports);
 *   - the real labelled tests (test/fixtures/vt/), per test, as a check that is never tuned on;
 *   - a sanity check on every real vendor file of the format plugins.
 * The promotion gate is spec rule 4 on every unseen cohort of at least 30 tests (analyses/vt/card.ts).
 * With --write each card records its evaluation and the public sample's findings (replayed bit for bit
 * by test/analyses/vt/replay.test.ts); a card is (or stays) production only when the gate clears, and a
 * research card becomes production only when named with --promote: clearing the gate makes a version
 * eligible, it does not by itself replace the default.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATE, GATE_MIN_TESTS, gateFailures, MIN_VT2_FOUND_PCT, type CohortEvaluation, type LengthAwareFigures, type ModelCard, type ThresholdAgreement } from '../analyses/vt/card.js';
import { createVtPlugin } from '../analyses/vt/plugin.js';
import { DEFAULT_MODEL, DEFAULT_MODELS_DIR, ModelRegistry, type RegisteredModel } from '../analyses/vt/registry.js';
import type { AnalysisPlugin } from '../src/analyses/analysis-plugin.js';
import { generateSampleTest } from '../src/synthetic/sample.js';
import { agreement, type Pair } from './train/agreement.js';
import { evaluationCohorts, type EvaluationCohort } from './train/evaluation-cohorts.js';
import { realTests, type RealTest } from './train/real-tests.js';
import { sanity, vendorFiles } from './train/vendor-sanity.js';

function argValue(name: string): string | null {
  const i = process.argv.indexOf(name);
  return i >= 0 ? (process.argv[i + 1] ?? null) : null;
}

const write = process.argv.includes('--write');
const perCell = Number(argValue('--per-cell') ?? 30);
const only = argValue('--model');
/** With --model, one version only (so --write can record a new version without re-running the others). */
const onlyVersion = argValue('--version');
/** `name@version` to promote when its gate clears; without it a research card stays research. */
const promote = argValue('--promote');

type Est = { time_s: number | null; vo2_ml_min: number | null };
const researchKey = { tier: 'research' as const, allowed_models: null };

/** A threshold's estimate and, for a decision rule that says so (findings.evidence), which evidence placed it. */
interface Estimate {
  vt1: Est | null;
  vt2: Est | null;
  vo2peak_ml_min: number | null;
  placed_by: { vt1: string | null; vt2: string | null };
  refusal: string | null;
}

async function estimate(plugin: AnalysisPlugin, rec: RealTest['recording'], model: RegisteredModel): Promise<Estimate> {
  const out = await plugin.run(rec, { model: model.card.name, model_version: model.card.version, key: researchKey, surface: 'web' });
  if (out.status !== 'ok') return { vt1: null, vt2: null, vo2peak_ml_min: null, placed_by: { vt1: null, vt2: null }, refusal: out.error };
  const f = out.findings as Record<string, number | null>;
  const evidence = (out.findings as { evidence?: Record<string, { placed_by?: string } | undefined> }).evidence;
  const pick = (k: 'vt1' | 'vt2'): Est | null => (f[`${k}_time_s`] === null ? null : { time_s: f[`${k}_time_s`], vo2_ml_min: f[`${k}_vo2_ml_min`] });
  return { vt1: pick('vt1'), vt2: pick('vt2'), vo2peak_ml_min: f.vo2peak_ml_min, placed_by: { vt1: evidence?.vt1?.placed_by ?? null, vt2: evidence?.vt2?.placed_by ?? null }, refusal: null };
}

/** One test as the length-aware figures read it: where the recording starts and ends, the truth, the estimate. */
interface LengthRow {
  start_s: number;
  end_s: number;
  truth: Record<'vt1' | 'vt2', { time_s: number | null; vo2_ml_min: number | null } | null>;
  estimate: Estimate;
}

function lengthRow(rec: RealTest['recording'], truth: LengthRow['truth'], estimate: Estimate): LengthRow {
  return { start_s: rec.t_s[0], end_s: rec.t_s[rec.t_s.length - 1], truth, estimate };
}

const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : null);
const medianOf = (v: number[]) => {
  if (!v.length) return null;
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

/**
 * Found %, errors relative to the recording's length and to VO2peak, and the two leave-one-out
 * baselines that never read gas data (analyses/vt/card.ts LengthAwareFigures).
 */
function lengthAware(rows: LengthRow[], k: 'vt1' | 'vt2'): LengthAwareFigures {
  const withTruth = rows.filter((r) => r.truth[k]?.time_s != null);
  const found = withTruth.filter((r) => r.estimate[k]?.time_s != null);
  const timeErrPct: number[] = [];
  const vo2ErrPct: number[] = [];
  for (const r of found) {
    timeErrPct.push((100 * Math.abs((r.estimate[k]!.time_s as number) - (r.truth[k]!.time_s as number))) / (r.end_s - r.start_s));
    const ev = r.estimate[k]!.vo2_ml_min;
    const tv = r.truth[k]!.vo2_ml_min;
    if (ev != null && tv != null && r.estimate.vo2peak_ml_min) vo2ErrPct.push((100 * Math.abs(ev - tv)) / r.estimate.vo2peak_ml_min);
  }
  const fraction = (r: LengthRow) => ((r.truth[k]!.time_s as number) - r.start_s) / (r.end_s - r.start_s);
  const offset = (r: LengthRow) => r.end_s - (r.truth[k]!.time_s as number);
  const byFraction: number[] = [];
  const byOffset: number[] = [];
  if (withTruth.length >= 2) {
    withTruth.forEach((r, i) => {
      const others = withTruth.filter((_, j) => j !== i);
      const t = r.truth[k]!.time_s as number;
      byFraction.push(Math.abs(r.start_s + (mean(others.map(fraction)) as number) * (r.end_s - r.start_s) - t));
      byOffset.push(Math.abs(r.end_s - (medianOf(others.map(offset)) as number) - t));
    });
  }
  return {
    found_pct: withTruth.length ? round1((100 * found.length) / withTruth.length) : null,
    time_mae_pct_duration: round1(mean(timeErrPct)),
    vo2_mae_pct_vo2peak: round1(mean(vo2ErrPct)),
    baseline_time_mae_s: { fraction_of_length: round1(mean(byFraction)), end_minus_offset: round1(mean(byOffset)) },
  };
}

/** Time errors (estimate minus truth, s) of one cohort, grouped by the evidence that placed each threshold. */
type ByPlacement = Record<'vt1' | 'vt2', Map<string, number[]>>;

function recordPlacement(into: ByPlacement, e: Estimate, truth: { vt1: { time_s: number } | null; vt2: { time_s: number } | null }): void {
  for (const k of ['vt1', 'vt2'] as const) {
    const by = e.placed_by[k];
    const est = e[k]?.time_s;
    const t = truth[k]?.time_s;
    if (by === null || est == null || t == null) continue;
    const errors = into[k].get(by) ?? [];
    errors.push(est - t);
    into[k].set(by, errors);
  }
}

const num = (v: number | null, width: number) => (v === null ? 'n/a' : String(v)).padStart(width);
const passMark = (v: number | null, limit: number, worse: 'above' | 'below') => (v === null ? ' ' : (worse === 'above' ? Math.abs(v) <= limit : v >= limit) ? ' ' : '!');

/** One threshold's figures in one fixed-width cell; `!` marks a figure that misses its gate limit. */
function cell(a: ThresholdAgreement): string {
  return [
    `${num(a.vo2_bias_ml_min, 6)}${passMark(a.vo2_bias_ml_min, GATE.vo2_bias_ml_min, 'above')}`,
    `${num(a.vo2_r, 5)}${passMark(a.vo2_r, GATE.vo2_r, 'below')}`,
    `${num(a.vo2_mae_ml_min, 5)}`,
    `${num(a.time_bias_s, 6)}${passMark(a.time_bias_s, GATE.time_bias_s, 'above')}`,
    `${num(a.time_r, 5)}${passMark(a.time_r, GATE.time_r, 'below')}`,
    `${num(a.time_mae_s, 5)}`,
    `${num(a.n, 3)}/${num(a.missed, 3)}/${num(a.spurious, 3)}`,
  ].join(' ');
}
const CELL_HEADER = 'VO2bias      r   MAE  tbias      r   MAE   n/mis/spu';

const registry = new ModelRegistry(DEFAULT_MODELS_DIR);
const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
const models = registry.models.filter((m) => (!only || m.card.name === only) && (!onlyVersion || m.card.version === onlyVersion));

/** The sample's findings as the card records them for test/analyses/vt/replay.test.ts. */
async function recordReplay(model: RegisteredModel, card: ModelCard): Promise<void> {
  const replay = await plugin.run(generateSampleTest(false).recording, { model: model.card.name, model_version: model.card.version, key: researchKey, surface: 'web' });
  card.replay = { recording: 'generateSampleTest(false) (src/synthetic/sample.ts)', findings: replay.status === 'ok' ? replay.findings : null };
}

// --replay-only: re-record the sample's findings and nothing else, when the findings gained a field
// (e.g. evidence.implausible) without any threshold moving; the evaluation stays as recorded.
if (process.argv.includes('--replay-only')) {
  for (const model of models) {
    const cardPath = join(model.dir, 'card.json');
    const card = JSON.parse(readFileSync(cardPath, 'utf8')) as ModelCard;
    await recordReplay(model, card);
    writeFileSync(cardPath, `${JSON.stringify(card, null, 2)}\n`);
    console.log(`re-recorded the replay of ${cardPath}`);
  }
  process.exit(0);
}
const cohorts = evaluationCohorts(perCell);
const real = await realTests();
const vendor = await vendorFiles();
console.log(
  `gate (spec rule 4) on every unseen cohort of at least ${GATE_MIN_TESTS} tests: |VO2 bias| <= ${GATE.vo2_bias_ml_min} mL/min, VO2 r >= ${GATE.vo2_r}, |time bias| <= ${GATE.time_bias_s} s, time r >= ${GATE.time_r}`,
);
for (const c of cohorts) console.log(`${c.cohort}: ${c.tests.length} tests. ${c.description}`);
console.log(`real labelled tests: ${real.length} (test/fixtures/vt/), a check only`);

interface ModelResult {
  model: RegisteredModel;
  cohorts: CohortEvaluation[];
  refusals: Record<string, Record<string, number>>;
  placements: Record<string, ByPlacement>;
  realErrors: { test: string; vt1: number | null; vt2: number | null }[];
  vendorSanity: { file: string; result: string }[];
  seconds: number;
}

async function evaluateCohort(model: RegisteredModel, c: EvaluationCohort, refusals: Record<string, number>, placements: ByPlacement): Promise<CohortEvaluation> {
  const vt1: Pair[] = [];
  const vt2: Pair[] = [];
  const rows: LengthRow[] = [];
  for (const g of c.tests) {
    const e = await estimate(plugin, g.recording, model);
    if (e.refusal) refusals[e.refusal] = (refusals[e.refusal] ?? 0) + 1;
    recordPlacement(placements, e, g.truth);
    vt1.push({ est: e.vt1, truth: g.truth.vt1 });
    vt2.push({ est: e.vt2, truth: g.truth.vt2 });
    rows.push(lengthRow(g.recording, g.truth, e));
  }
  return {
    cohort: c.cohort,
    unseen: !c.seenBy(model.card),
    n_tests: c.tests.length,
    vt1: agreement(vt1),
    vt2: agreement(vt2),
    length_aware: { vt1: lengthAware(rows, 'vt1'), vt2: lengthAware(rows, 'vt2') },
  };
}

async function evaluateReal(model: RegisteredModel): Promise<{ cohort: CohortEvaluation; errors: ModelResult['realErrors'] }> {
  const pairs: { vt1: Pair[]; vt2: Pair[] } = { vt1: [], vt2: [] };
  const perTest: Record<string, unknown>[] = [];
  const errors: ModelResult['realErrors'] = [];
  const rows: LengthRow[] = [];
  for (const r of real) {
    const e = await estimate(plugin, r.recording, model);
    rows.push(lengthRow(r.recording, { vt1: r.vt1, vt2: r.vt2 }, e));
    pairs.vt1.push({ est: e.vt1, truth: r.vt1 });
    pairs.vt2.push({ est: e.vt2, truth: r.vt2 });
    const err = (est: Est | null, truth: RealTest['vt1'], k: 'time_s' | 'vo2_ml_min') => (est?.[k] != null && truth[k] !== null ? Math.round((est[k] as number) - (truth[k] as number)) : null);
    perTest.push({
      test: r.id,
      refusal: e.refusal,
      vt1: { estimate: e.vt1, truth: r.vt1, vo2_error_ml_min: err(e.vt1, r.vt1, 'vo2_ml_min'), time_error_s: err(e.vt1, r.vt1, 'time_s') },
      vt2: { estimate: e.vt2, truth: r.vt2, vo2_error_ml_min: err(e.vt2, r.vt2, 'vo2_ml_min'), time_error_s: err(e.vt2, r.vt2, 'time_s') },
    });
    errors.push({ test: r.id, vt1: err(e.vt1, r.vt1, 'vo2_ml_min'), vt2: err(e.vt2, r.vt2, 'vo2_ml_min') });
  }
  const seen = real.filter((r) => r.inTrainingOf?.(model.card)).map((r) => r.id);
  return {
    cohort: {
      cohort: 'real labelled (pyoxynet samples)',
      unseen: seen.length === 0,
      n_tests: real.length,
      vt1: agreement(pairs.vt1),
      vt2: agreement(pairs.vt2),
      length_aware: { vt1: lengthAware(rows, 'vt1'), vt2: lengthAware(rows, 'vt2') },
      per_test: perTest,
      ...(seen.length ? { notes: `possibly in the model's training data: ${seen.join(', ')}` } : {}),
    },
    errors,
  };
}

const results: ModelResult[] = [];
for (const model of models) {
  const started = Date.now();
  const refusals: ModelResult['refusals'] = {};
  const placements: ModelResult['placements'] = {};
  const evaluated: CohortEvaluation[] = [];
  for (const c of cohorts) {
    placements[c.cohort] = { vt1: new Map(), vt2: new Map() };
    refusals[c.cohort] = {};
    evaluated.push(await evaluateCohort(model, c, refusals[c.cohort], placements[c.cohort]));
  }
  const { cohort: realCohort, errors } = await evaluateReal(model);
  evaluated.push(realCohort);
  const vendorSanity: ModelResult['vendorSanity'] = [];
  for (const v of vendor) {
    const out = await plugin.run(v.recording, { model: model.card.name, model_version: model.card.version, key: researchKey, surface: 'web' });
    vendorSanity.push({ file: v.id, result: sanity(v.recording, out) });
  }
  results.push({ model, cohorts: evaluated, refusals, placements, realErrors: errors, vendorSanity, seconds: (Date.now() - started) / 1000 });
  process.stderr.write(`evaluated ${model.card.name} ${model.card.version} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

const label = (m: RegisteredModel) => `${m.card.name} ${m.card.version}`.padEnd(18);
const width = Math.max(...results.map((r) => label(r.model).length));
for (const c of [...cohorts.map((x) => x.cohort)]) {
  console.log(`\n## ${c}`);
  console.log(`${''.padEnd(width)}  VT1 ${CELL_HEADER}  | VT2 ${CELL_HEADER}  | gate`);
  for (const r of results) {
    const e = r.cohorts.find((x) => x.cohort === c)!;
    const failures = gateFailures({ evaluation: { evaluated_at: '', command: '', cohorts: [e] } });
    const gate = !e.unseen ? 'seen in training' : e.n_tests < GATE_MIN_TESTS ? 'too few' : failures.length ? 'FAIL' : 'pass';
    const refused = Object.entries(r.refusals[c] ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(`${label(r.model).padEnd(width)}      ${cell(e.vt1)}  |     ${cell(e.vt2)}  | ${gate}${refused ? `  (refused: ${refused})` : ''}`);
  }
}

console.log(
  `\n## against test length: found %, |time error| as % of the recording, |VO2 error| as % of VO2peak, and time MAE (s) of the model beside the two leave-one-out baselines that never read gas data (VT1 = mean fraction x length, VT2 = end - median offset); '<' marks a model that beats both; promotion also needs VT2 found on >= ${MIN_VT2_FOUND_PCT} %`,
);
const lengthCell = (a: ThresholdAgreement, f: LengthAwareFigures | undefined) =>
  f
    ? `${num(f.found_pct, 5)} ${num(f.time_mae_pct_duration, 5)} ${num(f.vo2_mae_pct_vo2peak, 5)}  ${num(a.time_mae_s, 5)}${f.baseline_time_mae_s.fraction_of_length !== null && f.baseline_time_mae_s.end_minus_offset !== null && a.time_mae_s !== null && a.time_mae_s < Math.min(f.baseline_time_mae_s.fraction_of_length, f.baseline_time_mae_s.end_minus_offset) ? '<' : ' '} ${num(f.baseline_time_mae_s.fraction_of_length, 6)} ${num(f.baseline_time_mae_s.end_minus_offset, 6)}`
    : 'n/a';
const LENGTH_HEADER = 'found%  %dur %pk    MAE  b:frac  b:end';
for (const c of [...cohorts.map((x) => x.cohort), 'real labelled (pyoxynet samples)']) {
  console.log(`\n### ${c}`);
  console.log(`${''.padEnd(width)}  VT1 ${LENGTH_HEADER}  | VT2 ${LENGTH_HEADER}`);
  for (const r of results) {
    const e = r.cohorts.find((x) => x.cohort === c);
    if (!e) continue;
    console.log(`${label(r.model).padEnd(width)}      ${lengthCell(e.vt1, e.length_aware?.vt1)}  |     ${lengthCell(e.vt2, e.length_aware?.vt2)}`);
  }
}

console.log('\n## which evidence placed each threshold: time error (estimate minus truth) by placement, per cohort');
console.log('(models whose decision rule names its evidence; n, bias s, MAE s)');
const stats = (errors: number[]) => {
  const bias = errors.reduce((a, b) => a + b, 0) / errors.length;
  const mae = errors.reduce((a, b) => a + Math.abs(b), 0) / errors.length;
  return `n ${errors.length}, bias ${bias.toFixed(1)}, MAE ${mae.toFixed(1)}`;
};
for (const r of results) {
  const cohortsWithEvidence = Object.entries(r.placements).filter(([, p]) => p.vt1.size + p.vt2.size > 0);
  if (cohortsWithEvidence.length === 0) continue;
  console.log(label(r.model).trimEnd());
  for (const [cohort, p] of cohortsWithEvidence) {
    console.log(`  ${cohort}`);
    for (const k of ['vt1', 'vt2'] as const) {
      for (const [by, errors] of [...p[k]].sort((a, b) => b[1].length - a[1].length)) console.log(`    ${k.toUpperCase()} ${by}: ${stats(errors)}`);
    }
  }
}

console.log('\n## real labelled tests: VO2 error (estimate minus expert, mL/min)');
real.forEach((r, i) => {
  console.log(`test ${i + 1}: ${r.id}`);
});
console.log(`${''.padEnd(width)}  ${real.map((_, i) => `test ${i + 1} VT1    VT2`.padStart(20)).join('  ')}  mean |err|  max |err|`);
for (const r of results) {
  const all = r.realErrors.flatMap((e) => [e.vt1, e.vt2]);
  const known = all.filter((v): v is number => v !== null);
  const complete = known.length === all.length;
  const mean = complete ? Math.round(known.reduce((s, v) => s + Math.abs(v), 0) / known.length) : null;
  const max = complete ? Math.max(...known.map(Math.abs)) : null;
  const cells = r.realErrors.map((e) => `${num(e.vt1, 13)}  ${num(e.vt2, 5)}`).join('  ');
  console.log(`${label(r.model).padEnd(width)}  ${cells}  ${num(mean, 10)}  ${num(max, 9)}${complete ? '' : '  (a threshold missing)'}`);
}

console.log('\n## sanity on the real vendor files (formats/*/fixtures): pass, refused with a reason, or a rule broken');
for (const r of results) {
  const refused: Record<string, number> = {};
  const broken: string[] = [];
  let pass = 0;
  for (const v of r.vendorSanity) {
    const code = /^refused (\w+)/.exec(v.result)?.[1];
    if (code) refused[code] = (refused[code] ?? 0) + 1;
    else if (v.result.endsWith(': pass')) pass++;
    else broken.push(`${v.file}: ${v.result}`);
  }
  const refusedText = Object.entries(refused)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  console.log(`${label(r.model).padEnd(width)}  pass ${pass}, refused ${Object.values(refused).reduce((a, b) => a + b, 0)}${refusedText ? ` (${refusedText})` : ''}, broken ${broken.length}`);
  for (const b of broken) console.log(`${''.padEnd(width)}    ${b}`);
}

/** Mean and largest absolute VO2 error over every real threshold, or null when a threshold is missing. */
function realSummary(r: ModelResult): { mean_abs_vo2_error_ml_min: number | null; max_abs_vo2_error_ml_min: number | null } {
  const all = r.realErrors.flatMap((e) => [e.vt1, e.vt2]);
  const known = all.filter((v): v is number => v !== null);
  if (known.length < all.length || known.length === 0) return { mean_abs_vo2_error_ml_min: null, max_abs_vo2_error_ml_min: null };
  return { mean_abs_vo2_error_ml_min: Math.round(known.reduce((s, v) => s + Math.abs(v), 0) / known.length), max_abs_vo2_error_ml_min: Math.max(...known.map(Math.abs)) };
}

// Statuses after this run, then the default as the registry picks it: the newest production version
// of the default model, else its newest version of any status.
const statusOf = new Map<RegisteredModel, ModelCard['status']>();
for (const r of results) {
  const eligible = gateFailures({ evaluation: { evaluated_at: '', command: '', cohorts: r.cohorts } }).length === 0;
  const { name, version, status } = r.model.card;
  statusOf.set(r.model, eligible && (status === 'production' || promote === `${name}@${version}`) ? 'production' : 'research');
}
const candidates = registry.versions(DEFAULT_MODEL);
const productionVersions = candidates.filter((m) => (statusOf.get(m) ?? m.card.status) === 'production');
const def = (productionVersions.length ? productionVersions : candidates).at(-1) ?? null;

function defaultReading(r: ModelResult): { serves_omitted_model: boolean; why: string } {
  const serves = r.model === def;
  const own = realSummary(r).mean_abs_vo2_error_ml_min;
  const others = results.filter((x) => x !== r && x.model.card.name === DEFAULT_MODEL).map((x) => `${x.model.card.version} ${realSummary(x).mean_abs_vo2_error_ml_min ?? 'n/a'}`);
  const rule = productionVersions.length
    ? `it is the newest production version of ${DEFAULT_MODEL}`
    : `no version of ${DEFAULT_MODEL} clears the promotion gate on every unseen cohort, so the registry serves its newest version, and every envelope says it is a research model`;
  const why = serves
    ? `An omitted model runs this version: ${rule}. On the real labelled tests its mean |VO2 error| is ${own ?? 'n/a'} mL/min (other ${DEFAULT_MODEL} versions: ${others.join(', ') || 'none'}).`
    : `Not the default${def ? ` (an omitted model runs ${def.card.name} ${def.card.version})` : ''}.`;
  return { serves_omitted_model: serves, why };
}

function doesNotEstablish(r: ModelResult): string[] {
  const out = [
    `agreement with experts on people beyond the ${real.length} labelled tests the project holds (too few to count towards the gate)`,
    "the synthetic cohorts' truth is what the generator's model of an expert reading marks (scripts/train/cohorts.ts), not a human reading of these recordings",
    'calibration against clinical outcomes (spec section 1)',
  ];
  const seen = real.filter((t) => t.inTrainingOf?.(r.model.card)).map((t) => t.id);
  if (seen.length) out.unshift(`an unseen real test for ${seen.join(', ')}, which may be in the model's training data`);
  return out;
}

console.log(`\nan omitted model runs ${def ? `${def.card.name} ${def.card.version} (${statusOf.get(def) ?? def.card.status})` : 'nothing: no default installed'}`);
for (const r of results) {
  const failures = gateFailures({ evaluation: { evaluated_at: '', command: '', cohorts: r.cohorts } });
  console.log(
    `${label(r.model).padEnd(width)}  ${failures.length === 0 ? 'GATE CLEARED on every unseen cohort large enough to count' : `gate not cleared: ${failures.slice(0, 4).join('; ')}${failures.length > 4 ? `; and ${failures.length - 4} more` : ''}`}`,
  );
}
if (def) console.log(defaultReading(results.find((r) => r.model === def) ?? results[0]).why);

if (write) {
  for (const r of results) {
    const cardPath = join(r.model.dir, 'card.json');
    const card = JSON.parse(readFileSync(cardPath, 'utf8')) as ModelCard;
    await recordReplay(r.model, card);
    const failures = gateFailures({ evaluation: { evaluated_at: '', command: '', cohorts: r.cohorts } });
    card.evaluation = {
      evaluated_at: new Date().toISOString(),
      command: `npm run evaluate -- --write --per-cell ${perCell}${only ? ` --model ${only}` : ''}${onlyVersion ? ` --version ${onlyVersion}` : ''}`,
      cohorts: r.cohorts,
      vendor_sanity: r.vendorSanity,
      reading: {
        gate: failures.length === 0 ? 'cleared on every unseen cohort of at least 30 tests' : `not cleared: ${failures.join('; ')}`,
        real_tests: realSummary(r),
        default: defaultReading(r),
        does_not_establish: doesNotEstablish(r),
      },
    };
    card.status = statusOf.get(r.model) ?? 'research';
    writeFileSync(cardPath, `${JSON.stringify(card, null, 2)}\n`);
    console.log(`wrote ${cardPath} (status ${card.status})`);
  }
}
