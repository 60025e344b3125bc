/**
 * The shared store: keyv over Redis when REDIS_URL is set, so several instances behind a load
 * balancer see the same records, keys, tickets and counters. The atomic operations use Redis' own
 * commands (SET NX PX, INCRBY with PEXPIRE in one script) on the client keyv already holds.
 */
import Keyv from 'keyv';
import KeyvRedis, { createClient } from '@keyv/redis';
import { createKeyStore } from './keys.js';
import { cleanupTtlMs, recordKey, type StoredRecord } from './record-key.js';
import { newSecretText, secretFromEnv } from './shared-secret.js';
import type { Store } from './store.js';

/** How long start-up waits for Redis before failing with a clear message. */
const CONNECT_TIMEOUT_MS = 10_000;

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

/** The Redis URL with any password hidden, for error messages. */
function redactUrl(url: string): string {
  return url.replace(/\/\/([^@/]*)@/, '//***@');
}

/** Connects to `redisUrl` (a db number in the path is honoured) and opens the store under `namespace`. */
export async function openRedisStore(redisUrl: string, namespace: string, now: () => number): Promise<Store> {
  const client = createClient({
    url: redisUrl,
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
    return new Keyv({ store: adapter, namespace: ns, useKeyPrefix: false, throwOnErrors: true });
  };
  const records = area('records');
  const apikeys = area('apikeys');
  const sessions = area('sessions');
  const raw = (kind: string, name: string): string => `${namespace}:${kind}:${name}`;

  return {
    kind: 'redis',
    keys: createKeyStore(apikeys, now),

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
      await client.close();
    },
  };
}
