/**
 * The typed client of the CPET API: a method per operation a caller needs, over openapi-fetch and
 * the types generated from the full contract (internal routes included, so the multipart upload is
 * typed). Each method answers its typed body or throws `CpetApiError`. It runs wherever `fetch`,
 * `FormData` and `Blob` exist: Node.js 20 and later, browsers, Deno, Bun.
 */
import createClient, { type Client } from 'openapi-fetch';
import { call, DEFAULT_RETRY, type RetryPolicy } from './call.js';
import type {
  AnalyzeRequest,
  AnalyzeResponse,
  Capabilities,
  ComputeResponse,
  ContentUploadBody,
  DeleteResponse,
  ExportQuery,
  FormatsResponse,
  Health,
  MetricInfo,
  paths,
  SampleResponse,
  SeriesQuery,
  SeriesResponse,
  TicketOptions,
  TicketRequest,
  TicketResponse,
  UploadSummary,
} from './types.js';

export interface CpetClientOptions {
  /** The service, e.g. `http://127.0.0.1:8080`; '' (the default) is the page's own origin in a browser. */
  baseUrl?: string;
  /**
   * The API key, or a function that reads it at each request. Without one, only the public routes
   * answer (`sample`, `waitFor`); the others throw before sending anything.
   */
  apiKey?: string | null | (() => string | null | undefined);
  /** Retries of a request refused with 429 RATE_LIMITED (default: up to 3, each after its Retry-After, at most 60 s). */
  retry?: Partial<RetryPolicy>;
  /** The fetch to send requests with (default: the global one). */
  fetch?: (input: Request) => Promise<Response>;
}

export interface UploadOptions {
  /** The file's name (its extension is detection evidence); default: the File's own name. */
  filename?: string;
  /** Retention in hours (default 24, at most 168). */
  retainHours?: number;
}

export interface WaitOptions {
  /** Give up after this long (default 30 s). */
  timeoutMs?: number;
  /** Time between two tries (default 0.5 s). */
  intervalMs?: number;
}

export interface CpetClient {
  /** What the key may do: analyses, models, metrics, formats, limits, this month's usage. */
  capabilities(): Promise<Capabilities>;
  /** Every supported format, and the canonical shape to convert into when none reads a file. */
  formats(): Promise<FormatsResponse>;
  /** The metric registry (names for `compute`, with units and reading notes). */
  metrics(): Promise<MetricInfo[]>;
  /** The synthetic sample (public); upload its `filename` and `content` with `uploadContent`. */
  sample(oscillating?: boolean): Promise<SampleResponse>;
  /** Uploads a file unchanged, as multipart (`POST /v1/cpet`). */
  uploadFile(file: Blob, options?: UploadOptions): Promise<UploadSummary>;
  /** Uploads a file as JSON: its text in `content`, or its bytes as base64 in `content_base64`. */
  uploadContent(body: ContentUploadBody): Promise<UploadSummary>;
  /** Mints one-shot upload URLs for a machine that holds no key. */
  createUploadTickets(body?: TicketOptions): Promise<TicketResponse>;
  /** The stored recording's summary. */
  summary(cpetId: string): Promise<UploadSummary>;
  /** Downsampled series, for plotting only. */
  series(cpetId: string, query?: SeriesQuery): Promise<SeriesResponse>;
  /** The stored recording at full resolution in canonical units: CSV (default) or JSON columns, as a Blob (metered). */
  exportRecording(cpetId: string, query?: ExportQuery): Promise<Blob>;
  /** Runs analyses (default: every one the key allows); one envelope each, see `envelopesOf`. */
  analyze(cpetId: string, body?: AnalyzeRequest): Promise<AnalyzeResponse>;
  /** Runs registry metrics; each known metric's result is typed with its own value. */
  compute(cpetId: string, metrics: string[]): Promise<ComputeResponse>;
  /** Deletes the recording now. */
  deleteRecording(cpetId: string): Promise<DeleteResponse>;
  /** Waits until the service answers `GET /health`, e.g. right after starting it. */
  waitFor(options?: WaitOptions): Promise<Health>;
  /** openapi-fetch over every route of the contract, sending the key: for what the methods do not cover. */
  api: Client<paths>;
}

export function createCpetClient(options: CpetClientOptions): CpetClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const given = options.apiKey;
  const readKey = typeof given === 'function' ? given : () => given;
  const fetchOption = options.fetch ? { fetch: options.fetch } : {};
  const api = createClient<paths>({ baseUrl, ...fetchOption });
  api.use({
    onRequest({ request }) {
      const key = readKey();
      if (!key) throw new TypeError('No API key: give one to createCpetClient({ apiKey }).');
      request.headers.set('X-API-Key', key);
      return request;
    },
  });
  const open = createClient<paths>({ baseUrl, ...fetchOption });
  const id = (cpetId: string) => ({ path: { cpet_id: cpetId } });

  return {
    capabilities: () => call(() => api.GET('/v1/capabilities'), retry),
    formats: () => call(() => api.GET('/v1/formats'), retry),
    metrics: async () => (await call(() => api.GET('/v1/metrics'), retry)).metrics,
    sample: (oscillating = false) => call(() => open.GET('/v1/sample', { params: { query: { oscillating } } }), retry),
    uploadFile(file, upload = {}) {
      const filename = upload.filename ?? fileName(file);
      const form = new FormData();
      form.append('file', file, filename);
      if (upload.retainHours !== undefined) form.append('retain_hours', String(upload.retainHours));
      return call(() => api.POST('/v1/cpet', { body: { file: filename, retain_hours: upload.retainHours }, bodySerializer: () => form }), retry);
    },
    uploadContent: (body) => call(() => api.POST('/v1/cpet/content', { body }), retry),
    // `count` has a default in the contract, which the generated type reads as always present.
    createUploadTickets: (body = {}) => call(() => api.POST('/v1/uploads', { body: body as TicketRequest }), retry),
    summary: (cpetId) => call(() => api.GET('/v1/cpet/{cpet_id}', { params: id(cpetId) }), retry),
    series: (cpetId, query = {}) => call(() => api.GET('/v1/cpet/{cpet_id}/series', { params: { ...id(cpetId), query } }), retry),
    exportRecording: (cpetId, query = {}) => call(() => api.GET('/v1/cpet/{cpet_id}/export', { params: { ...id(cpetId), query }, parseAs: 'blob' }), retry),
    analyze: (cpetId, body = {}) => call(() => api.POST('/v1/cpet/{cpet_id}/analyze', { params: id(cpetId), body }), retry),
    compute: (cpetId, metrics) => call(() => api.POST('/v1/cpet/{cpet_id}/compute', { params: id(cpetId), body: { metrics } }), retry),
    deleteRecording: (cpetId) => call(() => api.DELETE('/v1/cpet/{cpet_id}', { params: id(cpetId) }), retry),
    waitFor: (wait = {}) => waitForHealth(open, wait),
    api,
  };
}

function fileName(file: Blob): string {
  const name = (file as { name?: unknown }).name;
  if (typeof name === 'string' && name.length > 0) return name;
  throw new TypeError('This Blob has no name: give uploadFile a filename (its extension is detection evidence).');
}

async function waitForHealth(open: Client<paths>, { timeoutMs = 30_000, intervalMs = 500 }: WaitOptions): Promise<Health> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await call(() => open.GET('/health'), { rateLimited: 0, maxWaitS: 0 });
    } catch (err) {
      last = err;
    }
    if (Date.now() + intervalMs > deadline) {
      throw new Error(`The service did not answer GET /health within ${timeoutMs} ms: ${(last as Error)?.message ?? String(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
