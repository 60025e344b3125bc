/**
 * Per-second moderate / heavy / severe probabilities of a learned threshold model, for the web
 * application's internal route only (getWebDomains): the public API returns thresholds, never the
 * curves (spec 1).
 */
import { ServiceError } from '../../src/errors.js';
import type { Recording } from '../../src/recording/recording.js';
import { InferenceError } from './engines/onnx-session.js';
import { averagedRowsOf, breathDespikingOf } from './card.js';
import { checkInput } from './input-check.js';
import { placeAveragedRows } from './preprocess.js';
import type { AnalysisOutcome, KeyScope } from '../../src/analyses/analysis-plugin.js';
import { curvesOf, pipelineOf } from './pipeline.js';
import { chooseModel } from './plugin.js';
import { DEFAULT_MODELS_DIR, registryFor } from './registry.js';

/** Per-second curves, or why this recording cannot give them (as analyze refuses in its 200). */
export type DomainProbabilities =
  | {
      status: 'ok';
      /** Seconds from the start of the recording, one per second up to the VO2 peak (recovery excluded). */
      t_s: number[];
      moderate: number[];
      heavy: number[];
      severe: number[];
      model: { name: string; version: string };
    }
  | {
      status: 'not_analysable';
      error: 'MISSING_CHANNEL' | 'INSUFFICIENT_SIGNAL' | 'INFERENCE_FAILED';
      message: string;
      context: Record<string, unknown>;
      model: { name: string; version: string };
    };

/**
 * The curves the model computes for a recording. The model is chosen as `analyze` chooses it for
 * this key (on the web surface). A request that names no usable model is an error: MODEL_NOT_FOUND
 * (also for an engine without curves, such as the classic one), TIER_INSUFFICIENT, MODEL_NOT_ALLOWED.
 * A recording that cannot support the curves is not: it is answered as analyze answers it, with
 * status `not_analysable` and the vt refusal (MISSING_CHANNEL, INSUFFICIENT_SIGNAL, or INFERENCE_FAILED
 * when the model cannot run on it).
 */
export async function domainProbabilities(recorded: Recording, opts: { model?: string; model_version?: string; key: KeyScope; modelsDir?: string }): Promise<DomainProbabilities> {
  const choice = chooseModel(registryFor(opts.modelsDir ?? DEFAULT_MODELS_DIR), { model: opts.model, model_version: opts.model_version, key: opts.key, surface: 'web' });
  if (!choice.ok) {
    const refusal = choice.outcome as Extract<AnalysisOutcome, { status: 'not_analysable' }>;
    throw new ServiceError(refusal.error === 'TIER_INSUFFICIENT' ? 'TIER_INSUFFICIENT' : 'MODEL_NOT_FOUND', refusal.message, refusal.context);
  }
  const { model } = choice;
  const ref = { name: model.card.name, version: model.card.version };
  if (pipelineOf(model.card).engine.answers !== 'curves') {
    throw new ServiceError('MODEL_NOT_FOUND', `Model ${ref.name} ${ref.version} places thresholds without per-second domain curves.`, { model: ref.name, model_version: ref.version });
  }
  const rec = placeAveragedRows(recorded, averagedRowsOf(model.card));
  const checked = checkInput(rec, model.card.inputs, { despiking: breathDespikingOf(model.card) });
  if (!checked.ok) return { status: 'not_analysable', error: checked.error as 'MISSING_CHANNEL' | 'INSUFFICIENT_SIGNAL', message: checked.message, context: checked.context, model: ref };
  let curves;
  try {
    curves = await curvesOf({ model, rec, test: checked.test, exercise_start_index: checked.exercise_start_index });
  } catch (err) {
    if (!(err instanceof InferenceError)) throw err;
    return { status: 'not_analysable', error: 'INFERENCE_FAILED', message: err.message, context: { model: ref.name, model_version: ref.version }, model: ref };
  }
  if (!curves) throw new ServiceError('MODEL_NOT_FOUND', `Model ${ref.name} ${ref.version} places thresholds without per-second domain curves.`, { model: ref.name, model_version: ref.version });
  // An engine may leave the last seconds undescribed (its last window ends there): they are not sent.
  let defined = curves.moderate.length;
  while (defined > 0 && !Number.isFinite(curves.moderate[defined - 1])) defined--;
  const round = (a: Float64Array) => Array.from(a.subarray(0, defined), (v) => Math.round(v * 1e4) / 1e4);
  return {
    status: 'ok',
    t_s: Array.from({ length: defined }, (_, i) => checked.test.t0_s + i),
    moderate: round(curves.moderate),
    heavy: round(curves.heavy),
    severe: round(curves.severe),
    model: ref,
  };
}
