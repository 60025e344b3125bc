/**
 * No charge without a result (issue 20, item 2): Redis (the test's own redis-server) frozen with
 * SIGSTOP at moments spread over an analysis: before its hold, during its work, as it settles. Every
 * 503 leaves the units billed unchanged, also after Redis wakes and runs what it had received; every
 * 200 bills exactly its ok analyses.
 */
import { expect } from 'chai';
import { openStore, type Store } from '../../src/store/store.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { ensureBuilt, hasRedisServer, startRedis, startServer, type RedisProcess, type ServerProcess } from './processes.js';

describe('billing while Redis freezes mid-request', function () {
  this.timeout(240_000);
  const sample = generateSample(false);
  let redis: RedisProcess;
  let server: ServerProcess;
  let store: Store;

  before(async function () {
    if (!hasRedisServer()) this.skip();
    await ensureBuilt();
    redis = await startRedis();
    server = await startServer({ REDIS_URL: redis.url(0), WORKERS: '1', STORE_TIMEOUT_MS: '1000' });
    store = await openStore({ dataDir: server.dataDir, redisUrl: redis.url(0) });
  });
  after(async () => {
    redis?.resume();
    await store?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await redis?.stop();
  });

  it('bills every 200 its ok analyses and every 503 nothing', async () => {
    const key = (await store.keys.create({ name: 'billing', tier: 'research', products: ['vt', 'eov', 'substrate'], monthly_limit: 10_000 })).key;
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const up = await fetch(`${server.base}/v1/cpet/content`, { method: 'POST', headers, body: JSON.stringify({ filename: sample.filename, content: sample.content }) });
    const id = ((await up.json()) as { cpet_id: string }).cpet_id;
    const unitsUsed = async (): Promise<number> => {
      for (;;) {
        const res = await fetch(`${server.base}/v1/capabilities`, { headers: { 'X-API-Key': key } });
        if (res.status === 200) return ((await res.json()) as { usage: { units_used: number } }).usage.units_used;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    // How long one analysis takes here, so the freezes fall before, inside and after its work.
    const timed = Date.now();
    expect((await fetch(`${server.base}/v1/cpet/${id}/analyze`, { method: 'POST', headers, body: JSON.stringify({ analyses: ['vt', 'substrate'] }) })).status).to.equal(200);
    const analysisMs = Date.now() - timed;

    const statuses: number[] = [];
    const trials = 10;
    for (let i = 0; i < trials; i++) {
      const before = await unitsUsed();
      const answer = fetch(`${server.base}/v1/cpet/${id}/analyze`, { method: 'POST', headers, body: JSON.stringify({ analyses: ['vt', 'substrate'] }) }).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { results?: { status: string }[] },
      }));
      await new Promise((r) => setTimeout(r, Math.round((analysisMs * 1.2 * i) / (trials - 1))));
      redis.pause();
      const { status, body } = await answer;
      // Frozen past the store's 1-s timeout, then awake: whatever it had received runs now.
      await new Promise((r) => setTimeout(r, 1_200));
      redis.resume();
      await new Promise((r) => setTimeout(r, 300));
      const after = await unitsUsed();
      statuses.push(status);
      if (status === 200) expect(after - before, `trial ${i}: a 200 bills its ok analyses`).to.equal(body.results?.filter((r) => r.status === 'ok').length);
      else expect([status, after], `trial ${i}: a ${status} bills nothing`).to.deep.equal([503, before]);
    }
    // The freezes fell both sides of the settle: some answers were 503s, some 200s.
    expect(statuses, JSON.stringify(statuses)).to.include(503);
    expect(statuses, JSON.stringify(statuses)).to.include(200);
  });
});
