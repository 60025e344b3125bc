/**
 * Every error code of the API in one table (spec section 7), with its HTTP status.
 * Domain code throws `ServiceError`; only src/server/ turns it into a response.
 */
export const ERROR_STATUS = {
  MALFORMED_REQUEST: 400,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 403,
  KEY_EXPIRED: 403,
  PRODUCT_NOT_ENABLED: 403,
  TIER_INSUFFICIENT: 403,
  MODEL_NOT_ALLOWED: 403,
  UPLOAD_TICKET_INVALID: 403,
  WEB_SESSION_REQUIRED: 401,
  CSRF_REJECTED: 403,
  CPET_NOT_FOUND: 404,
  MODEL_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  FILE_TOO_LARGE: 413,
  RECORDING_TOO_LONG: 413,
  UNSUPPORTED_FORMAT: 422,
  PARSER_ERROR: 422,
  UNKNOWN_ANALYSIS: 422,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  REQUEST_HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  INFERENCE_FAILED: 500,
  UPLOAD_TICKETS_UNAVAILABLE: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Codes an analysis may refuse with inside a 200 (spec section 7, envelope `error`). */
export type RefusalCode =
  | 'INSUFFICIENT_SIGNAL'
  | 'INSUFFICIENT_DURATION'
  | 'MISSING_CHANNEL'
  | 'NO_USABLE_DATA'
  | 'TIER_INSUFFICIENT'
  | 'MODEL_NOT_FOUND'
  | 'INFERENCE_FAILED'
  | 'EOV_FAILED'
  | 'SUBSTRATE_FAILED';

/** An error in the spec's shape: `{error, message, context}`; `context` says what would have worked. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly context: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, context: Record<string, unknown> = {}) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.context = context;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): { error: ErrorCode; message: string; context: Record<string, unknown> } {
    return { error: this.code, message: this.message, context: this.context };
  }
}

/** Where in a file a parser stopped: any of sheet, row (1-based), column, line (1-based). */
export interface FileLocation {
  sheet?: string;
  row?: number;
  column?: string | number;
  line?: number;
}

/** A recognised format whose contents cannot be read; says where. */
export function parserError(message: string, where: FileLocation = {}): ServiceError {
  return new ServiceError('PARSER_ERROR', message, { where });
}

/** The service cannot answer right now (store unreachable, shutting down, workers saturated); retry later. */
export function serviceUnavailable(message: string, reason: string, retryAfterS = 1): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', message, { reason, retry_after_s: retryAfterS });
}
