/**
 * `npm run train [-- --version vX.Y.Z] [--out models-dir]`: trains the gandalf domain classifier on the synthetic
 * training cohort and writes models/gandalf/<version>/model.onnx and card.json. Everything is
 * seeded (cohort settings, generator, weight initialisation, shuffling), so the same command gives
 * the same weights bit for bit. The card is written with status `research`; only
 * `npm run evaluate -- --write` may promote it, after the held-out evaluation clears the gate.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTEXT_FRACTIONS, FEATURE_CHANNELS, featureCount, WINDOW_OFFSETS_S, type FeatureSet } from '../../analyses/vt/engines/gandalf-mlp/features.js';
import { VT_CHANNELS } from '../../analyses/vt/preprocess.js';
import { TRAIN_SEED_BASE, TRAIN_SETTINGS_SEED, trainingCohort, type TrainingVariant } from './cohorts.js';
import { buildDataset } from './dataset.js';
import { Mlp, seededRandom, type TrainOptions } from './mlp.js';
import { mlpToOnnx } from '../onnx/writer.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Recipe {
  feature_set: FeatureSet;
  cohort: TrainingVariant;
  tests: number;
  validation_tests: number;
  stride_s: number;
  hidden: number[];
  epochs: number;
  batch: number;
  learningRate: number;
  weightDecay: number;
  seed: number;
  /** Share of training tests overlaid with measurement artefacts (scripts/train/artifacts.ts). */
  artifacts?: number;
}

/** One recipe per published version, recorded verbatim in its card, so every version can be rebuilt. */
const RECIPES: Record<string, Recipe> = {
  'v0.1.0': { feature_set: 'v1', cohort: 'v1', tests: 720, validation_tests: 60, stride_s: 3, hidden: [48, 32], epochs: 14, batch: 128, learningRate: 2e-3, weightDecay: 1e-5, seed: 4242 },
  'v0.2.0': { feature_set: 'v2', cohort: 'v2', tests: 840, validation_tests: 60, stride_s: 3, hidden: [48, 32], epochs: 14, batch: 128, learningRate: 2e-3, weightDecay: 1e-5, seed: 4243 },
  'v0.3.0': {
    feature_set: 'v2',
    cohort: 'v2',
    tests: 840,
    validation_tests: 60,
    stride_s: 3,
    hidden: [48, 32],
    epochs: 14,
    batch: 128,
    learningRate: 2e-3,
    weightDecay: 1e-5,
    seed: 4244,
    artifacts: 0.6,
  },
};
const LATEST_RECIPE = 'v0.3.0';

function argValue(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const version = argValue('--version', LATEST_RECIPE);
const RECIPE = RECIPES[version];
if (!RECIPE) throw new Error(`no recipe for ${version}; known: ${Object.keys(RECIPES).join(', ')}`);
const FEATURE_COUNT = featureCount(RECIPE.feature_set);
const started = Date.now();
const cohort = trainingCohort(RECIPE.tests + RECIPE.validation_tests, RECIPE.cohort);
const train = buildDataset(cohort.slice(0, RECIPE.tests), RECIPE.stride_s, RECIPE.feature_set, RECIPE.artifacts ?? 0);
const validation = buildDataset(cohort.slice(RECIPE.tests), RECIPE.stride_s, RECIPE.feature_set, RECIPE.artifacts ?? 0);
console.log(`training rows ${train.y.length} from ${train.tests} tests; validation rows ${validation.y.length}`);

const random = seededRandom(RECIPE.seed);
const model = new Mlp([FEATURE_COUNT, ...RECIPE.hidden, 3], random);
const options: TrainOptions = {
  hidden: RECIPE.hidden,
  epochs: RECIPE.epochs,
  batch: RECIPE.batch,
  learningRate: RECIPE.learningRate,
  weightDecay: RECIPE.weightDecay,
  seed: RECIPE.seed,
  onEpoch: (epoch, loss) => console.log(`epoch ${epoch + 1}/${RECIPE.epochs} loss ${loss.toFixed(4)} (${((Date.now() - started) / 1000).toFixed(0)} s)`),
};
model.fit(train.x, train.y, options, random);

let correct = 0;
for (let r = 0; r < validation.y.length; r++) {
  const p = model.predict(validation.x.subarray(r * FEATURE_COUNT, (r + 1) * FEATURE_COUNT));
  const label = p[0] >= p[1] && p[0] >= p[2] ? 0 : p[1] >= p[2] ? 1 : 2;
  if (label === validation.y[r]) correct++;
}
const validationAccuracy = correct / validation.y.length;
console.log(`validation accuracy (per second, in-distribution) ${validationAccuracy.toFixed(4)}`);

const onnx = mlpToOnnx(model.toDense(), {
  producer: 'cpet-analysis-service scripts/train',
  doc: `gandalf ${version}: per-second moderate/heavy/severe probabilities`,
});
// --out writes elsewhere (e.g. to check that a rebuild matches the committed weights bit for bit).
const dir = join(argValue('--out', join(ROOT, 'models')), 'gandalf', version);
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'model.onnx'), onnx);
const card = {
  name: 'gandalf',
  version,
  tier: 'free',
  status: 'research',
  engine: 'learned',
  description:
    'Per-second probabilities of the moderate, heavy and severe domains from a small multilayer perceptron over a window of the scaled gas signals and a coarse picture of the whole test (the Oxynet idea, Zignoli et al. 2019, 2022). VT1 is where the moderate domain is left, VT2 where severe overtakes heavy, each placed by a one-step fit on the smoothed curves; VO2 at a threshold is the smoothed VO2 there. No fusion with the classic breakpoints.',
  inputs: [...VT_CHANNELS],
  pipeline: { engine: 'gandalf-mlp', decision: 'step-fit' },
  preprocessing: {
    grid: '1 Hz linear interpolation (src/signal/resample.ts), gaps filled linearly',
    cleaning: '15-s running median (cough and swallow breaths), then 21-s centred mean',
    span: 'from the first second to the 30-s VO2 peak; recovery is never input',
    feature_set: RECIPE.feature_set,
    scaling:
      RECIPE.feature_set === 'v1'
        ? 'min-max per test over the span, per channel; RER kept absolute; plus two position features'
        : 'min-max per test over the span, every channel including RER; no position features',
    feature_channels: [...FEATURE_CHANNELS],
    window_offsets_s: [...WINDOW_OFFSETS_S],
    context_fractions: [...CONTEXT_FRACTIONS],
    feature_count: FEATURE_COUNT,
    crossing: 'probability curves smoothed with a 21-s centred mean; a domain must hold the majority for 20 s to count',
  },
  architecture: { kind: 'mlp', layers: [FEATURE_COUNT, ...RECIPE.hidden, 3], activations: 'relu, relu, softmax', onnx: 'Gemm/Relu/Softmax, opset 17' },
  training: {
    data: `synthetic tests from src/synthetic/generate.ts (scripts/train/cohorts.ts trainingCohort, variant ${RECIPE.cohort})${RECIPE.artifacts ? `; ${RECIPE.artifacts * 100} % of them overlaid with measurement artefacts (scripts/train/artifacts.ts)` : ''}`,
    settings_seed: TRAIN_SETTINGS_SEED,
    test_seeds: `${TRAIN_SEED_BASE}..${TRAIN_SEED_BASE + RECIPE.tests + RECIPE.validation_tests - 1}`,
    recipe: RECIPE,
    rows: train.y.length,
    validation_accuracy: Math.round(validationAccuracy * 10000) / 10000,
    command: `npm run train -- --version ${version}`,
  },
  weights: { file: 'model.onnx', sha256: createHash('sha256').update(onnx).digest('hex') },
  evaluation: null,
};
writeFileSync(join(dir, 'card.json'), `${JSON.stringify(card, null, 2)}\n`);
console.log(`wrote ${dir} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
