/**
 * The analysis framework: runs the requested analyses in the order asked and builds one envelope
 * each (status, findings, quality, notes, refusal, provenance). A refusal or a crash of one
 * analysis never stops the others; only a ServiceError a plugin throws on purpose (a request-level
 * refusal such as MODEL_NOT_ALLOWED) fails the whole request.
 */
import { performance } from 'node:perf_hooks';
import { ServiceError, type RefusalCode } from '../errors.js';
import type { Recording } from '../recording/recording.js';
import type { ProtocolInput } from '../signal/protocol.js';
import type { AnalysisName, AnalysisOutcome, AnalysisPlugin, AnalysisRequest, Tier } from './analysis-plugin.js';
import { inputQuality, type Quality } from './quality.js';

export const ANALYSIS_VERSION = '2026.08';
export const SCHEMA_VERSION = '1.0';

/** What an analysis that crashed is reported as (its own failure code from spec section 7). */
const FAILURE_CODE: Record<AnalysisName, RefusalCode> = {
  vt: 'INFERENCE_FAILED',
  eov: 'EOV_FAILED',
  substrate: 'SUBSTRATE_FAILED',
};

export interface Provenance {
  analysis_version: string;
  schema_version: string;
  computed_at: string;
  model: string;
  latency_ms: number;
  model_version?: string;
  model_tier?: Tier;
  /** The caller's protocol input, echoed when given (it replaced the protocol read from the recording). */
  protocol?: ProtocolInput;
}

export interface Envelope {
  analysis: AnalysisName;
  status: 'ok' | 'not_analysable';
  findings: Record<string, unknown> | null;
  quality: Quality;
  notes: string[];
  error?: RefusalCode;
  message?: string;
  context?: Record<string, unknown>;
  provenance: Provenance;
}

/** Runs each named analysis on the recording; `plugins` must hold every name. */
export async function runAnalyses(rec: Recording, names: readonly AnalysisName[], plugins: readonly AnalysisPlugin[], request: AnalysisRequest): Promise<Envelope[]> {
  const quality = inputQuality(rec);
  const envelopes: Envelope[] = [];
  for (const name of names) {
    const plugin = plugins.find((p) => p.name === name);
    if (!plugin) throw new ServiceError('UNKNOWN_ANALYSIS', `No analysis named ${name} is installed.`, { available: plugins.map((p) => p.name) });
    const started = performance.now();
    let outcome: AnalysisOutcome;
    try {
      outcome = await plugin.run(rec, request);
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      outcome = {
        status: 'not_analysable',
        error: FAILURE_CODE[name],
        message: `The ${name} analysis failed on this recording: ${(err as Error).message}`,
        context: {},
        notes: [],
        model: { name },
      };
    }
    envelopes.push(envelope(name, outcome, quality, performance.now() - started, request.protocol ?? null));
  }
  return envelopes;
}

function envelope(name: AnalysisName, outcome: AnalysisOutcome, quality: Quality, latencyMs: number, protocol: ProtocolInput | null): Envelope {
  const provenance: Provenance = {
    analysis_version: ANALYSIS_VERSION,
    schema_version: SCHEMA_VERSION,
    computed_at: new Date().toISOString(),
    model: outcome.model.name,
    latency_ms: Math.round(latencyMs * 100) / 100,
  };
  if (outcome.model.version) provenance.model_version = outcome.model.version;
  if (outcome.model.tier) provenance.model_tier = outcome.model.tier;
  if (protocol) provenance.protocol = protocol;
  if (outcome.status === 'ok') {
    return { analysis: name, status: 'ok', findings: outcome.findings, quality, notes: outcome.notes, provenance };
  }
  return {
    analysis: name,
    status: 'not_analysable',
    findings: null,
    quality,
    notes: outcome.notes,
    error: outcome.error,
    message: outcome.message,
    context: outcome.context,
    provenance,
  };
}
