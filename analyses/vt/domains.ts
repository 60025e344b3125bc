/**
 * Per-second moderate / heavy / severe probabilities of a learned threshold model, for the web
 * application's internal route only: the public API returns thresholds, never the curves (spec 1).
 * Refusals become ServiceErrors with the codes openapi/cpet-api.yaml documents for getDomains.
 */
import { ServiceError } from '../../src/errors.js';
import type { Recording } from '../../src/recording/recording.js';
import { InferenceError } from './engines/onnx-session.js';
import { checkInput } from './input-check.js';
import type { AnalysisOutcome, KeyScope } from '../../src/analyses/analysis-plugin.js';
import { curvesOf } from './pipeline.js';
import { chooseModel } from './plugin.js';
import { DEFAULT_MODELS_DIR, registryFor } from './registry.js';

export interface DomainProbabilities {
  /** Seconds from the start of the recording, one per second up to the VO2 peak (recovery excluded). */
  t_s: number[];
  moderate: number[];
  heavy: number[];
  severe: number[];
  model: { name: string; version: string };
}

/**
 * The curves the model computes for a recording. The model is chosen as `analyze` chooses it for
 * this key; what refuses in-200 there is an error here (the route answers curves or nothing):
 * MODEL_NOT_FOUND (also for a classic engine, which has no curves), TIER_INSUFFICIENT,
 * MODEL_NOT_ALLOWED, and INFERENCE_FAILED when the model cannot run on this recording.
 */
export async function domainProbabilities(
  rec: Recording,
  opts: { model?: string; model_version?: string; key: KeyScope; modelsDir?: string },
): Promise<DomainProbabilities> {
  const choice = chooseModel(registryFor(opts.modelsDir ?? DEFAULT_MODELS_DIR), { model: opts.model, model_version: opts.model_version, key: opts.key, surface: 'web' });
  if (!choice.ok) {
    const refusal = choice.outcome as Extract<AnalysisOutcome, { status: 'not_analysable' }>;
    throw new ServiceError(refusal.error === 'TIER_INSUFFICIENT' ? 'TIER_INSUFFICIENT' : 'MODEL_NOT_FOUND', refusal.message, refusal.context);
  }
  const { model } = choice;
  const name = model.card.name;
  const checked = checkInput(rec, model.card.inputs);
  if (!checked.ok) throw new ServiceError('INFERENCE_FAILED', checked.message, { refusal: checked.error, model: name, model_version: model.card.version, ...checked.context });
  try {
    const curves = await curvesOf({ model, rec, test: checked.test, exercise_start_index: checked.exercise_start_index });
    if (!curves) {
      throw new ServiceError('MODEL_NOT_FOUND', `Model ${name} ${model.card.version} places thresholds without per-second domain curves.`, { model: name, model_version: model.card.version });
    }
    // An engine may leave the last seconds undescribed (its last window ends there): they are not sent.
    let defined = curves.moderate.length;
    while (defined > 0 && !Number.isFinite(curves.moderate[defined - 1])) defined--;
    const round = (a: Float64Array) => Array.from(a.subarray(0, defined), (v) => Math.round(v * 1e4) / 1e4);
    return {
      t_s: Array.from({ length: defined }, (_, i) => checked.test.t0_s + i),
      moderate: round(curves.moderate),
      heavy: round(curves.heavy),
      severe: round(curves.severe),
      model: { name: model.card.name, version: model.card.version },
    };
  } catch (err) {
    if (err instanceof InferenceError) throw new ServiceError('INFERENCE_FAILED', err.message, { model: name, model_version: model.card.version });
    throw err;
  }
}
