/**
 * What an operator sees (issue 14, items 3 and 4): one JSON access line per request with the route
 * template, status, duration and key id (never the key, a record id or file content), X-Request-Id
 * accepted or generated and echoed, Prometheus metrics, security headers on every answer, CORS only
 * for configured origins, and the first-start key kept out of a non-interactive run's output.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import type { Config } from '../../src/config.js';
import { createService, type Service } from '../../src/server/app.js';
import { createLogger } from '../../src/server/logger.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { ensureBuilt, startServer } from './processes.js';

describe('logs, request ids, metrics and headers', function () {
  this.timeout(120_000);
  const sample = generateSample(false);
  const lines: Record<string, unknown>[] = [];
  let service: Service;
  let dataDir: string;
  let key: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cpet-obs-'));
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    const config: Config = {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      redisUrl: null,
      rateLimitPerMinute: 100,
      workers: 1,
      publicBaseUrl: null,
      formatPackages: [],
      now: Date.now,
      operations: { corsOrigins: ['https://lab.example.org'] },
    };
    service = await createService(config, { logger: createLogger('info', sink) });
    key = (await service.deps.store.keys.create({ name: 'obs', tier: 'research', products: ['vt', 'eov', 'substrate'] })).key;
  });
  after(async () => {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const accessLines = () => lines.filter((l) => l.msg === 'request');

  it('writes one access line per request with the route template and key id, never the key, the id or the content', async () => {
    const up = await request(service.app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: sample.filename, content: sample.content }).expect(200);
    const id = up.body.cpet_id as string;
    await request(service.app).get(`/v1/cpet/${id}`).set('X-API-Key', key).expect(200);
    await request(service.app).get('/v1/cpet/nope').set('X-API-Key', key).expect(404);
    await new Promise((r) => setImmediate(r));
    const seen = accessLines().slice(-3);
    expect(seen.map((l) => [l.method, l.route, l.status])).to.deep.equal([
      ['POST', '/v1/cpet/content', 200],
      ['GET', '/v1/cpet/{cpet_id}', 200],
      ['GET', '/v1/cpet/{cpet_id}', 404],
    ]);
    const keyId = key.split('_')[1];
    for (const line of seen) {
      expect(line.key_id).to.equal(keyId);
      expect(line.duration_ms).to.be.a('number');
      expect(line.request_id).to.be.a('string');
    }
    expect(seen[2].error).to.equal('CPET_NOT_FOUND');
    const text = JSON.stringify(lines);
    expect(text).to.not.contain(key);
    expect(text).to.not.contain(id);
    expect(text).to.not.contain(sample.content.slice(0, 40));
  });

  it('echoes a sane X-Request-Id and replaces anything else with a new one', async () => {
    const mine = await request(service.app).get('/health').set('X-Request-Id', 'lab-42.retry:1').expect(200);
    expect(mine.headers['x-request-id']).to.equal('lab-42.retry:1');
    const bad = await request(service.app).get('/health').set('X-Request-Id', 'x'.repeat(500)).expect(200);
    expect(bad.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    const none = await request(service.app).get('/health').expect(200);
    expect(none.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setImmediate(r));
    expect(accessLines().at(-3)?.request_id).to.equal('lab-42.retry:1');
  });

  it('serves Prometheus metrics: requests by route and status, analysis latency by model, the worker queue, uploads by format', async () => {
    const up = await request(service.app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: sample.filename, content: sample.content }).expect(200);
    await request(service.app)
      .post(`/v1/cpet/${up.body.cpet_id}/analyze`)
      .set('X-API-Key', key)
      .send({ analyses: ['vt'] })
      .expect(200);
    const res = await request(service.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.match(/cpet_http_requests_total\{method="POST",route="\/v1\/cpet\/content",status="200"\} \d+/);
    expect(res.text).to.match(/cpet_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/health",status="200"\}/);
    expect(res.text).to.match(/cpet_analysis_duration_seconds_count\{analysis="vt",model="[a-z-]+",status="(ok|not_analysable)"\} 1/);
    expect(res.text).to.match(/cpet_uploads_total\{format="canonical-json"\} \d+/);
    expect(res.text).to.contain('cpet_worker_queue_depth 0');
    expect(res.text).to.contain('cpet_store_errors_total');
    expect(res.text).to.contain('process_resident_memory_bytes');
    expect(res.text).to.not.contain(up.body.cpet_id);
  });

  it('puts the security headers on every answer, and never lets a shared cache keep one', async () => {
    for (const path of ['/health', '/v1/openapi.json', '/nope']) {
      const res = await request(service.app).get(path);
      expect(res.headers['x-content-type-options'], path).to.equal('nosniff');
      expect(res.headers['x-frame-options'], path).to.equal('DENY');
      expect(res.headers['referrer-policy'], path).to.equal('no-referrer');
      expect(res.headers['content-security-policy'], path).to.contain("frame-ancestors 'none'");
      expect(res.headers['cache-control'], path).to.equal('no-store');
    }
  });

  it('answers CORS for a configured origin only, and never on the web application routes', async () => {
    const pre = await request(service.app).options('/v1/capabilities').set('Origin', 'https://lab.example.org').set('Access-Control-Request-Method', 'GET').expect(204);
    expect(pre.headers['access-control-allow-origin']).to.equal('https://lab.example.org');
    expect(pre.headers['access-control-allow-headers']).to.contain('X-API-Key');
    const ok = await request(service.app).get('/v1/capabilities').set('Origin', 'https://lab.example.org').set('X-API-Key', key).expect(200);
    expect(ok.headers['access-control-expose-headers']).to.contain('RateLimit-Remaining');
    const other = await request(service.app).get('/v1/capabilities').set('Origin', 'https://evil.example.com').set('X-API-Key', key).expect(200);
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    const web = await request(service.app).options('/v1/web/session').set('Origin', 'https://lab.example.org').set('Access-Control-Request-Method', 'POST');
    expect(web.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('sends RateLimit headers on keyed answers', async () => {
    const res = await request(service.app).get('/v1/capabilities').set('X-API-Key', key).expect(200);
    expect(res.headers['ratelimit-limit']).to.equal('100');
    expect(Number(res.headers['ratelimit-remaining'])).to.be.within(0, 99);
    expect(Number(res.headers['ratelimit-reset'])).to.be.within(1, 60);
  });

  it('writes the first-start key to its file only when stdout is not a terminal', async () => {
    await ensureBuilt();
    const server = await startServer({ CORS_ORIGINS: '' });
    try {
      const key = readFileSync(join(server.dataDir, 'local-api-key'), 'utf8').trim();
      server.child.kill('SIGTERM');
      await server.exited;
      const output = JSON.stringify(server.logs());
      expect(output).to.not.contain(key);
      expect(output).to.contain(join(server.dataDir, 'local-api-key'));
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });
});
