/**
 * The first middleware of every request: its id (the caller's `X-Request-Id` when it is a sane
 * token, else a new UUID, echoed either way), then, once the answer is sent, one access line and the
 * request metrics. The line names the route template (`/v1/cpet/{cpet_id}`), never the concrete
 * path, so no record id, ticket or file name reaches the logs; the key appears as its public id.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger.js';
import type { Telemetry } from './telemetry.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** What the later middleware tell the access line (kept in res.locals). */
export interface RequestFacts {
  request_id: string;
  /** The OpenAPI path template or the page route; 'unmatched' for unknown routes. */
  route: string;
  key_id?: string;
  /** The error code of a non-2xx answer. */
  error?: string;
}

export function facts(res: Response): RequestFacts {
  return res.locals as RequestFacts;
}

export function requestLog(logger: Logger, telemetry: Telemetry): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const presented = req.get(REQUEST_ID_HEADER);
    const id = presented && REQUEST_ID.test(presented) ? presented : randomUUID();
    Object.assign(res.locals, { request_id: id, route: 'unmatched' } satisfies RequestFacts);
    res.setHeader(REQUEST_ID_HEADER, id);
    res.on('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const f = facts(res);
      // A connection closed before the answer was complete counts as 499 (the client went away).
      const status = res.writableFinished ? res.statusCode : 499;
      telemetry.request(req.method, f.route, status, seconds);
      const line = {
        request_id: f.request_id,
        method: req.method,
        route: f.route,
        status,
        duration_ms: Math.round(seconds * 1e4) / 10,
        key_id: f.key_id,
        error: f.error,
      };
      if (status >= 500) logger.error(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
