/**
 * Upload tickets (spec 2.5): `base64url(payload JSON) "." base64url(HMAC-SHA256(secret, payload segment))`.
 * Nothing is stored when a ticket is minted, so minting 200 costs no writes; the server makes each one
 * single-use afterwards with `store.consumeOnce('ticket:' + tid, ttl)`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a ticket binds: its id, the issuing key, expiry, retention and an optional filename. */
export interface TicketPayload {
  /** Random ticket id (the one-shot claim is made on it). */
  tid: string;
  /** Id of the API key that minted it; the uploaded record belongs to that key. */
  kid: string;
  /** Expiry, ms since the epoch. */
  exp: number;
  /** retain_hours asked for at mint, or null for the default retention. */
  rh: number | null;
  /** Filename given at mint, or null. */
  fn: string | null;
}

/** Ticket lifetime (spec 2.5: valid for 5 minutes). */
export const TICKET_TTL_MS = 300_000;
/** Longest filename a ticket carries; keeps upload URLs a sane length. */
export const MAX_TICKET_FILENAME = 255;
/** Tokens above this length are refused before any decoding or hashing. */
const MAX_TOKEN_LENGTH = 2048;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const SIGNATURE_BYTES = 32;

function sign(segment: string, secret: Buffer): Buffer {
  return createHmac('sha256', secret).update(segment, 'ascii').digest();
}

/** Mints a signed ticket for the key `kid`, valid for `ttlMs` from `nowMs`. */
export function mintTicket(payload: Omit<TicketPayload, 'tid' | 'exp'>, secret: Buffer, nowMs: number, ttlMs: number = TICKET_TTL_MS): { token: string; payload: TicketPayload } {
  if (typeof payload.kid !== 'string' || payload.kid.length === 0) throw new TypeError('ticket kid must be a non-empty string');
  if (payload.rh !== null && !(Number.isSafeInteger(payload.rh) && payload.rh > 0)) {
    throw new TypeError('ticket rh must be a positive integer or null');
  }
  if (payload.fn !== null && (typeof payload.fn !== 'string' || payload.fn.length > MAX_TICKET_FILENAME)) {
    throw new TypeError(`ticket fn must be a string of at most ${MAX_TICKET_FILENAME} characters or null`);
  }
  if (!(Number.isFinite(nowMs) && Number.isFinite(ttlMs) && ttlMs > 0)) throw new TypeError('ticket times must be finite, ttl positive');
  const full: TicketPayload = {
    tid: randomBytes(16).toString('base64url'),
    kid: payload.kid,
    exp: Math.floor(nowMs + ttlMs),
    rh: payload.rh,
    fn: payload.fn,
  };
  const segment = Buffer.from(JSON.stringify(full), 'utf8').toString('base64url');
  return { token: `${segment}.${sign(segment, secret).toString('base64url')}`, payload: full };
}

function isPayload(value: unknown): value is TicketPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const fields = Object.keys(v).sort().join(',');
  return (
    fields === 'exp,fn,kid,rh,tid' &&
    typeof v.tid === 'string' &&
    v.tid.length > 0 &&
    typeof v.kid === 'string' &&
    v.kid.length > 0 &&
    typeof v.exp === 'number' &&
    Number.isFinite(v.exp) &&
    (v.rh === null || (typeof v.rh === 'number' && Number.isSafeInteger(v.rh) && v.rh > 0)) &&
    (v.fn === null || typeof v.fn === 'string')
  );
}

/** Checks signature (constant time), shape and expiry; does NOT consume the ticket. */
export function verifyTicket(token: string, secret: Buffer, nowMs: number): { ok: true; payload: TicketPayload } | { ok: false; reason: 'malformed' | 'forged' | 'expired' } {
  if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'malformed' };
  const parts = token.split('.');
  if (parts.length !== 2 || !SEGMENT.test(parts[0]) || !SEGMENT.test(parts[1])) return { ok: false, reason: 'malformed' };
  const [segment, signatureText] = parts;
  const presented = Buffer.from(signatureText, 'base64url');
  // Only a canonical encoding of exactly one digest counts as a signature at all.
  if (presented.length !== SIGNATURE_BYTES || presented.toString('base64url') !== signatureText) {
    return { ok: false, reason: 'malformed' };
  }
  // The signature is checked before the payload is parsed, so unauthenticated JSON is never interpreted.
  if (!timingSafeEqual(presented, sign(segment, secret))) return { ok: false, reason: 'forged' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isPayload(payload)) return { ok: false, reason: 'malformed' };
  if (nowMs >= payload.exp) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}
