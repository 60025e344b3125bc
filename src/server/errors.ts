/**
 * Every failure leaves the server in the spec's one error shape, `{error, message, context}`: thrown
 * ServiceErrors, openapi-backend validation failures (422 VALIDATION_ERROR with `context.errors`
 * items `{loc, msg, type, input, ctx}`), malformed JSON, oversize bodies, multer errors, unknown
 * routes and wrong methods.
 */
import type { ErrorObject } from 'ajv';
import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../errors.js';
import type { components } from '../generated/api.js';
import { boundedEcho, boundedString, truncationMarker } from './bounded-echo.js';
import type { Logger } from './logger.js';

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** Issues one VALIDATION_ERROR lists; the rest are counted in `context.errors_truncated`. */
const MAX_ISSUES = 20;
/** Longest message an error carries (messages may quote names the caller sent). */
const MAX_MESSAGE = 1000;

/** Writes a ServiceError as a response (with Retry-After when the error carries one). */
export function sendError(res: Response, err: ServiceError): void {
  const retry = err.context.retry_after_s;
  if (typeof retry === 'number') res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retry))));
  if (err.code === 'METHOD_NOT_ALLOWED' && Array.isArray(err.context.allowed)) res.setHeader('Allow', (err.context.allowed as string[]).join(', '));
  if (err.code === 'SERVICE_UNAVAILABLE') res.setHeader('Connection', 'close');
  res.locals.error = err.code;
  const body: components['schemas']['Error'] = { error: err.code, message: boundedString(err.message, MAX_MESSAGE), context: err.context };
  res.status(err.status).json(body);
}

/**
 * A 422 VALIDATION_ERROR listing the issues, each echoing at most a bounded summary of the
 * offending input (bounded-echo.ts), and at most MAX_ISSUES of them.
 */
export function validationError(issues: ValidationIssue[], extra: Record<string, unknown> = {}): ServiceError {
  const first = issues[0];
  const where = first ? boundedString(first.loc.join('.'), 200) : 'request';
  const message = first ? `Invalid request: ${where}: ${first.msg}.` : 'Invalid request.';
  const shown = issues.slice(0, MAX_ISSUES).map((i) => ({
    ...i,
    loc: i.loc.map((part) => (typeof part === 'string' ? boundedString(part, 200) : part)),
    msg: boundedString(i.msg, MAX_MESSAGE),
    ...(i.input === undefined ? {} : { input: boundedEcho(i.input) }),
    ...(i.ctx === undefined ? {} : { ctx: boundedEcho(i.ctx) as Record<string, unknown> }),
  }));
  const more = issues.length > MAX_ISSUES ? { errors_truncated: truncationMarker(`${issues.length - MAX_ISSUES} more issues`) } : {};
  return new ServiceError('VALIDATION_ERROR', message, { errors: shown, ...more, ...extra });
}

const SECTION: Record<string, string> = { requestBody: 'body', query: 'query', path: 'path', header: 'header', cookie: 'cookie' };

/** Turns ajv errors from openapi-backend (instancePath `/requestBody/x/0`) into issues naming the field. */
export function issuesFromAjv(errors: ErrorObject[] | null | undefined, request: { body?: unknown; query?: unknown; params?: unknown }): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const e of errors ?? []) {
    const segments = e.instancePath.split('/').slice(1).map(decodePointer);
    const section = segments.shift();
    const loc: (string | number)[] = [SECTION[section ?? ''] ?? section ?? 'request', ...segments];
    const params = e.params as Record<string, unknown>;
    let msg = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
      // The echoed input is the unknown field's own value, not the whole object around it.
      segments.push(params.additionalProperty);
      loc.push(params.additionalProperty);
      msg = `unknown field "${params.additionalProperty}" is not allowed`;
    } else if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      loc.push(params.missingProperty);
      msg = `field "${params.missingProperty}" is required`;
    }
    const root = section === 'requestBody' ? request.body : section === 'query' ? request.query : section === 'path' ? request.params : undefined;
    out.push({ loc, msg, type: e.keyword, input: pick(root, segments), ctx: params });
  }
  // oneOf/anyOf failures repeat each branch's complaint; keep the distinct ones.
  const seen = new Set<string>();
  return out.filter((i) => {
    const k = `${i.loc.join('.')}|${i.type}|${i.msg}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function decodePointer(s: string): string | number {
  const t = s.replace(/~1/g, '/').replace(/~0/g, '~');
  return /^\d+$/.test(t) ? Number(t) : t;
}

function pick(root: unknown, path: (string | number)[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/** Express error middleware: body-parser, multer and anything unexpected, in the error shape; the unexpected ones are logged. */
export function errorMiddleware(logger: Logger): (err: unknown, req: Request, res: Response, next: NextFunction) => void {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const mapped = asServiceError(err);
    if (mapped.status >= 500) logger.error({ request_id: res.locals.request_id, code: mapped.code, err }, 'request failed');
    sendError(res, mapped);
  };
}

function asServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as { type?: string; code?: string; status?: number; message?: string; body?: string; limit?: number };
  if (e.type === 'entity.parse.failed') {
    return validationError([{ loc: ['body'], msg: `malformed JSON: ${e.message ?? 'cannot be parsed'}`, type: 'json_invalid' }]);
  }
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FILE_SIZE') {
    return new ServiceError('FILE_TOO_LARGE', 'The upload is larger than 25 MB.', { max_upload_bytes: 25 * 1024 * 1024 });
  }
  if (typeof e.code === 'string' && e.code.startsWith('LIMIT_')) {
    return validationError([{ loc: ['body'], msg: `multipart form refused: ${e.message ?? e.code}`, type: e.code.toLowerCase() }]);
  }
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return validationError([{ loc: ['body'], msg: e.message ?? 'unsupported encoding', type: e.type }]);
  }
  if (e.type === 'request.aborted' || e.code === 'ECONNABORTED') {
    return validationError([{ loc: ['body'], msg: 'the request body ended before its announced length', type: 'body_incomplete' }]);
  }
  if (typeof e.message === 'string' && /^(Malformed part header|Unexpected end of form|Multipart: Boundary not found|Malformed urlencoded form)/.test(e.message)) {
    return validationError([{ loc: ['body'], msg: `multipart form refused: ${e.message}`, type: 'multipart_invalid' }]);
  }
  return new ServiceError('INTERNAL_ERROR', 'The server failed unexpectedly; nothing stored was changed.', {});
}
