/**
 * `npx tsx scripts/train/short-tail-twins.ts [perCell] [name@version] [--seed-base=<seed>]`: why VT1 reads early on
 * tests stopped soon after VT2 (analyses/vt/README.md, "VT1 on tests stopped soon after VT2"). Each test of the
 * short-tail cohort (scripts/train/evaluation-cohorts.ts, the tests `npm run evaluate --per-cell N` reads; with
 * `--seed-base` the same settings on seeds base + i, e.g. 9_920_000 for exploration) is paired with its twin: the same
 * seed and settings run on to the generator's default end, so the subject and its thresholds are the same and only
 * where the test stops differs. Per group (all; the scaling range anchored at the compensation the gases show; the
 * measured range, where they show none): VT1 time bias / MAE s and VO2 bias mL/min of the short test and of its twin,
 * the curves' crossing (evidence.vt1.model_crossing_s) and each accepted classic landmark's reading (read_at_s), as
 * mean signed error against the truth. The gap between the two columns is what stopping early costs.
 */
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR } from '../../analyses/vt/registry.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions, ThresholdTruth } from '../../src/synthetic/types.js';
import { agreement } from './agreement.js';
import { heldOutShortTailCohort } from './evaluation-cohorts.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const seedBase = process.argv.find((a) => a.startsWith('--seed-base='))?.split('=')[1];
const perCell = Number(args[0] ?? 30);
const [model, version] = (args[1] ?? 'gandalf@v1.6.0').split('@');
const plugin = createVtPlugin({ modelsDir: DEFAULT_MODELS_DIR });
const key = { tier: 'research' as const, allowed_models: null };

interface Vt1Reading {
  time_s: number | null;
  vo2_ml_min: number | null;
  crossing_s: number | null;
  /** Accepted landmarks' reading times by criterion (null: not accepted or not fitted). */
  landmarks: Map<string, number | null>;
  anchored: boolean;
}

async function vt1Of(options: GeneratorOptions): Promise<{ truth: ThresholdTruth | null; reading: Vt1Reading | null }> {
  const g = generateTest(options);
  const out = await plugin.run(g.recording, { model, model_version: version, key, surface: 'web' });
  if (out.status !== 'ok') return { truth: g.truth.vt1, reading: null };
  const f = out.findings as { vt1_time_s: number | null; vt1_vo2_ml_min: number | null; evidence?: Record<string, unknown> };
  const vt1 = (f.evidence?.vt1 ?? {}) as { model_crossing_s?: number | null; landmarks?: { criterion: string; read_at_s: number | null; accepted: boolean }[] };
  const scaling = f.evidence?.scaling as { compensation_s: number | null } | undefined;
  return {
    truth: g.truth.vt1,
    reading: {
      time_s: f.vt1_time_s,
      vo2_ml_min: f.vt1_vo2_ml_min,
      crossing_s: vt1.model_crossing_s ?? null,
      landmarks: new Map((vt1.landmarks ?? []).map((l) => [l.criterion, l.accepted ? l.read_at_s : null])),
      anchored: scaling?.compensation_s !== null && scaling?.compensation_s !== undefined,
    },
  };
}

interface Pair {
  truth: ThresholdTruth;
  short: Vt1Reading;
  twin: Vt1Reading;
}

const pairs: Pair[] = [];
for (const [i, o] of heldOutShortTailCohort(perCell).entries()) {
  const options = seedBase === undefined ? o : { ...o, seed: Number(seedBase) + i };
  const short = await vt1Of(options);
  const twin = await vt1Of({ ...options, realism: { ...options.realism, end_after_vt2_s: undefined } });
  if (short.truth === null || short.reading === null || twin.reading === null) continue;
  pairs.push({ truth: short.truth, short: short.reading, twin: twin.reading });
}

const meanError = (values: (number | null)[], truth: number[]): string => {
  const e = values.flatMap((v, i) => (v === null ? [] : [v - truth[i]]));
  return e.length ? (e.reduce((a, b) => a + b, 0) / e.length).toFixed(1).padStart(6) : '     -';
};

function summary(label: string, group: Pair[]): void {
  const side = (of: (p: Pair) => Vt1Reading) => agreement(group.map((p) => ({ est: of(p).time_s === null ? null : { time_s: of(p).time_s as number, vo2_ml_min: of(p).vo2_ml_min }, truth: p.truth })));
  const [s, t] = [side((p) => p.short), side((p) => p.twin)];
  const truth = group.map((p) => p.truth.time_s);
  console.log(
    `${label} (${group.length}): VT1 short / twin: time bias ${s.time_bias_s} / ${t.time_bias_s} s, MAE ${s.time_mae_s} / ${t.time_mae_s} s, VO2 bias ${s.vo2_bias_ml_min} / ${t.vo2_bias_ml_min} mL/min`,
  );
  console.log(
    `  crossing ${meanError(
      group.map((p) => p.short.crossing_s),
      truth,
    )} / ${meanError(
      group.map((p) => p.twin.crossing_s),
      truth,
    )} s`,
  );
  for (const criterion of group[0]?.short.landmarks.keys() ?? []) {
    console.log(
      `  ${criterion.padEnd(28)} ${meanError(
        group.map((p) => p.short.landmarks.get(criterion) ?? null),
        truth,
      )} / ${meanError(
        group.map((p) => p.twin.landmarks.get(criterion) ?? null),
        truth,
      )} s`,
    );
  }
}

console.log(`${model} ${version}, short-tail cohort (perCell ${perCell}${seedBase === undefined ? '' : `, seeds ${seedBase} + i`}): each test against its twin run to the generator's default end`);
summary('all', pairs);
summary(
  'range anchored at the compensation',
  pairs.filter((p) => p.short.anchored),
);
summary(
  'measured range (the gases show no compensation)',
  pairs.filter((p) => !p.short.anchored),
);
