/**
 * Two instances of the built server on one Redis (issue 14, item 6), the test's own redis-server on
 * a free loopback port: a record, a ticket (one accepted post in 100 concurrent across both), the
 * rate limit and the monthly quota are shared. Redis stopped mid-run gives 503 in the error shape
 * within 2 s on both (no hang), requests abandoned meanwhile are not replayed or billed, and service
 * resumes when Redis returns.
 */
import { expect } from 'chai';
import { openStore, type Store } from '../../src/store/store.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { expectMatchesSpec } from './harness.js';
import { ensureBuilt, hasRedisServer, startRedis, startServer, type RedisProcess, type ServerProcess } from './processes.js';

const RATE = 50;

describe('two instances on one Redis', function () {
  this.timeout(240_000);
  const sample = generateSample(false);
  let redis: RedisProcess;
  let a: ServerProcess;
  let b: ServerProcess;
  let store: Store;

  before(async function () {
    if (!hasRedisServer()) this.skip();
    await ensureBuilt();
    redis = await startRedis();
    const env = { REDIS_URL: redis.url(0), RATE_LIMIT_PER_MINUTE: String(RATE), WORKERS: '1', STORE_TIMEOUT_MS: '1000' };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    store = await openStore({ dataDir: a.dataDir, redisUrl: redis.url(0) });
  });
  after(async () => {
    await store?.close();
    for (const s of [a, b]) {
      if (s && s.child.exitCode === null) {
        s.child.kill('SIGKILL');
        await s.exited;
      }
    }
    await redis?.stop();
  });

  const newKey = async (monthly_limit: number | null = null) =>
    (await store.keys.create({ name: `k-${Math.random().toString(36).slice(2, 10)}`, tier: 'research', products: ['vt', 'eov', 'substrate'], monthly_limit })).key;
  const post = (server: ServerProcess, path: string, key: string, body: unknown) =>
    fetch(`${server.base}${path}`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const uploadSample = async (server: ServerProcess, key: string): Promise<string> => {
    const res = await post(server, '/v1/cpet/content', key, { filename: sample.filename, content: sample.content });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { cpet_id: string }).cpet_id;
  };

  it('shares a record: uploaded through one, read and deleted through the other', async () => {
    const key = await newKey();
    const id = await uploadSample(a, key);
    expect((await fetch(`${b.base}/v1/cpet/${id}`, { headers: { 'X-API-Key': key } })).status).to.equal(200);
    expect((await fetch(`${b.base}/v1/cpet/${id}`, { method: 'DELETE', headers: { 'X-API-Key': key } })).status).to.equal(200);
    expect((await fetch(`${a.base}/v1/cpet/${id}`, { headers: { 'X-API-Key': key } })).status).to.equal(404);
  });

  it('accepts one post of a ticket among 100 concurrent ones across both instances', async () => {
    const key = await newKey();
    const mint = await post(a, '/v1/uploads', key, {});
    const path = new URL(((await mint.json()) as { upload_url: string }).upload_url).pathname;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream', 'X-Filename': sample.filename }, body: sample.content }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).to.have.length(1);
    expect(statuses.filter((s) => s === 403)).to.have.length(99);
  });

  it('shares the rate limit', async () => {
    const key = await newKey();
    // Start inside a fresh minute, so the window cannot turn during the burst.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const statuses: number[] = [];
    for (let i = 0; i < RATE + 6; i++) statuses.push((await fetch(`${(i % 2 ? a : b).base}/v1/capabilities`, { headers: { 'X-API-Key': key } })).status);
    expect(statuses.filter((s) => s === 200)).to.have.length(RATE);
    expect(statuses.slice(RATE)).to.deep.equal(Array(6).fill(429));
  });

  it('shares the monthly quota: 30 concurrent computes across both for a limit of 3 bill 3', async () => {
    const key = await newKey(3);
    const id = await uploadSample(a, key);
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => post(i % 2 ? a : b, `/v1/cpet/${id}/compute`, key, { metrics: ['vo2max'] }).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).to.have.length(3);
    expect(statuses.filter((s) => s === 429)).to.have.length(27);
    const caps = (await (await fetch(`${b.base}/v1/capabilities`, { headers: { 'X-API-Key': key } })).json()) as { usage: { units_used: number } };
    expect(caps.usage.units_used).to.equal(3);
  });

  it('answers 503 within 2 s while Redis hangs (its command timeout), and serves again when it answers', async () => {
    const key = await newKey();
    const id = await uploadSample(a, key);
    redis.pause();
    try {
      for (const server of [a, b]) {
        const started = Date.now();
        const res = await fetch(`${server.base}/v1/cpet/${id}`, { headers: { 'X-API-Key': key } });
        const ms = Date.now() - started;
        const body = (await res.json()) as { error: string; context: { reason: string } };
        expect(res.status, JSON.stringify(body)).to.equal(503);
        expect(body.context.reason).to.equal('store_unavailable');
        expect(ms).to.be.lessThan(2_000);
        await expectMatchesSpec(body, 'getCpet', 503);
      }
    } finally {
      redis.resume();
    }
    const deadline = Date.now() + 20_000;
    for (const server of [a, b]) {
      while ((await fetch(`${server.base}/v1/cpet/${id}`, { headers: { 'X-API-Key': key } })).status !== 200) {
        if (Date.now() > deadline) throw new Error(`${server.base} did not serve again after Redis answered`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });

  it('answers 503 in the error shape within 2 s while Redis is down, bills nothing abandoned, and resumes when it returns', async () => {
    const key = await newKey(1000);
    const id = await uploadSample(a, key);
    const units = async (server: ServerProcess): Promise<number> =>
      ((await (await fetch(`${server.base}/v1/capabilities`, { headers: { 'X-API-Key': key } })).json()) as { usage: { units_used: number } }).usage.units_used;
    const before = await units(a);

    await redis.stop();
    for (const server of [a, b]) {
      for (const [operation, call] of [
        ['getCpet', () => fetch(`${server.base}/v1/cpet/${id}`, { headers: { 'X-API-Key': key } })],
        ['computeMetrics', () => post(server, `/v1/cpet/${id}/compute`, key, { metrics: ['vo2max'] })],
        ['createUploadTickets', () => post(server, '/v1/uploads', key, {})],
        ['getReady', () => fetch(`${server.base}/ready`)],
      ] as const) {
        const started = Date.now();
        const res = await call();
        const ms = Date.now() - started;
        const body = (await res.json()) as { error: string };
        expect(res.status, `${operation} ${JSON.stringify(body)}`).to.equal(503);
        expect(ms, operation).to.be.lessThan(2_000);
        await expectMatchesSpec(body, operation, 503);
      }
      expect((await fetch(`${server.base}/health`)).status).to.equal(200);
    }

    await redis.start();
    const deadline = Date.now() + 20_000;
    for (const server of [a, b]) {
      while ((await fetch(`${server.base}/ready`)).status !== 200) {
        if (Date.now() > deadline) throw new Error(`${server.base} did not become ready after Redis returned`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    expect((await fetch(`${b.base}/v1/cpet/${id}`, { headers: { 'X-API-Key': key } })).status).to.equal(200);
    expect(await units(a), 'nothing refused during the outage was billed when Redis returned').to.equal(before);
    expect((await post(b, `/v1/cpet/${id}/compute`, key, { metrics: ['vo2max'] })).status).to.equal(200);
    expect(await units(b)).to.equal(before + 1);
  });
});
