/**
 * Headers every response carries, and CORS, which is off unless the operator names the origins
 * allowed to call the API from a browser (CORS_ORIGINS). The web application's own routes under
 * /v1/web never get CORS: their session defence relies on a cross-site page being unable to read
 * the answers (web-session.ts).
 */
import type { NextFunction, Request, Response } from 'express';
import { WEB_SESSION_PATH } from './web-session.js';

/** For JSON and text answers; the page at `/` replaces it with its own policy (web-page.ts). */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";
const EXPOSED = ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id'];
const ALLOWED_HEADERS = ['X-API-Key', 'Content-Type', 'X-Request-Id', 'X-Filename'];
const PREFLIGHT_MAX_AGE_S = 600;

/** Sets the security headers; `https` adds Strict-Transport-Security (the public base URL is https). */
export function securityHeaders(https: boolean): (req: Request, res: Response, next: NextFunction) => void {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Security-Policy', API_CSP);
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    // Answers carry health data: no shared cache may keep them (the page and assets set their own).
    res.setHeader('Cache-Control', 'no-store');
    if (https) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
    next();
  };
}

/** CORS for the listed origins only; a preflight from one of them is answered here with 204. */
export function cors(origins: readonly string[]): (req: Request, res: Response, next: NextFunction) => void {
  const allowed = new Set(origins);
  return (req, res, next) => {
    if (allowed.size === 0 || req.path.startsWith(WEB_SESSION_PATH)) return next();
    res.vary('Origin');
    const origin = req.get('origin');
    if (!origin || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED.join(', '));
    if (req.method === 'OPTIONS' && req.get('access-control-request-method')) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_S));
      res.status(204).end();
      return;
    }
    next();
  };
}
