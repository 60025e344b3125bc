/**
 * What a batch run writes per file: one JSON each, the same shape whether the file was analysed in
 * process or by a service. A failed file keeps the refusal the service (or the reading path) gave.
 */
import type { ComputeResponse, Envelope, UploadSummary } from '../../../clients/typescript/src/index.js';

export interface Refusal {
  /** The API's error code (e.g. UNSUPPORTED_FORMAT), or REQUEST_FAILED when no answer came back. */
  error: string;
  message: string;
  context: Record<string, unknown>;
}

export interface FileOutcome {
  /** The file as found (relative to the working directory when it is under it). */
  file: string;
  status: 'ok' | 'failed';
  /** The service's handle of the recording; null in process, where nothing is stored. */
  cpet_id: string | null;
  /** The upload summary; in process without `cpet_id` and `retention`, which belong to a stored record. */
  summary: (Omit<UploadSummary, 'cpet_id' | 'retention'> & Partial<Pick<UploadSummary, 'retention'>>) | null;
  /** One envelope per analysis, as analyze answers them. */
  analyses: Envelope[];
  /** Every metric of the registry, as compute answers them. */
  metrics: ComputeResponse['metrics'];
  /** Why the file failed (status failed); null otherwise. */
  error: Refusal | null;
}

/** A file that could not be read or analysed. */
export function failed(file: string, error: Refusal, summary: FileOutcome['summary'] = null, cpetId: string | null = null): FileOutcome {
  return { file, status: 'failed', cpet_id: cpetId, summary, analyses: [], metrics: {}, error };
}

/** Turns anything thrown into a refusal: the API's `{error, message, context}` when it has one. */
export function refusalOf(err: unknown): Refusal {
  const e = err as { code?: unknown; body?: unknown; context?: unknown; message?: unknown };
  const body = e?.body as Refusal | undefined;
  if (body && typeof body.error === 'string') return { error: body.error, message: body.message, context: body.context ?? {} };
  if (typeof e?.code === 'string' && /^[A-Z_]+$/.test(e.code) && typeof e.message === 'string') {
    return { error: e.code, message: e.message, context: (e.context as Record<string, unknown>) ?? {} };
  }
  const cause = (e as { cause?: { message?: string } })?.cause?.message;
  return { error: 'REQUEST_FAILED', message: `${String(e?.message ?? err)}${cause ? ` (${cause})` : ''}`, context: {} };
}
