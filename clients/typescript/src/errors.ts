/** The API's one error shape, `{error, message, context}`, as a throwable with its HTTP status. */
import type { ApiErrorBody, ErrorCode } from './types.js';

export class CpetApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.name = 'CpetApiError';
    this.status = status;
    this.body = body;
  }

  get code(): ErrorCode {
    return this.body.error;
  }

  get context(): Record<string, unknown> {
    return this.body.context;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  const v = value as Partial<ApiErrorBody> | null;
  return typeof v === 'object' && v !== null && typeof v.error === 'string' && typeof v.message === 'string' && typeof v.context === 'object';
}

/**
 * The error an unsuccessful answer stands for. A body outside the error shape (a proxy's HTML page,
 * say) becomes INTERNAL_ERROR carrying the status, so the caller always has a message to show.
 */
export function errorFrom(status: number, body: unknown): CpetApiError {
  if (isErrorBody(body)) return new CpetApiError(status, body);
  return new CpetApiError(status, { error: 'INTERNAL_ERROR', message: `The service answered HTTP ${status} without an error body.`, context: { status } });
}
