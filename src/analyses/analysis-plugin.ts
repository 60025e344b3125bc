/**
 * What an analysis plugin is. The framework (src/analyses/run.ts) builds the envelope around what
 * `run` returns: status, quality, provenance, latency. A plugin never builds an envelope itself.
 */
import type { RefusalCode } from '../errors.js';
import type { MetricEntry } from '../metrics/metric-entry.js';
import type { ChannelName, Recording } from '../recording/recording.js';
import type { ProtocolInput } from '../signal/protocol.js';

export type AnalysisName = 'vt' | 'eov' | 'substrate';
export type Product = 'vt' | 'eov' | 'substrate';
export type Tier = 'free' | 'pro' | 'research';

/** Tier order: a key reaches models of its own tier and below. */
export const TIER_RANK: Readonly<Record<Tier, number>> = { free: 0, pro: 1, research: 2 };

/** What the caller's key allows, passed to analyses that choose between models. */
export interface KeyScope {
  tier: Tier;
  /** Models the key is restricted to; null means every model its tier reaches. */
  allowed_models: string[] | null;
}

/**
 * Where a request comes from. Spec section 1 keeps the alternative threshold engine (and the domain
 * curves) in the web application: an `api` request never reaches a model served to `web` only.
 */
export type Surface = 'api' | 'web';

/** Options from the analyze body, shared by every analysis of one request. */
export interface AnalysisRequest {
  model?: string | null;
  model_version?: string | null;
  medications?: string[] | null;
  key: KeyScope;
  /** `api` when omitted. */
  surface?: Surface;
  /** The protocol as the caller states it; overrides the one read from the recording (src/signal/protocol.ts). */
  protocol?: ProtocolInput | null;
}

/** The model that ran, reported in provenance (`model`, and for thresholds `model_version`, `model_tier`). */
export interface ModelRef {
  name: string;
  version?: string;
  tier?: Tier;
}

export interface ModelSummary {
  name: string;
  version: string;
  tier: Tier;
  status: 'production' | 'research';
  /** True for the model and version an omitted `model` / `model_version` selects. */
  default: boolean;
  /** Where the model is served (spec section 1: the alternative threshold engine is web-only). */
  surfaces: Surface[];
}

export type AnalysisOutcome =
  | { status: 'ok'; findings: Record<string, unknown>; notes: string[]; model: ModelRef }
  | {
      status: 'not_analysable';
      error: RefusalCode;
      message: string;
      context: Record<string, unknown>;
      notes: string[];
      model: ModelRef;
    };

export interface AnalysisPlugin {
  name: AnalysisName;
  /** The key product that licenses this analysis. */
  product: Product;
  /** Channels it cannot run without; checked by the plugin itself so it can refuse with its own words. */
  requires: ChannelName[];
  /** One line for GET /v1/capabilities. */
  description: string;
  /**
   * Runs the analysis. A refusal the spec lists for this analysis (section 7) is returned as
   * `not_analysable`; a ServiceError thrown here (e.g. MODEL_NOT_ALLOWED) fails the whole request.
   */
  run(recording: Recording, request: AnalysisRequest): Promise<AnalysisOutcome>;
  /** Models this analysis can run on a surface, for GET /v1/capabilities (`api`) and the web application. */
  listModels?(surface: Surface): ModelSummary[];
  /** Metrics this analysis adds to the compute registry (e.g. `substrate_summary`). */
  metrics?: MetricEntry[];
  /** Builds what a first run would otherwise build lazily (model sessions), so a worker pays for it at start rather than on a request. */
  warmUp?(): Promise<void>;
  /** Frees native resources (model sessions) before the thread that holds them ends: one finalised while a worker thread is torn down aborts the whole process. */
  release?(): Promise<void>;
}
