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

/** Counts one request against the key's per-minute window; throws RATE_LIMITED past the limit. */
export async function rateLimit(store: Store, key: ApiKeyRecord, perMinute: number, nowMs: number): Promise<void> {
  if (perMinute <= 0) return;
  const window = Math.floor(nowMs / MINUTE_MS);
  const count = await store.incrementCounter(`rate:${key.id}:${window}`, 1, MINUTE_MS * 2);
  if (count > perMinute) {
    const retry = Math.ceil(((window + 1) * MINUTE_MS - nowMs) / 1000);
    throw new ServiceError('RATE_LIMITED', `More than ${perMinute} requests this minute; retry in ${retry} s.`, { limit_per_minute: perMinute, retry_after_s: retry });
  }
}

/** The calendar month (UTC) billing counts in, e.g. 2026-11. */
export function usageMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

function usageCounter(key: ApiKeyRecord, nowMs: number): string {
  return `usage:${key.id}:${usageMonth(nowMs)}`;
}

/** Units used this month. */
export function unitsUsed(store: Store, key: ApiKeyRecord, nowMs: number): Promise<number> {
  return store.getCounter(usageCounter(key, nowMs));
}

/** Refuses billable work once the monthly limit is spent; a request started under the limit completes. */
export async function checkQuota(store: Store, key: ApiKeyRecord, nowMs: number): Promise<void> {
  if (key.monthly_limit === null) return;
  const used = await unitsUsed(store, key, nowMs);
  if (used >= key.monthly_limit) {
    throw new ServiceError('QUOTA_EXCEEDED', `The monthly limit of ${key.monthly_limit} units is reached for ${usageMonth(nowMs)}.`, {
      monthly_limit: key.monthly_limit,
      units_used: used,
      month: usageMonth(nowMs),
    });
  }
}

/** Adds billing units to the key's month. */
export async function bill(store: Store, key: ApiKeyRecord, units: number, nowMs: number): Promise<void> {
  if (units > 0) await store.incrementCounter(usageCounter(key, nowMs), units, USAGE_TTL_MS);
}
