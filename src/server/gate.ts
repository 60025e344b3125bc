/**
 * Everything decided before a request body is read: which operation the request is (from method and
 * path alone), who calls it (API key or web session, counted against the rate limit; for a ticket
 * post the ticket itself), and whether its announced size fits the route. Only then is the body
 * parsed, by the parser that operation takes, so a keyless or oversize 24 MB upload costs no memory
 * and a bad ticket's body is never read.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import multer from 'multer';
import type { OpenAPIBackend } from 'openapi-backend';
import { ServiceError } from '../errors.js';
import type { ApiKeyRecord } from '../store/keys.js';
import { authenticate, rateLimit, type RateLimitState } from './access.js';
import type { ServiceDeps } from './deps.js';
import { sendError, validationError } from './errors.js';
import { admitTicket, type AdmittedTicket } from './handlers/uploads.js';
import { lingerOnClose } from './lingering-close.js';
import { facts } from './request-log.js';
import { sessionKey } from './web-session.js';

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
/** The largest upload JSON body: a 25 MB file as base64 is 33.4 MB. */
const CONTENT_JSON_LIMIT = 36 * 1024 * 1024;
/** Every other JSON body (analyze, compute, tickets, session) is a few hundred bytes. */
const SMALL_JSON_LIMIT = 64 * 1024;
/** Room for the multipart boundaries and field headers around a 25 MB file. */
const MULTIPART_OVERHEAD = 64 * 1024;

/** What the gate established, for the security handlers and the handlers (kept in res.locals). */
export interface Admission {
  key?: ApiKeyRecord;
  ticket?: AdmittedTicket;
}

export function admission(res: Response): Admission {
  return res.locals as Admission;
}

const multipartFile = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 12 } }).single('file');
/** Multipart fields arrive as text; the schema's integer must see a number. */
const retainHoursAsNumber: RequestHandler = (req, _res, next) => {
  const body = req.body as Record<string, unknown> | undefined;
  if (body && typeof body.retain_hours === 'string' && /^-?\d+$/.test(body.retain_hours)) body.retain_hours = Number(body.retain_hours);
  next();
};

/** How each operation's body is read, and the largest body it may announce. */
function bodyOf(operationId: string, hasBody: boolean): { limit: number; parsers: RequestHandler[]; tooLarge: 'file' | 'body' } | null {
  switch (operationId) {
    case 'uploadCpetContent':
      return { limit: CONTENT_JSON_LIMIT, parsers: [express.json({ limit: CONTENT_JSON_LIMIT })], tooLarge: 'file' };
    case 'uploadCpetMultipart':
      return { limit: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD, parsers: [multipartFile, retainHoursAsNumber], tooLarge: 'file' };
    case 'postTicketUpload':
      return {
        limit: MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD,
        parsers: [express.raw({ type: 'application/octet-stream', limit: MAX_UPLOAD_BYTES }), multipartFile],
        tooLarge: 'file',
      };
    default:
      return hasBody ? { limit: SMALL_JSON_LIMIT, parsers: [express.json({ limit: SMALL_JSON_LIMIT })], tooLarge: 'body' } : null;
  }
}

function rateLimitHeaders(res: Response, state: RateLimitState | null): void {
  if (!state) return;
  res.setHeader('RateLimit-Limit', String(state.limit));
  res.setHeader('RateLimit-Remaining', String(state.remaining));
  res.setHeader('RateLimit-Reset', String(state.reset_s));
}

/** The refusal of a body past its route's limit: 413 FILE_TOO_LARGE for uploads, 422 for the small JSON bodies. */
function tooLarge(body: { limit: number; tooLarge: 'file' | 'body' }, bytes: number, verb = 'announces'): ServiceError {
  return body.tooLarge === 'file'
    ? new ServiceError('FILE_TOO_LARGE', `The request ${verb} ${bytes} bytes; an upload is at most 25 MB.`, { max_upload_bytes: MAX_UPLOAD_BYTES, bytes })
    : validationError([{ loc: ['body'], msg: `the body ${verb} ${bytes} bytes; this route takes at most ${body.limit}`, type: 'too_large', ctx: { max_body_bytes: body.limit } }]);
}

/** Counts the key against its rate limit, writing the RateLimit-* headers on success and on 429. */
async function limitRate(deps: ServiceDeps, key: ApiKeyRecord, res: Response): Promise<void> {
  try {
    rateLimitHeaders(res, await rateLimit(deps.store, key, deps.config.rateLimitPerMinute, deps.config.now()));
  } catch (err) {
    if (err instanceof ServiceError && err.code === 'RATE_LIMITED') {
      rateLimitHeaders(res, { limit: deps.config.rateLimitPerMinute, remaining: 0, reset_s: Number(err.context.retry_after_s) });
    }
    throw err;
  }
}

/** A path whose percent-encoding does not decode names nothing: 400, before any route reads its parameters. */
function refuseMalformedPath(path: string): void {
  try {
    decodeURIComponent(path);
  } catch {
    throw new ServiceError('MALFORMED_REQUEST', 'The request path is not valid percent-encoded UTF-8.', { reason: 'path_encoding' });
  }
}

/** The middleware: admits (or refuses) the request, then reads its body. */
export function gate(api: OpenAPIBackend, deps: ServiceDeps): RequestHandler {
  const globalSecurity = ((deps.document as { security?: Record<string, unknown>[] }).security ?? []).flatMap((s) => Object.keys(s));
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      refuseMalformedPath(req.path);
      const operation = api.router.matchOperation({ method: req.method, path: req.path, headers: req.headers as Record<string, string>, query: {} });
      if (!operation) return next();
      facts(res).route = operation.path;
      const schemes = operation.security ? operation.security.flatMap((s) => Object.keys(s)) : globalSecurity;
      const admitted = admission(res);
      if (schemes.includes('ApiKey')) {
        admitted.key = await authenticate(deps.store, req.headers['x-api-key']);
        facts(res).key_id = admitted.key.id;
        await limitRate(deps, admitted.key, res);
      } else if (schemes.includes('WebSession')) {
        admitted.key = await sessionKey(deps.store, req.headers, deps.config.now(), deps.config.publicBaseUrl);
        facts(res).key_id = admitted.key.id;
        await limitRate(deps, admitted.key, res);
      } else if (operation.operationId === 'postTicketUpload') {
        // A ticket is base64url and a dot: the raw path segment is the token (no decoding to fail).
        const token = req.path.slice(req.path.lastIndexOf('/') + 1);
        admitted.ticket = await admitTicket(deps, token);
        facts(res).key_id = admitted.ticket.key.id;
      }
      const body = bodyOf(operation.operationId as string, operation.requestBody !== undefined);
      if (!body) return next();
      const announced = Number(req.get('content-length'));
      if (Number.isFinite(announced) && announced > body.limit) throw tooLarge(body, announced);
      // A body without a length (chunked) is counted as it arrives and cut at the limit: the parsers
      // would refuse it too, but only after reading it to its end, which an endless body never has.
      let refused = false;
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (refused || received <= body.limit) return;
        refused = true;
        req.unpipe();
        sendError(res, tooLarge(body, received, 'sends more than'));
      });
      let i = 0;
      const step = (err?: unknown): void => {
        if (refused) return;
        if (err && body.tooLarge === 'body' && (err as { type?: string }).type === 'entity.too.large') next(tooLarge(body, received));
        else if (err) next(err);
        else {
          const parser = body.parsers[i++];
          if (parser) parser(req, res, step);
          else next();
        }
      };
      step();
    } catch (err) {
      next(err);
    }
  };
}

/** Whether the request says a body follows its headers. */
function announcesBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * An answer sent before the request's body was read in full (a missing key, a refused ticket, an
 * oversize or endless body, a body the route never parses) closes the connection: keeping it alive
 * would make Node read and drop the rest of a body nobody wanted, 24 MB of it for a keyless upload
 * and without end for an unterminated chunked one. The close lingers (lingering-close.ts) so the
 * client reads the answer before the connection goes.
 */
export const closeOnUnreadBody: RequestHandler = (req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (!req.complete && announcesBody(req) && !this.headersSent) {
      this.setHeader('Connection', 'close');
      lingerOnClose(req.socket);
    }
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
  next();
};
