/**
 * How a record is addressed inside the store: partitioned by API key id, so a lookup under another
 * key's id can only miss (the server answers 404 CPET_NOT_FOUND, never 403).
 */

/** The storage key of one record; both parts are URI-encoded so no id can forge the separator. */
export function recordKey(keyId: string, cpetId: string): string {
  return `${encodeURIComponent(keyId)}/${encodeURIComponent(cpetId)}`;
}

/** A stored record with the absolute expiry the store checks against its injected clock. */
export interface StoredRecord {
  expires_at_ms: number;
  value: unknown;
}

/** Milliseconds to hand to keyv as a cleanup TTL; never zero or negative (keyv treats 0 as "no TTL"). */
export function cleanupTtlMs(expiresAtMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil(expiresAtMs - nowMs));
}
