/**
 * Sessions of the web application (openapi/cpet-api.yaml, tag "Web application"). Spec section 1
 * keeps the domain curves and the alternative threshold engine out of the API, so their routes under
 * /v1/web take no X-API-Key: the page trades the key once for a short-lived session held in an
 * HttpOnly, SameSite=Strict cookie, and proves every request is its own with the session's CSRF
 * token in a header.
 *
 * Why a cookie alone never acts: SameSite=Strict keeps the cookie off requests started by another
 * site, but a sibling origin of the same site (another port or subdomain) still sends it. Such a
 * page cannot read the token (the session answer is JSON without CORS), cannot add the custom header
 * without a CORS preflight this service never grants, and a browser marks its request
 * `Sec-Fetch-Site: same-site` or `cross-site` and sends its own `Origin`, both refused here.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { ServiceError } from '../errors.js';
import type { ApiKeyRecord } from '../store/keys.js';
import type { Store } from '../store/store.js';

export const WEB_SESSION_COOKIE = 'cpet_web_session';
/** The cookie goes only to the web application's own routes. */
export const WEB_SESSION_PATH = '/v1/web';
/** Short-lived: the page starts a new session from the key it holds for the tab when one lapses. */
export const WEB_SESSION_TTL_MS = 30 * 60_000;
export const CSRF_HEADER = 'x-csrf-token';

const ID_BYTES = 32;
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the store keeps: hashes only, so a leaked store gives neither a usable cookie nor a token. */
interface StoredSession {
  key_id: string;
  csrf_sha256: string;
}

/** A session just started: the cookie value and the CSRF token are shown once, here. */
export interface StartedSession {
  id: string;
  csrf_token: string;
  expires_at_ms: number;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The store key of a session: the hash of its cookie value. */
function storeId(id: string): string {
  return `web:${sha256(id).toString('hex')}`;
}

/** Starts a session for `key`, stored until now + WEB_SESSION_TTL_MS. */
export async function startSession(store: Store, key: ApiKeyRecord, nowMs: number): Promise<StartedSession> {
  const id = randomBytes(ID_BYTES).toString('base64url');
  const csrf = randomBytes(ID_BYTES).toString('base64url');
  const expires = nowMs + WEB_SESSION_TTL_MS;
  const stored: StoredSession = { key_id: key.id, csrf_sha256: sha256(csrf).toString('hex') };
  await store.putSession(storeId(id), stored, expires);
  return { id, csrf_token: csrf, expires_at_ms: expires };
}

/** The session id in the request's Cookie header, or null. */
export function sessionIdOf(headers: IncomingHttpHeaders): string | null {
  for (const part of (headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === WEB_SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return ID_PATTERN.test(value) ? value : null;
    }
  }
  return null;
}

/**
 * Refuses a request a browser made for another origin: `Sec-Fetch-Site` other than same-origin (or
 * none, a navigation the user typed), or an `Origin` whose host is not the one addressed. Clients
 * that send neither (curl, tests) fall through to the token check.
 */
export function refuseCrossSite(headers: IncomingHttpHeaders, publicBaseUrl: string | null): void {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ServiceError('CSRF_REJECTED', `The web application's routes answer their own page only; this request came from a ${site} page.`, { sec_fetch_site: site });
  }
  const origin = headers.origin;
  if (origin === undefined) return;
  const expected = publicBaseUrl ? new URL(publicBaseUrl).host : headers.host;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    host = null;
  }
  if (!host || host !== expected) {
    throw new ServiceError('CSRF_REJECTED', `The web application's routes answer their own page only; this request came from ${origin}.`, { origin });
  }
}

/**
 * The key behind the request's session, after the cross-site check, the session lookup and the
 * CSRF token. The key is read again each time, so revoking or expiring it ends its sessions now.
 */
export async function sessionKey(store: Store, headers: IncomingHttpHeaders, nowMs: number, publicBaseUrl: string | null): Promise<ApiKeyRecord> {
  refuseCrossSite(headers, publicBaseUrl);
  const id = sessionIdOf(headers);
  const session = id ? await store.getSession<StoredSession>(storeId(id)) : undefined;
  if (!session) {
    const why = headers['x-api-key'] ? 'it takes the session cookie from POST /v1/web/session, not an X-API-Key' : id ? 'the session has expired or was ended' : 'there is no session cookie';
    throw new ServiceError('WEB_SESSION_REQUIRED', `This route belongs to the web application: ${why}.`, { cookie: WEB_SESSION_COOKIE, start: 'POST /v1/web/session' });
  }
  const token = headers[CSRF_HEADER];
  const presented = typeof token === 'string' ? sha256(token) : null;
  if (!presented || !timingSafeEqual(presented, Buffer.from(session.csrf_sha256, 'hex'))) {
    throw new ServiceError('CSRF_REJECTED', presented ? "X-CSRF-Token is not this session's token." : "This request does not carry the session's X-CSRF-Token.", { header: 'X-CSRF-Token' });
  }
  const key = await store.keys.get(session.key_id);
  if (!key || key.revoked_at !== null) {
    await store.deleteSession(storeId(id as string));
    throw new ServiceError('INVALID_API_KEY', 'The API key behind this session is no longer recognised.', {});
  }
  if (key.expires_at !== null && nowMs >= Date.parse(key.expires_at)) {
    throw new ServiceError('KEY_EXPIRED', `The API key behind this session expired at ${key.expires_at}.`, { expires_at: key.expires_at });
  }
  return key;
}

/** Forgets the request's session; false when it had none. */
export async function endSession(store: Store, headers: IncomingHttpHeaders): Promise<boolean> {
  const id = sessionIdOf(headers);
  return id ? store.deleteSession(storeId(id)) : false;
}

/** The Set-Cookie value for a session (Max-Age 0 clears it); Secure when the page is served over HTTPS. */
export function sessionCookie(id: string, maxAgeS: number, secure: boolean): string {
  return [`${WEB_SESSION_COOKIE}=${id}`, `Path=${WEB_SESSION_PATH}`, `Max-Age=${maxAgeS}`, 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ');
}
