/**
 * Who is calling and what they may spend: API key authentication (spec 5), the per-key rate limit
 * (429 RATE_LIMITED with Retry-After), the monthly quota (429 QUOTA_EXCEEDED) and billing units
 * (spec 8: one per ok analysis, one per compute request with any ok metric).
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../errors.js';
import type { ApiKeyRecord } from '../store/keys.js';
import type { Store } from '../store/store.js';

const MINUTE_MS = 60_000;
/** Usage counters live a little longer than the longest month. */
const USAGE_TTL_MS = 40 * 24 * 3_600_000;
/** Longer than any request can run (queue wait, the task budget, the answer), short enough to give lapsed units back soon. */
const HOLD_TTL_MS = 10 * 60_000;

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

/** Units billed this month (units held by requests still running are not billed, and not shown). */
export function unitsUsed(store: Store, key: ApiKeyRecord, nowMs: number): Promise<number> {
  return store.getCounter(usageCounter(key, nowMs));
}

/** Units held for one request until it settles. */
export interface Reservation {
  settle(unitsEarned: number): Promise<void>;
  release(): Promise<void>;
}

/**
 * Holds the most units a request can earn, before its work starts, in one atomic step that also
 * checks the quota against units billed plus units held: N concurrent requests on any number of
 * instances cannot all slip under the limit. The units are billed only when the request settles
 * with its answer (a 2xx); a failure releases them, and a hold nobody settles (a 503 because Redis
 * froze, an instance killed mid-request) lapses after HOLD_TTL_MS: no charge without a result.
 */
export async function reserveUnits(store: Store, key: ApiKeyRecord, units: number, nowMs: number): Promise<Reservation> {
  const name = usageCounter(key, nowMs);
  const holdId = randomUUID();
  const { held, total } = await store.holdCounter(name, holdId, units, key.monthly_limit, HOLD_TTL_MS);
  if (!held) {
    const limit = key.monthly_limit ?? total;
    throw new ServiceError('QUOTA_EXCEEDED', `The monthly limit of ${limit} units is reached for ${usageMonth(nowMs)}.`, {
      monthly_limit: limit,
      units_used: Math.min(total, limit),
      month: usageMonth(nowMs),
    });
  }
  return {
    settle: (earned) => store.settleHold(name, holdId, Math.min(earned, units), USAGE_TTL_MS),
    // A hold that cannot be released now lapses by itself; the request's own error is what to answer.
    release: () => store.releaseHold(name, holdId).catch(() => undefined),
  };
}
