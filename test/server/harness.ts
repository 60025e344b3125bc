/**
 * Starts the real service for route tests: a temporary data directory (or a Redis namespace), an
 * injectable clock, real worker threads, and API keys made through the store. No mocks of our code.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { OpenAPIBackend } from 'openapi-backend';
import request from 'supertest';
import type { Config } from '../../src/config.js';
import { loadApiDocument } from '../../src/openapi/document.js';
import { createService, type Service } from '../../src/server/app.js';
import type { NewKey } from '../../src/store/keys.js';
import { generateSample } from '../../src/synthetic/sample.js';

export type StoreKind = 'sqlite' | 'redis';

/** The stores the route suite runs on: always the embedded one, Redis when REDIS_URL is set. */
export const STORE_KINDS: StoreKind[] = process.env.REDIS_URL ? ['sqlite', 'redis'] : ['sqlite'];

export interface Harness {
  service: Service;
  dataDir: string;
  clock: { now: number; advance(ms: number): void };
  key(spec?: Partial<NewKey>): Promise<string>;
  /** Stores a recording through `POST /v1/cpet/content` (the plain public sample unless a body is given) and returns its id. */
  upload(key: string, body?: Record<string, unknown>): Promise<string>;
  /** Serves the app on a loopback port, for clients in other processes; `close` stops it. */
  listen(): Promise<{ url: string; server: Server }>;
  /** Closes the service (and its listener); `keepData` leaves the data directory for a restart test. */
  close(keepData?: boolean): Promise<void>;
  reopen(): Promise<Harness>;
}

interface Options {
  store: StoreKind;
  rateLimitPerMinute?: number;
  workers?: number;
  dataDir?: string;
  namespace?: string;
  clockStart?: number;
  operations?: Config['operations'];
}

/** A running service on the given store. */
export async function startHarness(options: Options): Promise<Harness> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cpet-test-'));
  const namespace = options.namespace ?? `test-${randomBytes(6).toString('hex')}`;
  const clock = {
    now: options.clockStart ?? Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    redisUrl: options.store === 'redis' ? (process.env.REDIS_URL as string) : null,
    rateLimitPerMinute: options.rateLimitPerMinute ?? 100_000,
    workers: options.workers ?? 1,
    publicBaseUrl: null,
    formatPackages: [],
    now: () => clock.now,
    // One warm-up round, as before the service's default grew to twenty (issue 23): tests send tasks
    // before /ready, and a task's time budget would otherwise include seconds of a thread's warm-up.
    operations: { logLevel: 'silent', warmUpRounds: 1, ...options.operations },
  };
  const service = await createService(config, { namespace });
  const sample = generateSample(false);
  let listener: Server | null = null;
  let n = 0;
  const harness: Harness = {
    service,
    dataDir,
    clock,
    async key(spec = {}) {
      const { key } = await service.deps.store.keys.create({ name: `k${++n}-${randomBytes(3).toString('hex')}`, tier: 'research', products: ['vt', 'eov', 'substrate'], ...spec });
      return key;
    },
    async upload(key, body) {
      const res = await request(service.app)
        .post('/v1/cpet/content')
        .set('X-API-Key', key)
        .send(body ?? { filename: sample.filename, content: sample.content });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.cpet_id as string;
    },
    async listen() {
      const server = service.app.listen(0, '127.0.0.1');
      listener = server;
      await new Promise((resolve) => server.once('listening', resolve));
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
    },
    async close(keepData = false) {
      if (listener) await new Promise((resolve) => listener?.close(resolve));
      await service.close();
      if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    reopen: () => startHarness({ ...options, dataDir, namespace, clockStart: clock.now }),
  };
  return harness;
}

let validator: Promise<OpenAPIBackend> | null = null;

/** Checks a response body against the OpenAPI document's schema for that operation and status. */
export async function expectMatchesSpec(body: unknown, operationId: string, status: number): Promise<void> {
  validator ??= (async () => {
    const api = new OpenAPIBackend({
      definition: loadApiDocument() as never,
      quick: true,
      customizeAjv: (_o, opts) => {
        const ajv = new Ajv2020({ ...opts, strict: false, allErrors: true });
        addFormats.default(ajv);
        return ajv as never;
      },
    });
    await api.init();
    return api;
  })();
  const api = await validator;
  const result = api.validateResponse(body, operationId, status);
  if (result.errors?.length) {
    throw new Error(`${operationId} ${status} does not match the spec: ${JSON.stringify(result.errors.slice(0, 5))}`);
  }
}
