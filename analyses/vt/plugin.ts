/**
 * The vt analysis: resolves the requested model against the key and the registry, checks the
 * recording, runs the model's engine and reports VT1 and VT2 as time and VO2. Request-level versus
 * in-200 (README.md): a model the key is restricted from throws MODEL_NOT_ALLOWED (403, the whole
 * request); an unknown model or version, a model above the key's tier, a missing channel, too little
 * signal and a model that cannot run are in-200 refusals, so they never stop the other analyses.
 */
import type { AnalysisOutcome, AnalysisPlugin, AnalysisRequest, ModelRef } from '../../src/analyses/analysis-plugin.js';
import { ServiceError } from '../../src/errors.js';
import { vo2Peak } from '../../src/metrics/vo2peak.js';
import type { Recording } from '../../src/recording/recording.js';
import type { PlacedThreshold } from './engines/engine.js';
import { ENGINES } from './engines/index.js';
import { InferenceError, releaseSessions, sessionFor } from './engines/onnx-session.js';
import { averagedRowsOf, breathDespikingOf, gateFailures } from './card.js';
import { protocolFor } from '../../src/signal/phases.js';
import { checkInput, type AlternativeModel } from './input-check.js';
import { pipelineOf, runPipeline } from './pipeline.js';
import { plausibilityNotes } from './plausibility.js';
import { implausibilities } from './implausible.js';
import { oscillationNote } from './oscillation-note.js';
import { exerciseEndIndex } from './exercise-end.js';
import { missingThresholdNotes, type MissingEvidence } from './reading-notes.js';
import { placeAveragedRows, type PreparedTest } from './preprocess.js';
import { DEFAULT_MODEL, DEFAULT_MODELS_DIR, registryFor, servedOn, tierReaches, type ModelRegistry, type RegisteredModel } from './registry.js';

export interface VtPluginOptions {
  /** Folder of model cards (default: the project's models/). */
  modelsDir?: string;
}

/** The model a request selects, or the refusal it earns. */
export type ModelChoice = { ok: true; model: RegisteredModel; notes: string[] } | { ok: false; outcome: AnalysisOutcome };

/**
 * Resolves `model` / `model_version` for a key. Throws MODEL_NOT_ALLOWED (request-level) when the
 * key is restricted from the model; returns MODEL_NOT_FOUND or TIER_INSUFFICIENT as in-200 refusals.
 * An omitted model on a key restricted to other models selects the first of its models the registry has.
 */
export function chooseModel(registry: ModelRegistry, request: AnalysisRequest): ModelChoice {
  const allowed = request.key.allowed_models;
  const version = request.model_version ?? 'latest';
  const surface = request.surface ?? 'api';
  let name = request.model ?? DEFAULT_MODEL;
  if (!request.model && allowed && !allowed.includes(name)) {
    name = allowed.find((m) => registry.versions(m).some((v) => servedOn(v, surface))) ?? allowed.find((m) => registry.versions(m).length > 0) ?? name;
  }
  if (allowed && !allowed.includes(name)) {
    throw new ServiceError('MODEL_NOT_ALLOWED', `This key is restricted to the models ${allowed.join(', ')}; ${name} is not one of them.`, {
      model: name,
      allowed_models: allowed,
    });
  }
  const model = registry.find(name, version);
  if (!model || !servedOn(model, surface)) {
    const served = registry.models.filter((m) => servedOn(m, surface));
    const available = [...new Set(served.map((m) => m.card.name))].map((n) => ({ name: n, versions: served.filter((m) => m.card.name === n).map((m) => m.card.version) }));
    const ref: ModelRef = version === 'latest' ? { name } : { name, version };
    const message = model
      ? `Threshold model ${name} is served by the web application only (the alternative threshold engine is not reachable through the API); omit model for the default.`
      : version === 'latest'
        ? `No threshold model named ${name} is installed.`
        : `Threshold model ${name} has no version ${version}.`;
    return { ok: false, outcome: refusal('MODEL_NOT_FOUND', message, { model: name, model_version: version, available }, ref) };
  }
  const ref = modelRef(model);
  if (!tierReaches(request.key.tier, model.card.tier)) {
    return {
      ok: false,
      outcome: refusal(
        'TIER_INSUFFICIENT',
        `Model ${name} ${model.card.version} needs a ${model.card.tier} key; this key is ${request.key.tier}.`,
        { model: name, model_version: model.card.version, model_tier: model.card.tier, key_tier: request.key.tier },
        ref,
      ),
    };
  }
  const notes: string[] = [];
  if (model.card.status === 'research') {
    const why = gateFailures(model.card).length === 0 ? 'it clears the promotion gate but has not been promoted' : 'its evaluation has not cleared the promotion gate';
    notes.push(`Model ${name} ${model.card.version} is a research model: ${why} (see its model card).`);
  }
  return { ok: true, model, notes };
}

function modelRef(model: RegisteredModel): ModelRef {
  return { name: model.card.name, version: model.card.version, tier: model.card.tier };
}

function refusal(error: Extract<AnalysisOutcome, { status: 'not_analysable' }>['error'], message: string, context: Record<string, unknown>, model: ModelRef, notes: string[] = []): AnalysisOutcome {
  return { status: 'not_analysable', error, message, context, notes, model };
}

/** The newest version of every model the web application serves, but the chosen one: what a MISSING_CHANNEL refusal may point to. */
function webAlternatives(registry: ModelRegistry, chosen: RegisteredModel): AlternativeModel[] {
  const names = [...new Set(registry.models.filter((m) => servedOn(m, 'web')).map((m) => m.card.name))];
  return names.flatMap((n) => {
    const m = registry
      .versions(n)
      .filter((v) => servedOn(v, 'web'))
      .at(-1);
    return m && m !== chosen ? [{ name: m.card.name, version: m.card.version, inputs: m.card.inputs }] : [];
  });
}

/** A placed threshold to the reported numbers: time from the start of the recording, VO2 (the engine's own, else the smoothed VO2 there). */
function thresholdAt(test: PreparedTest, placed: PlacedThreshold | null, vo2peak: number | null) {
  if (placed === null) return { time_s: null, vo2_ml_min: null, pct_vo2peak: null };
  const vo2 = placed.vo2_ml_min ?? test.vo2[placed.index];
  return { time_s: test.t0_s + placed.index, vo2_ml_min: Math.round(vo2), pct_vo2peak: vo2peak ? Math.round((1000 * vo2) / vo2peak) / 10 : null };
}

/** Builds the vt plugin over a models folder (the default export uses the project's models/). */
export function createVtPlugin(options: VtPluginOptions = {}): AnalysisPlugin {
  const modelsDir = options.modelsDir ?? DEFAULT_MODELS_DIR;
  return {
    name: 'vt',
    product: 'vt',
    requires: ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'],
    description: 'Ventilatory thresholds VT1 and VT2 as time and VO2, from a named, versioned model (default gandalf).',
    listModels: (surface) => registryFor(modelsDir).summaries(surface),
    async warmUp() {
      // Every runnable model's session; one that fails to load is reported by the request that asks for it.
      for (const m of registryFor(modelsDir).models) {
        if (!m.weights_path || m.problem) continue;
        await sessionFor(m).catch(() => undefined);
        await Promise.resolve()
          .then(() => pipelineOf(m.card).engine.warmUp?.(m))
          .catch(() => undefined);
      }
    },
    async release() {
      await releaseSessions();
      for (const engine of ENGINES.values()) await engine.release?.();
    },
    async run(recorded: Recording, request: AnalysisRequest): Promise<AnalysisOutcome> {
      const choice = chooseModel(registryFor(modelsDir), request);
      if (!choice.ok) return choice.outcome;
      const { model } = choice;
      const ref = modelRef(model);
      const rec = placeAveragedRows(recorded, averagedRowsOf(model.card));
      const checked = checkInput(rec, model.card.inputs, {
        alternatives: webAlternatives(registryFor(modelsDir), model),
        protocol: protocolFor(rec, request.protocol ?? null),
        despiking: breathDespikingOf(model.card),
      });
      if (!checked.ok) return refusal(checked.error, checked.message, checked.context, ref, choice.notes);
      const { test } = checked;
      let result;
      try {
        result = await runPipeline({ model, rec, test, exercise_start_index: checked.exercise_start_index });
      } catch (err) {
        if (!(err instanceof InferenceError)) throw err;
        return refusal('INFERENCE_FAILED', err.message, { model: model.card.name, model_version: model.card.version }, ref, choice.notes);
      }
      // The service's one VO2peak (src/metrics/vo2peak.ts), so %VO2peak here matches vo2max, substrate and the page.
      const vo2peak = vo2Peak(recorded)?.value ?? null;
      const vt1 = thresholdAt(test, result.vt1, vo2peak);
      const vt2 = thresholdAt(test, result.vt2, vo2peak);
      const notes = [...choice.notes, ...checked.notes, ...(result.notes ?? [])];
      notes.push(...missingThresholdNotes(vt1.time_s === null, vt2.time_s === null, result.read_span, (result.evidence as { vt2?: MissingEvidence }).vt2, result.vt2_not_sought));
      notes.push(...plausibilityNotes(vt1.pct_vo2peak, vt2.pct_vo2peak));
      const implausible = implausibilities(vt1, vt2, test.t0_s + exerciseEndIndex(rec, test));
      for (const i of implausible) notes.push(`Implausible: ${i.detail} (evidence.implausible)`);
      const oscillation = await oscillationNote(recorded, request);
      if (oscillation) notes.push(oscillation);
      return {
        status: 'ok',
        findings: {
          vt1_time_s: vt1.time_s,
          vt2_time_s: vt2.time_s,
          vt1_vo2_ml_min: vt1.vo2_ml_min,
          vt2_vo2_ml_min: vt2.vo2_ml_min,
          vt1_pct_vo2peak: vt1.pct_vo2peak,
          vt2_pct_vo2peak: vt2.pct_vo2peak,
          vo2peak_ml_min: vo2peak === null ? null : Math.round(vo2peak),
          engine: model.card.engine,
          // Named only when something is implausible, so plausible findings stay as older cards recorded them.
          evidence: implausible.length ? { ...result.evidence, implausible } : result.evidence,
        },
        notes,
        model: ref,
      };
    },
  };
}
