/**
 * `npx tsx scripts/train/vt1-errors.ts <realistic|short-tail|artefacts> [perCell] [name@version] [--seed-base=<seed>] [--without=<kind,...>]`: where a
 * model's VT1 error comes from on one evaluation cohort (the tests `npm run evaluate --per-cell N` reads,
 * scripts/train/evaluation-cohorts.ts), which the gate table cannot say (analyses/vt/README.md, "Where
 * VT1 goes wrong"). Per group of tests: n, VT1 time bias / MAE s, VO2 bias mL/min (estimate minus truth,
 * agreement.ts). The groups are what the cohort varies: a recorded rest before exercise, how long the test
 * runs past VT2, whether the end-of-test gases anchored the scaling range, which evidence placed VT1. The
 * artefact cohort also lists its gross errors (|time error| over GROSS_S) and the time r without them.
 * `--seed-base` draws the artefact or short-tail tests from other seeds (exploration: 9_730_000, 9_920_000), so a
 * constant can be chosen on tests no evaluation reads; `--without` leaves artefact kinds out of each draw
 * (artifacts.ts ARTIFACT_KINDS; the rest of the draw unchanged), to see which kind makes the errors.
 */
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR } from '../../analyses/vt/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions, GroundTruth } from '../../src/synthetic/types.js';
import { agreement } from './agreement.js';
import { ARTIFACT_KINDS, type ArtifactKind, withArtifacts } from './artifacts.js';
import { heldOutArtifactCohort, heldOutRealisticCohort, readingDelayS } from './cohorts.js';
import { heldOutShortTailCohort } from './evaluation-cohorts.js';

/** A VT1 time error beyond this is listed on its own: a handful of them is what holds the artefact cohort's time r down. */
const GROSS_S = 150;

const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const [cohort, perCellArg, modelArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const perCell = Number(perCellArg ?? 30);
const [model, version] = (modelArg ?? 'gandalf@v1.4.0').split('@');
const flag = (name: string) => flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1];
const seedBase = flag('seed-base') === undefined ? null : Number(flag('seed-base'));
const without = new Set((flag('without') ?? '').split(',').filter((k) => k !== '') as ArtifactKind[]);
for (const k of without) if (!(ARTIFACT_KINDS as readonly string[]).includes(k)) throw new Error(`--without ${k} is not one of ${ARTIFACT_KINDS.join(', ')}`);
if (seedBase !== null && cohort === 'realistic') throw new Error('--seed-base draws artefact or short-tail tests; the realistic cohort follows the Oxynet rows');
const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
const key = { tier: 'research' as const, allowed_models: null };

interface Landmark {
  criterion: string;
  read_at_s: number | null;
  accepted: boolean;
  in_zone: boolean;
}
interface Row {
  options: GeneratorOptions;
  truth: GroundTruth;
  time_s: number | null;
  vo2_ml_min: number | null;
  placed_by: string;
  crossing_s: number | null;
  zone_s: [number, number] | null;
  compensation_s: number | null;
  landmarks: Landmark[];
}

function tests(): { options: GeneratorOptions; recording: Recording; truth: GroundTruth }[] {
  const twoThirds = Math.ceil((perCell * 2) / 3);
  if (cohort === 'realistic') return heldOutRealisticCohort().map((options) => ({ ...generateTest(options), options }));
  if (cohort === 'short-tail')
    return heldOutShortTailCohort(perCell)
      .map((o, i) => (seedBase === null ? o : { ...o, seed: seedBase + i }))
      .map((options) => ({ ...generateTest(options), options }));
  if (cohort === 'artefacts')
    return heldOutArtifactCohort(twoThirds)
      .map((o, i) => (seedBase === null ? o : { ...o, seed: seedBase + i, realism: { reading_delay_s: { vt1: readingDelayS(seedBase + i), vt2: 0 } } }))
      .map((options) => {
        const g = generateTest(options);
        return { options, truth: g.truth, recording: withArtifacts(g.recording, options.seed, 1, without) };
      });
  throw new Error(`cohort ${cohort} is not one of realistic, short-tail, artefacts`);
}

const rows: Row[] = [];
for (const t of tests()) {
  if (t.truth.vt1 === null) continue;
  const out = await plugin.run(t.recording, { model, model_version: version, key, surface: 'web' });
  if (out.status !== 'ok') continue;
  const f = out.findings as { vt1_time_s: number | null; vt1_vo2_ml_min: number | null; evidence?: Record<string, unknown> };
  const vt1 = (f.evidence?.vt1 ?? {}) as { placed_by?: string; model_crossing_s?: number | null; zone_s?: [number, number] | null; landmarks?: Landmark[] };
  const scaling = f.evidence?.scaling as { compensation_s: number | null } | undefined;
  rows.push({
    options: t.options,
    truth: t.truth,
    time_s: f.vt1_time_s,
    vo2_ml_min: f.vt1_vo2_ml_min,
    placed_by: vt1.placed_by ?? 'n/a',
    crossing_s: vt1.model_crossing_s ?? null,
    zone_s: vt1.zone_s ?? null,
    compensation_s: scaling?.compensation_s ?? null,
    landmarks: vt1.landmarks ?? [],
  });
}

const found = (r: Row) => r.time_s !== null;
const timeError = (r: Row) => (r.time_s as number) - (r.truth.vt1 as { time_s: number }).time_s;

function summary(label: string, group: Row[]): void {
  const a = agreement(group.map((r) => ({ est: r.time_s === null ? null : { time_s: r.time_s, vo2_ml_min: r.vo2_ml_min }, truth: r.truth.vt1 })));
  console.log(
    `${label.padEnd(40)} n ${String(a.n).padStart(3)}  time bias ${String(a.time_bias_s).padStart(6)} MAE ${String(a.time_mae_s).padStart(6)} r ${String(a.time_r).padStart(6)}  VO2 bias ${String(a.vo2_bias_ml_min).padStart(7)}`,
  );
}

function groups(name: string, of: (r: Row) => string): void {
  console.log(`-- by ${name}`);
  const byKey = new Map<string, Row[]>();
  for (const r of rows) byKey.set(of(r), [...(byKey.get(of(r)) ?? []), r]);
  for (const [k, group] of [...byKey].sort(([a], [b]) => a.localeCompare(b))) summary(k, group);
}

/** Seconds the test runs past VT2 (the generator's end_after_vt2_s where the cohort sets it). */
function tail(r: Row): string {
  const s = r.options.realism?.end_after_vt2_s;
  if (s === undefined || s === null) return 'not set';
  return s <= 60 ? '10-60 s past VT2' : s <= 115 ? '61-115 s past VT2' : 'over 115 s past VT2';
}

console.log(
  `${model} ${version}, ${cohort} cohort (perCell ${perCell}${seedBase === null ? '' : `, seeds ${seedBase} + i`}${without.size ? `, without ${[...without].join(', ')}` : ''}): VT1 of ${rows.length} tests with a true VT1 the model answered`,
);
summary('all', rows);
groups('placement', (r) => r.placed_by);
groups('scaling range', (r) => (r.compensation_s === null ? 'measured (no compensation found)' : 'anchored at the compensation'));
if (cohort === 'realistic') {
  groups('start', (r) => ((r.options.rest_s ?? 0) > 0 ? 'recorded rest' : 'no rest (starts at exercise)'));
  groups('tail', tail);
  groups('sampling', (r) => r.options.sampling?.kind ?? 'breath');
}
if (cohort === 'short-tail') groups('tail', (r) => ((r.options.realism?.end_after_vt2_s ?? 0) <= 25 ? '10-25 s past VT2' : '26-60 s past VT2'));
if (cohort === 'artefacts') {
  const gross = rows.filter((r) => found(r) && Math.abs(timeError(r)) > GROSS_S);
  console.log(`-- |time error| over ${GROSS_S} s: ${gross.length} tests`);
  for (const r of gross) {
    const lm = r.landmarks.map((l) => `${l.criterion.split(' ')[0]} ${l.read_at_s ?? '-'}${l.accepted ? '' : ' (not accepted)'}${l.in_zone ? ' (joined)' : ''}`).join(', ');
    console.log(
      `seed ${r.options.seed}: truth ${r.truth.vt1?.time_s} s (VT2 ${r.truth.vt2?.time_s ?? 'none'}), placed ${r.time_s} s by ${r.placed_by}, crossing ${r.crossing_s}, zone ${JSON.stringify(r.zone_s)}; landmarks read at: ${lm}`,
    );
  }
  summary(
    `without the ${gross.length} gross errors`,
    rows.filter((r) => !gross.includes(r)),
  );
}
