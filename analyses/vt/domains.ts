/**
 * Per-second moderate / heavy / severe probabilities of a learned threshold model, for the web
 * application's internal route only: the public API returns thresholds, never the curves (spec 1).
 * Refusals become ServiceErrors: MODEL_NOT_FOUND (unknown or classic model), INFERENCE_FAILED, and
 * VALIDATION_ERROR with `context.refusal` MISSING_CHANNEL or INSUFFICIENT_SIGNAL.
 */
import { ServiceError } from '../../src/errors.js';
import type { Recording } from '../../src/recording/recording.js';
import { domainCurves, InferenceError } from './gandalf.js';
import { checkInput } from './input-check.js';
import { DEFAULT_MODEL, DEFAULT_MODELS_DIR, registryFor } from './registry.js';

export interface DomainProbabilities {
  /** Seconds from the start of the recording, one per second up to the VO2 peak (recovery excluded). */
  t_s: number[];
  moderate: number[];
  heavy: number[];
  severe: number[];
  model: { name: string; version: string };
}

/** The curves the model computes for a recording (no tier check: the route is internal). */
export async function domainProbabilities(
  rec: Recording,
  opts: { model?: string; model_version?: string; modelsDir?: string } = {},
): Promise<DomainProbabilities> {
  const name = opts.model ?? DEFAULT_MODEL;
  const version = opts.model_version ?? 'latest';
  const model = registryFor(opts.modelsDir ?? DEFAULT_MODELS_DIR).find(name, version);
  if (!model) throw new ServiceError('MODEL_NOT_FOUND', `No threshold model ${name} ${version} is installed.`, { model: name, model_version: version });
  if (model.card.engine !== 'learned') {
    throw new ServiceError('MODEL_NOT_FOUND', `Model ${name} is a classic engine and computes no domain probabilities.`, { model: name, model_version: model.card.version });
  }
  const checked = checkInput(rec, model.card.inputs);
  if (!checked.ok) throw new ServiceError('VALIDATION_ERROR', checked.message, { refusal: checked.error, ...checked.context });
  try {
    const curves = await domainCurves(model, checked.test);
    const round = (a: Float64Array) => Array.from(a, (v) => Math.round(v * 1e4) / 1e4);
    return {
      t_s: Array.from(curves.moderate, (_, i) => checked.test.t0_s + i),
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
