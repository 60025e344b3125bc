/**
 * The gandalf MLP engine (v0.x): runs the model's ONNX graph over per-second feature rows and
 * returns the moderate / heavy / severe probability curves on the prepared 1-Hz grid.
 */
import * as ort from 'onnxruntime-node';
import type { DomainCurves } from '../../decision/curves.js';
import type { PreparedTest } from '../../preprocess.js';
import type { RegisteredModel } from '../../registry.js';
import { InferenceError, loadedSession, runMatrix } from '../onnx-session.js';
import { buildFeatures, featureCount, type FeatureSet } from './features.js';

/** The feature set a card names (`preprocessing.feature_set`); v1 when the card names none. */
export function featureSetOf(model: RegisteredModel): FeatureSet {
  const named = (model.card.preprocessing as { feature_set?: string } | undefined)?.feature_set;
  if (named === undefined || named === 'v1') return 'v1';
  if (named === 'v2') return 'v2';
  throw new InferenceError(`model ${model.card.name} ${model.card.version} names an unknown feature set ${named}`);
}

/** Per-second domain probabilities over the analysed span (grid indices 0..end_index). */
export async function gandalfCurves(model: RegisteredModel, test: PreparedTest): Promise<DomainCurves> {
  const session = await loadedSession(model);
  const n = test.end_index + 1;
  const rows = Array.from({ length: n }, (_, i) => i);
  const set = featureSetOf(model);
  const input = new ort.Tensor('float32', buildFeatures(test, rows, set), [n, featureCount(set)]);
  const probs = await runMatrix(model, session, input, n, 3);
  const curves: DomainCurves = { moderate: new Float64Array(n), heavy: new Float64Array(n), severe: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    curves.moderate[i] = probs[3 * i];
    curves.heavy[i] = probs[3 * i + 1];
    curves.severe[i] = probs[3 * i + 2];
  }
  return curves;
}
