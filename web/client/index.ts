/**
 * The typed client of the CPET API: every operation the web application uses, over openapi-fetch and
 * the types generated from openapi/cpet-api.yaml. Each method answers its typed body or throws
 * `CpetApiError` with the spec's `{error, message, context}`.
 */
import createClient from 'openapi-fetch';
import { call } from './call.js';
import { uploadContent, uploadFile, type ProgressListener } from './upload.js';
import { createWebRoutes, type WebRoutes } from './web-session.js';
import type { AnalyzeRequest, AnalyzeResponse, Capabilities, ComputeResponse, ContentUploadRequest, MetricInfo, paths, SampleResponse, SeriesQuery, SeriesResponse, UploadSummary } from './types.js';

export { CpetApiError } from './errors.js';
export type { ProgressListener } from './upload.js';
export type { WebRoutes } from './web-session.js';
export type * from './types.js';

export interface CpetClientOptions {
  /** Where the service is; '' (the default) is the page's own origin. */
  baseUrl?: string;
  /** The API key, read at each request (null until one is entered). */
  apiKey: () => string | null;
}

export interface CpetClient {
  capabilities(): Promise<Capabilities>;
  sample(oscillating: boolean): Promise<SampleResponse>;
  uploadFile(file: Blob, filename: string, onProgress?: ProgressListener): Promise<UploadSummary>;
  uploadContent(body: ContentUploadRequest, onProgress?: ProgressListener): Promise<UploadSummary>;
  summary(cpetId: string): Promise<UploadSummary>;
  series(cpetId: string, query: SeriesQuery): Promise<SeriesResponse>;
  analyze(cpetId: string, body: AnalyzeRequest): Promise<AnalyzeResponse>;
  metrics(): Promise<MetricInfo[]>;
  compute(cpetId: string, metrics: string[]): Promise<ComputeResponse>;
  deleteRecording(cpetId: string): Promise<void>;
  /** The web application's own routes (session cookie, never X-API-Key). */
  web: WebRoutes;
}

export function createCpetClient(options: CpetClientOptions): CpetClient {
  const baseUrl = options.baseUrl ?? '';
  const requireKey = (): string => {
    const key = options.apiKey();
    if (!key) throw new TypeError('Enter an API key first.');
    return key;
  };
  const keyed = createClient<paths>({ baseUrl });
  keyed.use({
    onRequest({ request }) {
      request.headers.set('X-API-Key', requireKey());
      return request;
    },
  });
  const plain = createClient<paths>({ baseUrl });
  const id = (cpetId: string) => ({ path: { cpet_id: cpetId } });

  return {
    capabilities: () => call(keyed.GET('/v1/capabilities')),
    sample: (oscillating) => call(plain.GET('/v1/sample', { params: { query: { oscillating } } })),
    uploadFile: (file, filename, onProgress) => uploadFile(baseUrl, requireKey(), file, filename, onProgress),
    uploadContent: (body, onProgress) => uploadContent(baseUrl, requireKey(), body, onProgress),
    summary: (cpetId) => call(keyed.GET('/v1/cpet/{cpet_id}', { params: id(cpetId) })),
    series: (cpetId, query) => call(keyed.GET('/v1/cpet/{cpet_id}/series', { params: { ...id(cpetId), query } })),
    analyze: (cpetId, body) => call(keyed.POST('/v1/cpet/{cpet_id}/analyze', { params: id(cpetId), body })),
    metrics: async () => (await call(keyed.GET('/v1/metrics'))).metrics,
    compute: (cpetId, metrics) => call(keyed.POST('/v1/cpet/{cpet_id}/compute', { params: id(cpetId), body: { metrics } })),
    deleteRecording: async (cpetId) => {
      await call(keyed.DELETE('/v1/cpet/{cpet_id}', { params: id(cpetId) }));
    },
    web: createWebRoutes(keyed, plain),
  };
}
