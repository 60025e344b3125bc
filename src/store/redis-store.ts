/**
 * The shared store: keyv over Redis when REDIS_URL is set, so several instances behind a load
 * balancer see the same records, keys, tickets and counters. The atomic operations use Redis' own
 * commands (SET NX PX, INCRBY with PEXPIRE in one script) on the client keyv already holds.
 */
import Keyv from 'keyv';
import KeyvRedis, { createClient } from '@keyv/redis';
import { ServiceError, serviceUnavailable } from '../errors.js';
import { createKeyStore, type KeyStore } from './keys.js';
import { cleanupTtlMs, recordKey, type StoredRecord } from './record-key.js';
import { newSecretText, secretFromEnv } from './shared-secret.js';
import { deserializeStored } from './stored-json.js';
import type { Store } from './store.js';

/** How long start-up waits for Redis before failing with a clear message. */
const CONNECT_TIMEOUT_MS = 10_000;
/** Longest wait for one store operation unless the caller says otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 1_500;
/** Commands that may wait for Redis at once; past it a command fails at once (503). */
const COMMAND_QUEUE_LIMIT = 5_000;
/** node-redis errors that mean "no answer from Redis" rather than a refused command. */
const UNREACHABLE = new Set([
  'TimeoutError',
  'ClientOfflineError',
  'ClientClosedError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'AbortError',
]);

/**
 * INCRBY, and PEXPIRE only while the key has no TTL (i.e. it was just created), as one atomic script:
 * a crash between two separate commands could otherwise leave a counter that never expires.
 */
const INCREMENT_SCRIPT = `
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return value`;

/** Redis' own clock in ms, inside a script (TIME is allowed there since Redis 5's effect replication). */
const REDIS_NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * A hold: KEYS counter, holds' expiries (sorted set), holds' units (hash); ARGV hold id, units,
 * limit (-1: none), hold TTL. Lapsed holds are dropped first; returns {taken, total, Redis ms}.
 */
const HOLD_SCRIPT = `${REDIS_NOW}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do redis.call('HDEL', KEYS[3], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
for _, units in ipairs(redis.call('HVALS', KEYS[3])) do total = total + tonumber(units) end
local limit = tonumber(ARGV[3])
if limit >= 0 and total >= limit then return {0, total, now} end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[4]), ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return {1, total, now}`;

/**
 * A settle: the same KEYS; ARGV hold id, units, counter TTL, deadline (Redis ms). Past the deadline
 * the caller has given up and answered 503, so the script changes nothing and the hold lapses.
 */
const SETTLE_SCRIPT = `${REDIS_NOW}
if now > tonumber(ARGV[4]) then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if tonumber(ARGV[2]) ~= 0 then
  redis.call('INCRBY', KEYS[1], ARGV[2])
  if redis.call('PTTL', KEYS[1]) == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
return 1`;

const RELEASE_SCRIPT = `redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1`;

/** The Redis URL with any password hidden, for error messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/** Connects to `redisUrl` (a db number in the path is honoured) and opens the store under `namespace`. */
export async function openRedisStore(redisUrl: string, namespace: string, now: () => number, commandTimeoutMs = DEFAULT_COMMAND_TIMEOUT_MS): Promise<Store> {
  const client = createClient({
    url: redisUrl,
    // While disconnected a command fails at once instead of waiting in an offline queue, and a queued
    // command is dropped at its timeout: a request its client gave up on is never replayed (and
    // billed) when Redis comes back.
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    // A hung Redis leaves answered-for commands waiting; this bounds how many may wait at once.
    commandsQueueMaxLength: COMMAND_QUEUE_LIMIT,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  // Without a listener node-redis would crash the process on a dropped connection; it reconnects by
  // itself and each command in flight rejects with its own error, which is what callers see.
  client.on('error', () => undefined);
  let timeout: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timeout = setTimeout(() => reject(new Error('timed out')), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    client.destroy();
    throw new Error(`cannot connect to Redis at ${redactUrl(redisUrl)}: ${(error as Error).message}`);
  } finally {
    clearTimeout(timeout);
  }

  const area = (name: string): Keyv => {
    const ns = `${namespace}:${name}`;
    // useKeyPrefix false: the adapter already prefixes with its namespace; keyv would add it twice.
    const adapter = new KeyvRedis(client, { namespace: ns, throwOnErrors: true });
    return new Keyv({ store: adapter, namespace: ns, useKeyPrefix: false, throwOnErrors: true, deserialize: deserializeStored });
  };
  const records = area('records');
  const apikeys = area('apikeys');
  const sessions = area('sessions');
  const raw = (kind: string, name: string): string => `${namespace}:${kind}:${name}`;
  const holdKeys = (name: string): string[] => [raw('counter', name), raw('hold-expiry', name), raw('hold-units', name)];
  /** Redis' clock minus ours, measured at each hold: settle deadlines are set on Redis' clock. */
  let clockOffsetMs = 0;

  const store: Store = {
    kind: 'redis',
    keys: guardKeys(createKeyStore(apikeys, now), commandTimeoutMs),

    async putRecord(keyId, cpetId, value, expiresAtMs) {
      const stored: StoredRecord = { expires_at_ms: expiresAtMs, value };
      await records.set(recordKey(keyId, cpetId), stored, cleanupTtlMs(expiresAtMs, now()));
    },

    async getRecord<T>(keyId: string, cpetId: string) {
      const stored = (await records.get(recordKey(keyId, cpetId))) as StoredRecord | undefined;
      if (!stored || now() >= stored.expires_at_ms) return undefined;
      return stored.value as T;
    },

    async deleteRecord(keyId, cpetId) {
      return records.delete(recordKey(keyId, cpetId));
    },

    async putSession(id, value, expiresAtMs) {
      const stored: StoredRecord = { expires_at_ms: expiresAtMs, value };
      await sessions.set(id, stored, cleanupTtlMs(expiresAtMs, now()));
    },

    async getSession<T>(id: string) {
      const stored = (await sessions.get(id)) as StoredRecord | undefined;
      if (!stored || now() >= stored.expires_at_ms) return undefined;
      return stored.value as T;
    },

    async deleteSession(id) {
      return sessions.delete(id);
    },

    async consumeOnce(id, ttlMs) {
      const reply = await client.set(raw('once', id), '1', {
        condition: 'NX',
        expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) },
      });
      return reply === 'OK';
    },

    async isClaimed(id) {
      return (await client.exists(raw('once', id))) === 1;
    },

    async releaseClaim(id) {
      await client.del(raw('once', id));
    },

    async ping() {
      await client.ping();
    },

    async incrementCounter(name, by, ttlMs) {
      const reply = await client.eval(INCREMENT_SCRIPT, {
        keys: [raw('counter', name)],
        arguments: [String(Math.trunc(by)), String(Math.max(1, Math.ceil(ttlMs)))],
      });
      return Number(reply);
    },

    async getCounter(name) {
      const reply = await client.get(raw('counter', name));
      return reply === null ? 0 : Number(reply);
    },

    async holdCounter(name, holdId, units, limit, holdTtlMs) {
      const sentMs = Date.now();
      const [taken, total, redisNowMs] = (await client.eval(HOLD_SCRIPT, {
        keys: holdKeys(name),
        arguments: [holdId, String(Math.trunc(units)), String(limit ?? -1), String(Math.max(1, Math.ceil(holdTtlMs)))],
      })) as number[];
      clockOffsetMs = Number(redisNowMs) - (sentMs + Date.now()) / 2;
      return { held: Number(taken) === 1, total: Number(total) };
    },

    async settleHold(name, holdId, units, counterTtlMs) {
      // Half the command timeout: a settle Redis runs before this deadline is answered before the
      // caller's own timeout (unless the way back alone takes the other half).
      const deadline = Math.floor(Date.now() + clockOffsetMs + commandTimeoutMs / 2);
      const applied = await client.eval(SETTLE_SCRIPT, {
        keys: holdKeys(name),
        arguments: [holdId, String(Math.trunc(units)), String(Math.max(1, Math.ceil(counterTtlMs))), String(deadline)],
      });
      if (Number(applied) !== 1) {
        throw serviceUnavailable('The shared store (Redis) answered too late; nothing was charged or changed by this request. Retry shortly.', 'store_unavailable', 2);
      }
    },

    async releaseHold(name, holdId) {
      await client.eval(RELEASE_SCRIPT, { keys: holdKeys(name), arguments: [holdId] });
    },

    async sharedSecret(name) {
      const fromEnv = secretFromEnv(name);
      if (fromEnv) return fromEnv;
      const key = raw('secret', name);
      // SET NX then GET: whichever instance wins the race, all of them read the winner's bytes.
      await client.set(key, newSecretText(), { condition: 'NX' });
      const text = await client.get(key);
      if (text === null) throw new Error(`shared secret ${name} vanished from Redis`);
      return Buffer.from(text, 'base64');
    },

    async close() {
      // A graceful close waits for Redis to answer; with Redis gone, shutting down must not hang.
      if (client.isReady) await client.close();
      else client.destroy();
    },
  };
  return guardStore(store, commandTimeoutMs);
}

/** A failure of Redis to answer, as the 503 the client should retry; other errors pass unchanged. */
function unreachable(err: unknown): unknown {
  if (err instanceof ServiceError) return err;
  const e = err as { name?: string; code?: string; message?: string; constructor?: { name?: string } };
  // node-redis's error classes keep the name "Error"; their constructors say what happened.
  const down =
    UNREACHABLE.has(e?.constructor?.name ?? '') ||
    UNREACHABLE.has(e?.name ?? '') ||
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(e?.code ?? '') ||
    /not connected|client is closed|client is offline|Command timeout|queue is full/i.test(e?.message ?? '') ||
    // A Redis that is up but not serving yet (reading its append-only file after a restart) refuses
    // every command with LOADING before running it; the deployment test met it on every Redis restart.
    /^LOADING\b/.test(e?.message ?? '');
  return down ? serviceUnavailable('The shared store (Redis) did not answer in time; nothing was changed by this request. Retry shortly.', 'store_unavailable', 2) : err;
}

/**
 * Every operation answers within `deadlineMs` or fails with 503. node-redis's own command timeout
 * only covers a command still waiting to be written; one already written to a Redis that hangs
 * would wait for ever, so the deadline is kept here. (A command Redis already received may still
 * run when it wakes up: no client can take back bytes the server's socket holds.)
 */
function guarded<T extends object>(target: T, deadlineMs: number, skip: readonly string[] = []): T {
  const out = { ...target } as Record<string, unknown>;
  for (const [name, value] of Object.entries(target)) {
    if (typeof value !== 'function' || skip.includes(name)) continue;
    out[name] = async (...args: unknown[]) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('Command timeout: Redis did not answer')), deadlineMs);
      });
      try {
        return await Promise.race([(value as (...a: unknown[]) => Promise<unknown>).apply(target, args), deadline]);
      } catch (err) {
        throw unreachable(err);
      } finally {
        clearTimeout(timer);
      }
    };
  }
  return out as T;
}

function guardStore(store: Store, deadlineMs: number): Store {
  return guarded(store, deadlineMs, ['close']);
}

function guardKeys(keys: KeyStore, deadlineMs: number): KeyStore {
  return guarded(keys, deadlineMs);
}
