/**
 * Serves the web application (web/) at `/` and its hashed assets under /assets/, with a Content
 * Security Policy that allows only this origin's scripts, styles and API (images also from data:
 * and blob: URLs, which the plot export and the printable report make in the page).
 */
import type express from 'express';
import type { WebBundle } from '../../web/build.js';

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Mounts GET / and GET /assets/:name; an unknown asset falls through to the API's 404. */
export function mountWebPage(app: express.Express, bundle: WebBundle): void {
  app.get('/', (_req, res) => {
    res.locals.route = '/';
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(bundle.index);
  });
  app.get('/assets/:name', (req, res, next) => {
    const asset = bundle.assets.get(req.params.name);
    if (!asset) return next();
    res.locals.route = '/assets/{name}';
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(asset.contentType).send(asset.body);
  });
}
