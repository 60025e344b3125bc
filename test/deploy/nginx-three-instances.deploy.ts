/**
 * A real deployment (issue 20, item 6): Debian's nginx, configured from deploy/nginx.conf.template
 * as compose's proxy is, in front of three instances on one Redis (the test's own redis-server).
 * Under a continuous, bounded loopback load from the test (uploads and analyses through nginx):
 * a rolling SIGTERM restart of every instance, one instance SIGKILLed mid-request, Redis restarted.
 * Every request's outcome is counted; a 503 with Retry-After counts as an honest answer; every
 * acknowledged upload is read back at the end. Minutes long, so not in `npm test`: `npm run test:deploy`
 * (needs nginx and redis-server; pending without them).
 */
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderNginx } from '../../deploy/render-nginx.mjs';
import { openStore, type Store } from '../../src/store/store.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { ensureBuilt, freePort, hasRedisServer, startRedis, startServer, type RedisProcess, type ServerProcess } from '../server/processes.js';

const NGINX = '/usr/sbin/nginx';
/** Requests the load keeps in flight at once. */
const CONCURRENCY = 4;

interface Tally {
  ok: number;
  /** 503 with Retry-After: refused honestly, nothing done. */
  honest503: number;
  /** Anything else: a reset, a 502, a 503 without Retry-After, an unexpected status. */
  failed: string[];
}

const tally = (): Tally => ({ ok: 0, honest503: 0, failed: [] });

describe('nginx in front of three instances on one Redis', function () {
  this.timeout(300_000);
  const sample = generateSample(false);
  let redis: RedisProcess;
  let store: Store;
  const instances: ServerProcess[] = [];
  const ports: number[] = [];
  let nginx: ChildProcess | undefined;
  let nginxDir = '';
  let base = '';
  let env: Record<string, string> = {};

  before(async function () {
    if (!hasRedisServer() || spawnSync(NGINX, ['-v']).status !== 0) this.skip();
    await ensureBuilt();
    redis = await startRedis();
    env = { REDIS_URL: redis.url(0), WORKERS: '1', STORE_TIMEOUT_MS: '5000', TICKET_SECRET: 'deployment-test-secret-of-at-least-32-characters' };
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    for (const port of ports) instances.push(await startServer({ ...env, PORT: String(port) }));
    store = await openStore({ dataDir: instances[0].dataDir, redisUrl: redis.url(0) });

    nginxDir = mkdtempSync(join(tmpdir(), 'cpet-nginx-'));
    const listen = await freePort();
    writeFileSync(
      join(nginxDir, 'cpet.conf'),
      renderNginx({ CPET_UPSTREAM_SERVERS: ports.map((p) => `server 127.0.0.1:${p} max_fails=2 fail_timeout=5s;`).join('\n    '), CPET_LISTEN: `127.0.0.1:${listen}` }),
    );
    // Debian's nginx as an unprivileged-style foreground process: every path inside the test's folder.
    writeFileSync(
      join(nginxDir, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${nginxDir}/nginx.pid;`,
        `error_log ${nginxDir}/error.log warn;`,
        'events { worker_connections 512; }',
        'http {',
        `  access_log ${nginxDir}/access.log;`,
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${nginxDir}/${t};`),
        `  include ${nginxDir}/cpet.conf;`,
        '}',
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', nginxDir, '-c', join(nginxDir, 'nginx.conf')], { stdio: 'ignore' });
    base = `http://127.0.0.1:${listen}`;
    const deadline = Date.now() + 20_000;
    while (
      !(await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('nginx did not answer');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  after(async () => {
    await store?.close();
    if (nginx && nginx.exitCode === null) {
      const gone = new Promise((r) => nginx?.once('exit', r));
      nginx.kill('SIGTERM');
      await gone;
    }
    for (const s of instances) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGKILL');
        await s.exited;
      }
    }
    await redis?.stop();
    if (nginxDir) rmSync(nginxDir, { recursive: true, force: true });
  });

  it('answers every request through a rolling restart, a SIGKILL and a Redis restart, and keeps every acknowledged upload', async () => {
    const key = (await store.keys.create({ name: 'deploy', tier: 'research', products: ['vt', 'eov', 'substrate'] })).key;
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const uploadBody = JSON.stringify({ filename: sample.filename, content: sample.content });
    const first = await fetch(`${base}/v1/cpet/content`, { method: 'POST', headers, body: uploadBody });
    const id = ((await first.json()) as { cpet_id: string }).cpet_id;
    const acknowledged: string[] = [id];

    let phase: Tally = tally();
    let running = true;
    let sent = 0;
    const one = async (i: number): Promise<void> => {
      const counted = phase;
      try {
        const res =
          i % 2 === 0
            ? await fetch(`${base}/v1/cpet/content`, { method: 'POST', headers, body: uploadBody })
            : await fetch(`${base}/v1/cpet/${id}/analyze`, { method: 'POST', headers, body: JSON.stringify({ analyses: ['vt'] }) });
        const body = (await res.json().catch(() => ({}))) as { cpet_id?: string };
        if (res.status === 200) {
          counted.ok++;
          if (i % 2 === 0 && body.cpet_id) acknowledged.push(body.cpet_id);
        } else if (res.status === 503 && res.headers.get('retry-after')) counted.honest503++;
        else counted.failed.push(`${res.status} ${JSON.stringify(body).slice(0, 120)}`);
      } catch (err) {
        counted.failed.push(String((err as Error).cause ?? (err as Error).message));
      }
    };
    const loops = Array.from({ length: CONCURRENCY }, async () => {
      while (running) await one(sent++);
    });
    const settle = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const outcome: Record<string, Tally> = {};
    const during = async (name: string, action: () => Promise<void>): Promise<void> => {
      phase = tally();
      outcome[name] = phase;
      await action();
      await settle(1_500);
    };

    await during('steady', () => settle(3_000));
    await during('rolling SIGTERM restart', async () => {
      for (let i = 0; i < instances.length; i++) {
        instances[i].child.kill('SIGTERM');
        expect(await instances[i].exited, `instance ${i} exits 0 after its drain`).to.equal(0);
        instances[i] = await startServer({ ...env, PORT: String(ports[i]) }, instances[i].dataDir);
      }
    });
    let inFlightAtKill = 0;
    await during('one instance SIGKILLed', async () => {
      inFlightAtKill = CONCURRENCY;
      instances[1].child.kill('SIGKILL');
      await instances[1].exited;
      await settle(2_000);
      instances[1] = await startServer({ ...env, PORT: String(ports[1]) }, instances[1].dataDir);
    });
    await during('Redis restarted', async () => {
      await redis.stop();
      await settle(1_000);
      await redis.start();
    });
    running = false;
    await Promise.all(loops);

    // The figures the README's Deploy section quotes.
    process.stdout.write(`      ${JSON.stringify(Object.fromEntries(Object.entries(outcome).map(([k, t]) => [k, { ok: t.ok, honest503: t.honest503, failed: t.failed }])))}\n`);
    for (const name of ['steady', 'rolling SIGTERM restart', 'Redis restarted']) {
      expect(outcome[name].failed, `${name}: ${JSON.stringify(outcome[name].failed)}`).to.deep.equal([]);
      expect(outcome[name].ok, `${name}: requests were served`).to.be.greaterThan(0);
    }
    expect(outcome['one instance SIGKILLed'].failed.length, JSON.stringify(outcome['one instance SIGKILLed'].failed)).to.be.at.most(inFlightAtKill);

    const lost: string[] = [];
    for (const cpetId of acknowledged) {
      const res = await fetch(`${base}/v1/cpet/${cpetId}`, { headers: { 'X-API-Key': key } });
      if (res.status !== 200) lost.push(`${cpetId}: ${res.status}`);
    }
    expect(lost, `of ${acknowledged.length} acknowledged uploads`).to.deep.equal([]);
  });
});
