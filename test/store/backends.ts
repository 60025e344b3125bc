/**
 * Runs a suite on every store: SQLite always, Redis when REDIS_URL is set (the Redis run FLUSHDBs
 * its dedicated database first and is reported pending when REDIS_URL is unset).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { openStore, type Store } from '../../src/store/store.js';

export type BackendName = 'sqlite' | 'redis';

/** What a suite body gets: an opener bound to one backend, a data directory and a clock it controls. */
export interface BackendContext {
  readonly name: BackendName;
  /** A fresh data directory and namespace per test. */
  readonly dataDir: string;
  readonly namespace: string;
  /** The injected clock; tests move it instead of sleeping. */
  clock: { now_ms: number };
  /** Opens a store on this test's data directory and namespace (again after a close: a restart). */
  open(): Promise<Store>;
}

/** The clock every test starts at: 2027-01-15T08:00:00Z. */
export const START_MS = Date.UTC(2027, 0, 15, 8);

/** Empties the Redis database named by REDIS_URL (a dedicated test database). */
export async function flushRedis(url: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    await client.flushDb();
  } finally {
    await client.close();
  }
}

/** Declares `describe(title (backend))` for each backend with a fresh BackendContext per test. */
export function describeEachBackend(title: string, body: (ctx: BackendContext) => void): void {
  for (const name of ['sqlite', 'redis'] as const) {
    describe(`${title} (${name})`, () => {
      const redisUrl = name === 'redis' ? process.env.REDIS_URL || null : null;
      const opened: Store[] = [];
      const state = { dataDir: '', namespace: '' };
      const ctx: BackendContext = {
        name,
        get dataDir() {
          return state.dataDir;
        },
        get namespace() {
          return state.namespace;
        },
        clock: { now_ms: START_MS },
        async open() {
          const store = await openStore({
            dataDir: state.dataDir,
            redisUrl,
            namespace: state.namespace,
            now: () => ctx.clock.now_ms,
          });
          opened.push(store);
          return store;
        },
      };

      before(async function () {
        if (name === 'redis') {
          if (!redisUrl) this.skip();
          else await flushRedis(redisUrl);
        }
      });

      beforeEach(async () => {
        state.dataDir = await mkdtemp(path.join(os.tmpdir(), 'cpet-store-'));
        state.namespace = `test-${randomBytes(6).toString('hex')}`;
        ctx.clock.now_ms = START_MS;
      });

      afterEach(async () => {
        // A test may already have closed a store to simulate a restart; closing twice must not fail the suite.
        await Promise.allSettled(opened.splice(0).map((s) => s.close()));
        await rm(state.dataDir, { recursive: true, force: true });
      });

      body(ctx);
    });
  }
}
