/**
 * Who is calling and what they may spend: API key authentication (spec 5), the per-key rate limit
 * (429 RATE_LIMITED with Retry-After), the monthly quota (429 QUOTA_EXCEEDED) and billing units
 * (spec 8: one per ok analysis, one per compute request with any ok metric).
 */
import { ServiceError } from '../errors.js';
import type { ApiKeyRecord } from '../store/keys.js';
import type { Store } from '../store/store.js';

const MINUTE_MS = 60_000;
/** Usage counters live a little longer than the longest month. */
const USAGE_TTL_MS = 40 * 24 * 3_600_000;

/** The key in the X-API-Key header, authenticated; throws the spec's code otherwise. */
export async function authenticate(store: Store, header: string | string[] | undefined): Promise<ApiKeyRecord> {
  const presented = Array.isArray(header) ? header[0] : header;
  if (!presented) throw new ServiceError('MISSING_API_KEY', 'Send your API key in the X-API-Key header.', { header: 'X-API-Key' });
  const result = await store.keys.authenticate(presented.trim());
  if (result.status === 'invalid') throw new ServiceError('INVALID_API_KEY', 'The API key is not recognised.', {});
  if (result.status === 'expired') {
    throw new ServiceError('KEY_EXPIRED', `The API key expired at ${result.record.expires_at}.`, { expires_at: result.record.expires_at });
  }
  return result.record;
}

/** Where the key stands in its per-minute window, for the RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window starts again. */
  reset_s: number;
}

/** Counts one request against the key's per-minute window; throws RATE_LIMITED past the limit. Null when unlimited. */
export async function rateLimit(store: Store, key: ApiKeyRecord, perMinute: number, nowMs: number): Promise<RateLimitState | null> {
  if (perMinute <= 0) return null;
  const window = Math.floor(nowMs / MINUTE_MS);
  const count = await store.incrementCounter(`rate:${key.id}:${window}`, 1, MINUTE_MS * 2);
  const reset = Math.max(1, Math.ceil(((window + 1) * MINUTE_MS - nowMs) / 1000));
  const state = { limit: perMinute, remaining: Math.max(0, perMinute - count), reset_s: reset };
  if (count > perMinute) {
    throw new ServiceError('RATE_LIMITED', `More than ${perMinute} requests this minute; retry in ${reset} s.`, { limit_per_minute: perMinute, retry_after_s: reset });
  }
  return state;
}

/** The calendar month (UTC) billing counts in, e.g. 2026-11. */
export function usageMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

function usageCounter(key: ApiKeyRecord, nowMs: number): string {
  return `usage:${key.id}:${usageMonth(nowMs)}`;
}

/** Units used this month (reservations of requests still running included). */
export function unitsUsed(store: Store, key: ApiKeyRecord, nowMs: number): Promise<number> {
  return store.getCounter(usageCounter(key, nowMs));
}

/** Units held for one request until it settles. */
export interface Reservation {
  settle(unitsEarned: number): Promise<void>;
  release(): Promise<void>;
}

/**
 * Reserves the most units a request can earn, in one atomic increment, before its work starts. A
 * request that found the month under the limit proceeds (and may pass it by what it earns, as a
 * request started under the limit always completes); one that found it spent gives its units back
 * and is refused with QUOTA_EXCEEDED. So N concurrent requests on any number of instances cannot
 * all slip under the limit, as they could when the count was read first and billed after.
 */
export async function reserveUnits(store: Store, key: ApiKeyRecord, units: number, nowMs: number): Promise<Reservation> {
  const name = usageCounter(key, nowMs);
  const adjust = async (by: number): Promise<void> => {
    if (by !== 0) await store.incrementCounter(name, by, USAGE_TTL_MS);
  };
  if (key.monthly_limit === null || units <= 0) {
    return { settle: (earned) => adjust(earned), release: async () => {} };
  }
  const after = await store.incrementCounter(name, units, USAGE_TTL_MS);
  const before = after - units;
  if (before >= key.monthly_limit) {
    await adjust(-units);
    throw new ServiceError('QUOTA_EXCEEDED', `The monthly limit of ${key.monthly_limit} units is reached for ${usageMonth(nowMs)}.`, {
      monthly_limit: key.monthly_limit,
      units_used: Math.min(before, key.monthly_limit),
      month: usageMonth(nowMs),
    });
  }
  return {
    settle: (earned) => adjust(Math.min(earned, units) - units),
    release: () => adjust(-units),
  };
}
