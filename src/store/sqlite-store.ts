/**
 * The embedded store: keyv over SQLite (`<dataDir>/cpet.sqlite`), which survives a restart.
 * The atomic operations (one-shot claims, counters, secret creation) are serialised by an
 * in-process mutex, so exactly ONE server process may own the file; several instances need Redis.
 * Other processes may still read and write API keys (the `keys` CLI), since those need no atomicity.
 */
import { chmod, open } from 'node:fs/promises';
import path from 'node:path';
import Keyv from 'keyv';
import KeyvSqlite from '@keyv/sqlite';
import { KeyedMutex } from './keyed-mutex.js';
import { createKeyStore } from './keys.js';
import { cleanupTtlMs, recordKey, type StoredRecord } from './record-key.js';
import { newSecretText, secretFromEnv } from './shared-secret.js';
import { deserializeStored } from './stored-json.js';
import { privateDataDir, type Store } from './store.js';

/** File name of the database inside the data directory. */
export const SQLITE_FILE = 'cpet.sqlite';
/** How long a writer waits for another connection's lock before failing. */
const BUSY_TIMEOUT_MS = 10_000;
/** SQLite only drops expired rows when they are read; this sweep removes the ones nobody reads. */
const SWEEP_INTERVAL_MS = 3_600_000;

interface Counter {
  count: number;
  expires_at_ms: number;
}

function table(file: string, name: string, namespace: string): { keyv: Keyv; adapter: KeyvSqlite } {
  const adapter = new KeyvSqlite({ uri: `sqlite://${file}`, table: name, busyTimeout: BUSY_TIMEOUT_MS });
  return { adapter, keyv: new Keyv({ store: adapter, namespace, throwOnErrors: true, deserialize: deserializeStored }) };
}

/**
 * The data directory (0700) and the database file (0600) of parsed recordings, which are health
 * data: readable by the service's user only. The file is created here, before SQLite opens it,
 * because SQLite gives its -wal and -shm files the database file's mode.
 */
async function privateFiles(dataDir: string): Promise<string> {
  await privateDataDir(dataDir);
  const file = path.join(path.resolve(dataDir), SQLITE_FILE);
  await (await open(file, 'a', 0o600)).close();
  for (const name of [file, `${file}-wal`, `${file}-shm`]) await chmod(name, 0o600).catch(() => undefined);
  return file;
}

/** Opens (creating when absent) the embedded store in `dataDir`. */
export async function openSqliteStore(dataDir: string, namespace: string, now: () => number): Promise<Store> {
  const file = await privateFiles(dataDir);
  const records = table(file, 'records', namespace);
  const apikeys = table(file, 'apikeys', namespace);
  const meta = table(file, 'meta', namespace);
  const sessions = table(file, 'sessions', namespace);
  const mutex = new KeyedMutex();
  // Counters as last written or read, with the instant keyv forgets them: this process is the file's
  // only writer of counters (see above), so an analyze's quota hold and settle need not read the row
  // back each time (two of the five statements of an analyze; issue 23). Rows are still written at once.
  const counters = new Map<string, { counter: Counter | undefined; forgotten_at_ms: number }>();
  const readCounter = async (name: string): Promise<Counter | undefined> => {
    const key = `counter:${name}`;
    const known = counters.get(key);
    if (known && Date.now() <= known.forgotten_at_ms) return known.counter;
    const counter = (await meta.keyv.get(key)) as Counter | undefined;
    // An absent counter is not remembered: the next read asks the file again.
    if (counter) counters.set(key, { counter, forgotten_at_ms: counter.expires_at_ms });
    else counters.delete(key);
    return counter;
  };
  /** Adds `by` to a counter; callers hold the counter's mutex. */
  const increment = async (name: string, by: number, ttlMs: number): Promise<number> => {
    const key = `counter:${name}`;
    const current = await readCounter(name);
    // Like Redis INCRBY + PEXPIRE on creation: the window's expiry is fixed when it opens.
    const next: Counter = current ? { count: current.count + by, expires_at_ms: current.expires_at_ms } : { count: by, expires_at_ms: Date.now() + Math.max(1, ttlMs) };
    const ttl = cleanupTtlMs(next.expires_at_ms, Date.now());
    await meta.keyv.set(key, next, ttl);
    counters.set(key, { counter: next, forgotten_at_ms: Date.now() + ttl });
    return next.count;
  };
  // Holds live in memory: they only outlive their request when it dies, and then so does this process.
  const holds = new Map<string, Map<string, { units: number; expires_at_ms: number }>>();
  const liveHolds = (name: string): Map<string, { units: number; expires_at_ms: number }> => {
    const live = holds.get(name) ?? new Map<string, { units: number; expires_at_ms: number }>();
    holds.set(name, live);
    const now = Date.now();
    for (const [id, hold] of live) if (hold.expires_at_ms <= now) live.delete(id);
    return live;
  };
  // WAL lets the keys CLI read while the server writes, and NORMAL sync commits without an fsync
  // per write (still durable across a process crash; the last commits may be lost on power loss).
  // Each adapter creates its table on connect; switching the journal needs those writes finished.
  await Promise.all([records, apikeys, meta, sessions].map(({ adapter }) => adapter.query('PRAGMA synchronous=NORMAL')));
  await records.adapter.query('PRAGMA journal_mode=WAL');

  // Keyv keeps its own wall-clock expiry inside each serialised value ({"value":…,"expires":ms}).
  const sweep = async (): Promise<void> => {
    for (const { adapter } of [records, meta, sessions]) {
      await adapter.query(`DELETE FROM ${adapter.opts.table} WHERE json_valid(value) AND json_extract(value, '$.expires') < ?`, Date.now());
    }
  };
  await sweep();
  const timer = setInterval(() => {
    sweep().catch(() => undefined);
  }, SWEEP_INTERVAL_MS);
  timer.unref();

  return {
    kind: 'sqlite',
    keys: createKeyStore(apikeys.keyv, now),

    async putRecord(keyId, cpetId, value, expiresAtMs) {
      const stored: StoredRecord = { expires_at_ms: expiresAtMs, value };
      await records.keyv.set(recordKey(keyId, cpetId), stored, cleanupTtlMs(expiresAtMs, now()));
    },

    async getRecord<T>(keyId: string, cpetId: string) {
      const stored = (await records.keyv.get(recordKey(keyId, cpetId))) as StoredRecord | undefined;
      if (!stored || now() >= stored.expires_at_ms) return undefined;
      return stored.value as T;
    },

    async deleteRecord(keyId, cpetId) {
      return records.keyv.delete(recordKey(keyId, cpetId));
    },

    async putSession(id, value, expiresAtMs) {
      const stored: StoredRecord = { expires_at_ms: expiresAtMs, value };
      await sessions.keyv.set(id, stored, cleanupTtlMs(expiresAtMs, now()));
    },

    async getSession<T>(id: string) {
      const stored = (await sessions.keyv.get(id)) as StoredRecord | undefined;
      if (!stored || now() >= stored.expires_at_ms) return undefined;
      return stored.value as T;
    },

    async deleteSession(id) {
      return sessions.keyv.delete(id);
    },

    consumeOnce(id, ttlMs) {
      const name = `once:${id}`;
      return mutex.run(name, async () => {
        if ((await meta.keyv.get(name)) !== undefined) return false;
        await meta.keyv.set(name, 1, Math.max(1, ttlMs));
        return true;
      });
    },

    async isClaimed(id) {
      return (await meta.keyv.get(`once:${id}`)) !== undefined;
    },

    releaseClaim(id) {
      const name = `once:${id}`;
      return mutex.run(name, async () => {
        await meta.keyv.delete(name);
      });
    },

    async ping() {
      await meta.adapter.query('SELECT 1');
    },

    incrementCounter(name, by, ttlMs) {
      return mutex.run(`counter:${name}`, () => increment(name, by, ttlMs));
    },

    async getCounter(name) {
      return (await readCounter(name))?.count ?? 0;
    },

    holdCounter(name, holdId, units, limit, holdTtlMs) {
      return mutex.run(`counter:${name}`, async () => {
        const live = liveHolds(name);
        let total = (await readCounter(name))?.count ?? 0;
        for (const hold of live.values()) total += hold.units;
        if (limit !== null && total >= limit) return { held: false, total };
        live.set(holdId, { units, expires_at_ms: Date.now() + holdTtlMs });
        return { held: true, total };
      });
    },

    settleHold(name, holdId, units, counterTtlMs) {
      // Under the counter's mutex: a hold taken meanwhile sees the units either held or counted.
      return mutex.run(`counter:${name}`, async () => {
        holds.get(name)?.delete(holdId);
        if (units !== 0) await increment(name, units, counterTtlMs);
      });
    },

    async releaseHold(name, holdId) {
      holds.get(name)?.delete(holdId);
    },

    sharedSecret(name) {
      const fromEnv = secretFromEnv(name);
      if (fromEnv) return Promise.resolve(fromEnv);
      const key = `secret:${name}`;
      return mutex.run(key, async () => {
        let text = (await meta.keyv.get(key)) as string | undefined;
        if (text === undefined) {
          text = newSecretText();
          await meta.keyv.set(key, text);
        }
        return Buffer.from(text, 'base64');
      });
    },

    async close() {
      clearInterval(timer);
      await Promise.all([records, apikeys, meta, sessions].map(({ keyv }) => keyv.disconnect()));
    },
  };
}
