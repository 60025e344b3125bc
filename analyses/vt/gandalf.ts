/**
 * The learned engine: runs a model's ONNX graph with onnxruntime-node over the per-second feature
 * rows and returns the domain probability curves. One session per weights file per thread, created
 * on first use; single-threaded so the same input gives the same bits on every run.
 */
import * as ort from 'onnxruntime-node';
import { buildFeatures, featureCount, type FeatureSet } from './features.js';
import type { DomainCurves } from './domain-crossings.js';
import type { PreparedTest } from './preprocess.js';
import type { RegisteredModel } from './registry.js';

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/** An engine failure the plugin reports as INFERENCE_FAILED. */
export class InferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InferenceError';
  }
}

/** The cached session of a model's weights (created on first call). */
export function sessionFor(model: RegisteredModel): Promise<ort.InferenceSession> {
  if (model.problem || !model.weights_path) return Promise.reject(new InferenceError(model.problem ?? 'the model has no weights'));
  const key = `${model.weights_path}#${model.card.weights?.sha256}`;
  let session = sessions.get(key);
  if (!session) {
    session = ort.InferenceSession.create(model.weights_path, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    // A file that fails to load is not cached, so a repaired file is picked up on the next request.
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

/** The feature set a card names (`preprocessing.feature_set`); v1 when the card names none. */
export function featureSetOf(model: RegisteredModel): FeatureSet {
  const named = (model.card.preprocessing as { feature_set?: string } | undefined)?.feature_set;
  if (named === undefined || named === 'v1') return 'v1';
  if (named === 'v2') return 'v2';
  throw new InferenceError(`model ${model.card.name} ${model.card.version} names an unknown feature set ${named}`);
}

/** Per-second domain probabilities over the analysed span (grid indices 0..end_index). */
export async function domainCurves(model: RegisteredModel, test: PreparedTest): Promise<DomainCurves> {
  let session: ort.InferenceSession;
  try {
    session = await sessionFor(model);
  } catch (err) {
    throw new InferenceError(`model ${model.card.name} ${model.card.version} could not be loaded: ${(err as Error).message}`);
  }
  const n = test.end_index + 1;
  const rows = Array.from({ length: n }, (_, i) => i);
  const set = featureSetOf(model);
  const input = new ort.Tensor('float32', buildFeatures(test, rows, set), [n, featureCount(set)]);
  let probs: Float32Array;
  try {
    const out = await session.run({ [session.inputNames[0]]: input });
    const tensor = out[session.outputNames[0]];
    if (!tensor || tensor.dims.length !== 2 || tensor.dims[0] !== n || tensor.dims[1] !== 3) {
      throw new Error(`output shape ${tensor ? JSON.stringify(tensor.dims) : 'missing'}, expected [${n}, 3]`);
    }
    probs = tensor.data as Float32Array;
  } catch (err) {
    throw new InferenceError(`model ${model.card.name} ${model.card.version} failed to run: ${(err as Error).message}`);
  }
  const curves: DomainCurves = { moderate: new Float64Array(n), heavy: new Float64Array(n), severe: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    curves.moderate[i] = probs[3 * i];
    curves.heavy[i] = probs[3 * i + 1];
    curves.severe[i] = probs[3 * i + 2];
  }
  return curves;
}
