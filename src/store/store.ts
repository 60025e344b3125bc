/**
 * The service's state behind one interface: records partitioned by API key, API keys, web
 * application sessions, one-shot claims, counters and shared secrets. Embedded SQLite by default (one process owns it); Redis when
 * REDIS_URL is set (any number of instances). Nothing here knows about HTTP.
 */
import { chmod, mkdir } from 'node:fs/promises';
import type { KeyStore } from './keys.js';
import { openRedisStore } from './redis-store.js';
import { openSqliteStore } from './sqlite-store.js';

/** Where and how to open the store. */
export interface StoreOptions {
  /** DATA_DIR, default ./data; the SQLite file lives here. */
  dataDir: string;
  /** REDIS_URL: when set, every namespace goes to Redis. */
  redisUrl?: string | null;
  /** Key prefix (default 'cpet'); tests use a unique one. */
  namespace?: string;
  /** Injected clock (ms since epoch) for record and key expiry; default Date.now. */
  now?: () => number;
  /**
   * Redis only: longest wait for one command; past it (or at once while disconnected) the call
   * fails with 503 SERVICE_UNAVAILABLE instead of waiting, and is not replayed later. Default 1500.
   */
  commandTimeoutMs?: number;
}

/** The store the server and the keys CLI work against. */
export interface Store {
  readonly kind: 'sqlite' | 'redis';
  /**
   * Records partitioned by API key id: another key's id is simply not found. expiresAtMs is
   * enforced on read via now() (so tests inject the clock), and as a keyv TTL for cleanup.
   */
  putRecord(keyId: string, cpetId: string, value: unknown, expiresAtMs: number): Promise<void>;
  /** The record stored under (keyId, cpetId), or undefined when absent or past its expiry. */
  getRecord<T>(keyId: string, cpetId: string): Promise<T | undefined>;
  /** Removes a record now; false when there was none under that key. */
  deleteRecord(keyId: string, cpetId: string): Promise<boolean>;
  /**
   * A web application session under `id` (the server passes a hash of the cookie, never the cookie),
   * forgotten once now() reaches expiresAtMs, and as a keyv TTL for cleanup. Every instance on the
   * same store sees it, so sessions survive a balancer sending the next request elsewhere.
   */
  putSession(id: string, value: unknown, expiresAtMs: number): Promise<void>;
  /** The session stored under `id`, or undefined when absent, ended or past its expiry. */
  getSession<T>(id: string): Promise<T | undefined>;
  /** Ends a session now; false when there was none. */
  deleteSession(id: string): Promise<boolean>;
  /**
   * Atomic one-shot claim: true exactly once per id across all instances (Redis SET NX PX;
   * in-process for sqlite, persisted). The TTL runs on the wall clock, not on now().
   */
  consumeOnce(id: string, ttlMs: number): Promise<boolean>;
  /** Whether a one-shot claim on `id` is held now. */
  isClaimed(id: string): Promise<boolean>;
  /** Gives a one-shot claim back, so the next consumeOnce of `id` succeeds again. */
  releaseClaim(id: string): Promise<void>;
  /**
   * Atomic counter: returns the new value; sets the wall-clock TTL when the counter is created
   * (Redis INCRBY + PEXPIRE in one EVAL). Put the window in the name (e.g. `quota:<kid>:2026-11`).
   */
  incrementCounter(name: string, by: number, ttlMs: number): Promise<number>;
  /** Current value of a counter; 0 when absent or expired (holds not included). */
  getCounter(name: string): Promise<number>;
  /**
   * Reserves `units` on counter `name` for one request (`holdId`) without counting them: a hold
   * lives beside the counter until settled, released, or `holdTtlMs` passes (so the hold of a request
   * whose instance died, or whose answer was a 503, lapses by itself). With `limit` set, the hold is
   * taken only while counter + live holds is below it. Returns whether it was taken and that total
   * (before this hold), atomically across instances.
   */
  holdCounter(name: string, holdId: string, units: number, limit: number | null, holdTtlMs: number): Promise<{ held: boolean; total: number }>;
  /**
   * Ends hold `holdId` and adds `units` to the counter (setting `counterTtlMs` when it is created),
   * in one step. Throws SERVICE_UNAVAILABLE when it cannot be done in time; then it is never done
   * later either (Redis: a settle reaching a server that was frozen past the caller's deadline changes
   * nothing), so a caller that answers 503 has charged nothing.
   */
  settleHold(name: string, holdId: string, units: number, counterTtlMs: number): Promise<void>;
  /** Ends hold `holdId` without counting anything. */
  releaseHold(name: string, holdId: string): Promise<void>;
  /**
   * A per-deployment secret shared by all instances (get-or-create atomically). When TICKET_SECRET
   * is set, every name's secret is derived from it instead (HMAC of the name), so nothing is stored.
   */
  sharedSecret(name: string): Promise<Buffer>;
  /** API keys. */
  readonly keys: KeyStore;
  /** Resolves when the store answers a trivial command (readiness); throws otherwise. */
  ping(): Promise<void>;
  /** Releases the connection(s); the store is unusable afterwards. */
  close(): Promise<void>;
}

/** Default key prefix of every stored entry. */
export const DEFAULT_NAMESPACE = 'cpet';

/**
 * DATA_DIR holds health data (the SQLite file) or the first-start key (with Redis): readable by the
 * service's user only, also when it was created beforehand with the usual 0755.
 */
export async function privateDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
}

/** Opens the Redis store when `redisUrl` is set, else the embedded SQLite store in `dataDir`. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(namespace)) {
    throw new Error(`store namespace "${namespace}" must be letters, digits, ".", "_" or "-"`);
  }
  await privateDataDir(options.dataDir);
  const now = options.now ?? Date.now;
  return options.redisUrl ? openRedisStore(options.redisUrl, namespace, now, options.commandTimeoutMs) : openSqliteStore(options.dataDir, namespace, now);
}
