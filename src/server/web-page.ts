/**
 * The web application (web/) at `/` and its hashed assets under /assets/, answered as the contract's
 * `getWebPage` and `getWebAsset` operations, with a Content Security Policy that allows only this
 * origin's scripts, styles and API (images also from data: and blob: URLs, which the plot export and
 * the printable report make in the page).
 */
import type { WebBundle } from '../../web/build.js';
import { ServiceError } from '../errors.js';
import { boundedString } from './bounded-echo.js';
import type { Reply } from './reply.js';

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

export interface WebPage {
  page(): Reply<'getWebPage'>;
  /** An asset by name; one the page does not use is the same 404 as an unknown route. */
  asset(name: string): Reply<'getWebAsset'>;
}

export function webPage(bundle: WebBundle): WebPage {
  return {
    page: () => ({
      contentType: 'text/html; charset=utf-8',
      text: bundle.index,
      headers: { 'Content-Security-Policy': PAGE_CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-cache' },
    }),
    asset: (name) => {
      const asset = bundle.assets.get(name);
      if (!asset) {
        const shown = boundedString(`/assets/${name}`, 200);
        throw new ServiceError('NOT_FOUND', `No route GET ${shown}.`, { method: 'GET', path: shown });
      }
      return { contentType: asset.contentType, text: asset.body, headers: { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' } };
    },
  };
}
