/** Everything the page holds for one recording, as the service answered it (nothing recomputed). */
import type { AnalyzeResponse, ComputeResponse, DomainsResponse, Envelope, MetricInfo, SeriesResponse, UploadSummary, WebModel } from '../client/index.js';

/** A request's answer, or the error it ended in (shown where its result would be). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export async function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

/** An alternative threshold engine (served to the web application only) and its vt run. */
export interface Alternative {
  model: WebModel;
  run: Outcome<AnalyzeResponse>;
}

export interface Results {
  summary: UploadSummary;
  series: Outcome<SeriesResponse>;
  /** analyze through the API with the server's default model. */
  analyses: Outcome<AnalyzeResponse>;
  models: Outcome<WebModel[]>;
  alternatives: Alternative[];
  domains: Outcome<DomainsResponse>;
  registry: Outcome<MetricInfo[]>;
  metrics: Outcome<ComputeResponse>;
}

/** The envelope of one analysis in an analyze answer, or null. */
export function envelopeOf(run: Outcome<AnalyzeResponse>, analysis: Envelope['analysis']): Envelope | null {
  return run.ok ? (run.value.results.find((e) => e.analysis === analysis) ?? null) : null;
}

/** "name version" of the model that ran, from the envelope's provenance (the request named only the model). */
export function ranModel(run: Outcome<AnalyzeResponse>, analysis: Envelope['analysis']): string | null {
  const e = envelopeOf(run, analysis);
  return e ? `${e.provenance.model} ${e.provenance.model_version ?? ''}`.trim() : null;
}

/** Models served to the web application only (the alternative engines), newest version per name. */
export function alternativeModels(models: WebModel[]): WebModel[] {
  const byName = new Map<string, WebModel>();
  for (const m of models) if (!m.surfaces.includes('api')) byName.set(m.name, m);
  return [...byName.values()];
}
