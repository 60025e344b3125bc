/**
 * Walks every error path of every operation the service can be driven into from outside, and holds
 * each answer to the OpenAPI response schema of that operation and status: the error shape, the
 * code's enum for that response, and its `context` schema. The last test checks that the walk met
 * every error code that can be reached without a fault (faults: regressions, fuzz and Redis tests).
 */
import { expect } from 'chai';
import request from 'supertest';
import type { Config } from '../../src/config.js';
import { ERROR_STATUS, serviceUnavailable } from '../../src/errors.js';
import { loadApiDocument } from '../../src/openapi/document.js';
import { createSchemaChecker } from '../../src/openapi/schema-check.js';
import { createService, type Service } from '../../src/server/app.js';
import { openStore, type Store } from '../../src/store/store.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Call = (app: Harness['service']['app']) => request.Test;

interface ErrorPath {
  operation: string;
  status: number;
  code: string;
  call: Call;
}

describe('every error path against its OpenAPI response schema', function () {
  this.timeout(120_000);
  const sample = generateSample(false);
  const seen = new Set<string>();
  let h: Harness;
  let key: string;
  let id: string;
  let expiredKey: string;
  let vtOnly: string;
  let capped: string;
  let cappedId: string;
  let limited: Harness;
  let limitedKey: string;

  before(async () => {
    h = await startHarness({ store: 'sqlite', workers: 1 });
    key = await h.key();
    expiredKey = await h.key({ expires_at: '2000-01-01' });
    vtOnly = await h.key({ products: ['vt'] });
    capped = await h.key({ monthly_limit: 1 });
    id = (await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: sample.filename, content: sample.content }).expect(200)).body.cpet_id;
    cappedId = (await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', capped).send({ filename: sample.filename, content: sample.content }).expect(200)).body.cpet_id;
    await request(h.service.app)
      .post(`/v1/cpet/${cappedId}/compute`)
      .set('X-API-Key', capped)
      .send({ metrics: ['vo2max'] })
      .expect(200);
    limited = await startHarness({ store: 'sqlite', rateLimitPerMinute: 1 });
    limitedKey = await limited.key();
    await request(limited.service.app).get('/v1/capabilities').set('X-API-Key', limitedKey).expect(200);
  });
  after(async () => {
    await h.close();
    await limited.close();
  });

  const ticketPath = async (): Promise<string> => new URL((await request(h.service.app).post('/v1/uploads').set('X-API-Key', key).send({}).expect(200)).body.upload_url).pathname;
  const json =
    (k: () => string, path: () => string, body: unknown): Call =>
    (app) =>
      request(app)
        .post(path())
        .set('X-API-Key', k())
        .send(body as object);

  const paths = (): ErrorPath[] => [
    { operation: 'getCapabilities', status: 401, code: 'MISSING_API_KEY', call: (app) => request(app).get('/v1/capabilities') },
    {
      operation: 'getCapabilities',
      status: 403,
      code: 'INVALID_API_KEY',
      call: (app) =>
        request(app)
          .get('/v1/capabilities')
          .set('X-API-Key', `cpet_0000000000000000_${'a'.repeat(43)}`),
    },
    { operation: 'getCapabilities', status: 403, code: 'KEY_EXPIRED', call: (app) => request(app).get('/v1/capabilities').set('X-API-Key', expiredKey) },
    {
      operation: 'uploadCpetContent',
      status: 413,
      code: 'RECORDING_TOO_LONG',
      call: json(
        () => key,
        () => '/v1/cpet/content',
        { filename: 'r.json', content: JSON.stringify({ format: 'cpet-canonical/1', time_s: [0, 1, 1e6], channels: { VE: [10, 11, 12] } }) },
      ),
    },
    {
      operation: 'uploadCpetContent',
      status: 422,
      code: 'UNSUPPORTED_FORMAT',
      call: json(
        () => key,
        () => '/v1/cpet/content',
        { filename: 'notes.txt', content: 'hello' },
      ),
    },
    {
      operation: 'uploadCpetContent',
      status: 422,
      code: 'PARSER_ERROR',
      call: json(
        () => key,
        () => '/v1/cpet/content',
        { filename: 'r.json', content: '{"format":"cpet-canonical/1","time_s":"x"}' },
      ),
    },
    {
      operation: 'uploadCpetContent',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: json(
        () => key,
        () => '/v1/cpet/content',
        { filename: 'r.json' },
      ),
    },
    {
      operation: 'uploadCpetContent',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: (app) => request(app).post('/v1/cpet/content').set('X-API-Key', key).set('Content-Type', 'application/json').send('{"filename":'),
    },
    {
      operation: 'uploadCpetMultipart',
      status: 413,
      code: 'FILE_TOO_LARGE',
      call: (app) =>
        request(app)
          .post('/v1/cpet')
          .set('X-API-Key', key)
          .attach('file', Buffer.alloc(25 * 1024 * 1024 + 1), 'big.txt'),
    },
    { operation: 'uploadCpetMultipart', status: 422, code: 'VALIDATION_ERROR', call: (app) => request(app).post('/v1/cpet').set('X-API-Key', key).field('retain_hours', '2') },
    {
      operation: 'uploadCpetMultipart',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: (app) => request(app).post('/v1/cpet').set('X-API-Key', key).field('retain_hours', '999').attach('file', Buffer.from(sample.content), sample.filename),
    },
    {
      operation: 'uploadCpetMultipart',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: (app) => request(app).post('/v1/cpet').set('X-API-Key', key).set('Content-Type', 'multipart/form-data').send('no boundary'),
    },
    {
      operation: 'uploadCpetMultipart',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: (app) => request(app).post('/v1/cpet').set('X-API-Key', key).set('Content-Type', 'multipart/form-data; boundary=x').send('--x\r\nbroken header\r\n\r\nabc\r\n--x--'),
    },
    {
      operation: 'uploadCpetMultipart',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: (app) =>
        request(app)
          .post('/v1/cpet')
          .set('X-API-Key', key)
          .set('Content-Type', 'multipart/form-data; boundary=x')
          .send('--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc'),
    },
    {
      operation: 'createUploadTickets',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: json(
        () => key,
        () => '/v1/uploads',
        { count: 0 },
      ),
    },
    { operation: 'getCpet', status: 404, code: 'CPET_NOT_FOUND', call: (app) => request(app).get('/v1/cpet/nope').set('X-API-Key', key) },
    { operation: 'deleteCpet', status: 404, code: 'CPET_NOT_FOUND', call: (app) => request(app).delete('/v1/cpet/nope').set('X-API-Key', key) },
    { operation: 'getCpetSeries', status: 422, code: 'VALIDATION_ERROR', call: (app) => request(app).get(`/v1/cpet/${id}/series?channels=NOPE`).set('X-API-Key', key) },
    { operation: 'getCpetSeries', status: 422, code: 'VALIDATION_ERROR', call: (app) => request(app).get(`/v1/cpet/${id}/series?max_points=9000`).set('X-API-Key', key) },
    { operation: 'getCpetSeries', status: 404, code: 'CPET_NOT_FOUND', call: (app) => request(app).get('/v1/cpet/nope/series').set('X-API-Key', key) },
    { operation: 'exportCpet', status: 404, code: 'CPET_NOT_FOUND', call: (app) => request(app).get('/v1/cpet/nope/export').set('X-API-Key', key) },
    { operation: 'exportCpet', status: 422, code: 'VALIDATION_ERROR', call: (app) => request(app).get(`/v1/cpet/${id}/export?resample=1s&averaging=time_bins&window_s=30`).set('X-API-Key', key) },
    { operation: 'exportCpet', status: 422, code: 'VALIDATION_ERROR', call: (app) => request(app).get(`/v1/cpet/${id}/export?averaging=time_bins&breaths=3&window_s=30`).set('X-API-Key', key) },
    {
      operation: 'computeMetrics',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: json(
        () => key,
        () => `/v1/cpet/${id}/compute`,
        { metrics: ['vo2max'], averaging: { kind: 'rolling_breaths', window_s: 30 } },
      ),
    },
    {
      operation: 'analyzeCpet',
      status: 422,
      code: 'UNKNOWN_ANALYSIS',
      call: json(
        () => key,
        () => `/v1/cpet/${id}/analyze`,
        { analyses: ['signal'] },
      ),
    },
    {
      operation: 'analyzeCpet',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: json(
        () => key,
        () => `/v1/cpet/${id}/analyze`,
        { analysis: ['vt'] },
      ),
    },
    {
      operation: 'analyzeCpet',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: json(
        () => key,
        () => `/v1/cpet/${id}/analyze`,
        { medications: ['x'.repeat(100_000)] },
      ),
    },
    {
      operation: 'analyzeCpet',
      status: 403,
      code: 'PRODUCT_NOT_ENABLED',
      call: json(
        () => vtOnly,
        () => `/v1/cpet/${id}/analyze`,
        { analyses: ['eov'] },
      ),
    },
    {
      operation: 'analyzeCpet',
      status: 404,
      code: 'CPET_NOT_FOUND',
      call: json(
        () => key,
        () => '/v1/cpet/nope/analyze',
        { analyses: ['vt'] },
      ),
    },
    {
      operation: 'analyzeCpet',
      status: 429,
      code: 'QUOTA_EXCEEDED',
      call: json(
        () => capped,
        () => `/v1/cpet/${cappedId}/analyze`,
        { analyses: ['vt'] },
      ),
    },
    {
      operation: 'computeMetrics',
      status: 422,
      code: 'VALIDATION_ERROR',
      call: json(
        () => key,
        () => `/v1/cpet/${id}/compute`,
        { metrics: Array.from({ length: 500 }, (_, i) => `nope${i}`) },
      ),
    },
    {
      operation: 'computeMetrics',
      status: 404,
      code: 'CPET_NOT_FOUND',
      call: json(
        () => key,
        () => '/v1/cpet/nope/compute',
        { metrics: ['vo2max'] },
      ),
    },
    { operation: 'listMetrics', status: 401, code: 'MISSING_API_KEY', call: (app) => request(app).get('/v1/metrics') },
    { operation: 'listFormats', status: 403, code: 'INVALID_API_KEY', call: (app) => request(app).get('/v1/formats').set('X-API-Key', 'nope') },
    { operation: 'getSample', status: 422, code: 'VALIDATION_ERROR', call: (app) => request(app).get('/v1/sample?oscillating=maybe') },
    { operation: 'createWebSession', status: 403, code: 'CSRF_REJECTED', call: (app) => request(app).post('/v1/web/session').set('X-API-Key', key).set('Sec-Fetch-Site', 'cross-site') },
    { operation: 'endWebSession', status: 401, code: 'WEB_SESSION_REQUIRED', call: (app) => request(app).delete('/v1/web/session') },
    { operation: 'listWebModels', status: 401, code: 'WEB_SESSION_REQUIRED', call: (app) => request(app).get('/v1/web/models').set('X-API-Key', key) },
    { operation: 'getWebDomains', status: 401, code: 'WEB_SESSION_REQUIRED', call: (app) => request(app).get(`/v1/web/cpet/${id}/domains`) },
    { operation: 'analyzeWeb', status: 401, code: 'WEB_SESSION_REQUIRED', call: (app) => request(app).post(`/v1/web/cpet/${id}/analyze`).send({}) },
  ];

  it('answers each error path with a body its operation documents for that status', async () => {
    for (const path of paths()) {
      const res = await path.call(h.service.app);
      const where = `${path.operation} ${path.code}: ${JSON.stringify(res.body).slice(0, 300)}`;
      expect(res.status, where).to.equal(path.status);
      expect(res.body.error, where).to.equal(path.code);
      expect(res.text.length, `${where}: the answer stays small`).to.be.lessThan(8192);
      await expectMatchesSpec(res.body, path.operation, res.status);
      seen.add(res.body.error);
    }
  });

  it('answers the ticket route and its refusals as documented', async () => {
    const bad = await request(h.service.app).post('/v1/uploads/x.y').attach('file', Buffer.from(sample.content), sample.filename).expect(403);
    await expectMatchesSpec(bad.body, 'postTicketUpload', 403);
    const wrong = await request(h.service.app)
      .post(await ticketPath())
      .attach('file', Buffer.from('hello'), 'a.txt')
      .expect(422);
    await expectMatchesSpec(wrong.body, 'postTicketUpload', 422);
    const none = await request(h.service.app)
      .post(await ticketPath())
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(0))
      .expect(422);
    await expectMatchesSpec(none.body, 'postTicketUpload', 422);
    const big = await request(h.service.app)
      .post(await ticketPath())
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(25 * 1024 * 1024 + 1))
      .expect(413);
    await expectMatchesSpec(big.body, 'postTicketUpload', 413);
    const saved = process.env.TICKET_SECRET;
    process.env.TICKET_SECRET = 'short';
    try {
      const res = await request(h.service.app).post('/v1/uploads').set('X-API-Key', key).send({}).expect(503);
      await expectMatchesSpec(res.body, 'createUploadTickets', 503);
    } finally {
      if (saved === undefined) delete process.env.TICKET_SECRET;
      else process.env.TICKET_SECRET = saved;
    }
    for (const res of [bad, wrong, none, big]) seen.add(res.body.error);
    seen.add('UPLOAD_TICKETS_UNAVAILABLE');
  });

  it('answers 429 RATE_LIMITED with Retry-After and the RateLimit headers', async () => {
    const res = await request(limited.service.app).get('/v1/capabilities').set('X-API-Key', limitedKey).expect(429);
    await expectMatchesSpec(res.body, 'getCapabilities', 429);
    expect(res.headers['retry-after']).to.match(/^\d+$/);
    expect(res.headers['ratelimit-limit']).to.equal('1');
    expect(res.headers['ratelimit-remaining']).to.equal('0');
    expect(Number(res.headers['ratelimit-reset'])).to.be.within(1, 60);
    seen.add(res.body.error);
  });

  it('answers a path whose percent-encoding does not decode with 400 MALFORMED_REQUEST, on every kind of route', async () => {
    const checker = createSchemaChecker(loadApiDocument());
    for (const path of ['/v1/cpet/%E0%A4%A', '/v1/cpet/%ZZ/analyze', '/v1/uploads/%E0%A4%A', '/nowhere/%E0']) {
      const res = await request(h.service.app).post(path).set('X-API-Key', key).send({});
      expect(res.status, path).to.equal(400);
      expect(res.body.error).to.equal('MALFORMED_REQUEST');
      expect(checker.schema('Error', res.body)).to.deep.equal([]);
      seen.add(res.body.error);
    }
  });

  it('answers unknown routes and wrong methods in the error shape', async () => {
    const missing = await request(h.service.app)
      .get(`/v1/${'x'.repeat(5000)}`)
      .expect(404);
    expect(missing.body.error).to.equal('NOT_FOUND');
    expect(missing.text.length).to.be.lessThan(2048);
    const wrong = await request(h.service.app).put('/v1/capabilities').expect(405);
    expect(wrong.body.error).to.equal('METHOD_NOT_ALLOWED');
    seen.add('NOT_FOUND').add('METHOD_NOT_ALLOWED');
  });

  it('answers /ready 503 while draining, in the documented shape', async () => {
    const ok = await request(h.service.app).get('/ready').expect(200);
    await expectMatchesSpec(ok.body, 'getReady', 200);
    h.service.deps.lifecycle.draining = true;
    try {
      const res = await request(h.service.app).get('/ready').expect(503);
      await expectMatchesSpec(res.body, 'getReady', 503);
      expect(res.body.context.checks.shutting_down).to.equal(true);
      expect(res.headers.connection).to.equal('close');
    } finally {
      h.service.deps.lifecycle.draining = false;
    }
  });

  describe('with a store that stops answering', () => {
    let service: Service;
    let store: Store;
    let dataDir: string;
    const state = { down: false };

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'cpet-down-'));
      const real = await openStore({ dataDir, namespace: 'down' });
      const failing = <T extends object>(target: T): T => {
        const out = { ...target } as Record<string, unknown>;
        for (const [name, fn] of Object.entries(target)) {
          if (typeof fn !== 'function' || name === 'close') continue;
          out[name] = (...args: unknown[]) => {
            if (state.down) return Promise.reject(serviceUnavailable('The shared store (Redis) did not answer in time.', 'store_unavailable', 2));
            return (fn as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return out as T;
      };
      store = { ...failing(real), kind: real.kind, keys: failing(real.keys), close: () => real.close() };
      const config: Config = {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        redisUrl: null,
        rateLimitPerMinute: 100,
        workers: 0,
        publicBaseUrl: null,
        formatPackages: [],
        now: Date.now,
        operations: { logLevel: 'silent' },
      };
      service = await createService(config, { store });
    });
    after(async () => {
      await service.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers 503 SERVICE_UNAVAILABLE with Retry-After on keyed routes and the ticket route', async () => {
      const { key: k } = await store.keys.create({ name: 'down', tier: 'research', products: ['vt', 'eov', 'substrate'] });
      state.down = true;
      try {
        const cases: [string, request.Test][] = [
          ['getCapabilities', request(service.app).get('/v1/capabilities').set('X-API-Key', k)],
          ['uploadCpetContent', request(service.app).post('/v1/cpet/content').set('X-API-Key', k).send({ filename: sample.filename, content: sample.content })],
          ['getCpet', request(service.app).get('/v1/cpet/x').set('X-API-Key', k)],
          ['postTicketUpload', request(service.app).post('/v1/uploads/x.y').attach('file', Buffer.from('x'), 'x.txt')],
          ['getReady', request(service.app).get('/ready')],
        ];
        for (const [operation, call] of cases) {
          const res = await call;
          expect(res.status, `${operation} ${JSON.stringify(res.body)}`).to.equal(503);
          await expectMatchesSpec(res.body, operation, res.status);
          expect(res.headers['retry-after'], operation).to.match(/^\d+$/);
        }
        seen.add('SERVICE_UNAVAILABLE');
      } finally {
        state.down = false;
      }
    });
  });

  describe('coverage', () => {
    it('met every error code that can be reached without a fault, a crash or another build', () => {
      const unreachableHere = ['REQUEST_HEADERS_TOO_LARGE', 'INTERNAL_ERROR', 'INFERENCE_FAILED', 'TIER_INSUFFICIENT', 'MODEL_NOT_ALLOWED', 'MODEL_NOT_FOUND'];
      const expected = Object.keys(ERROR_STATUS).filter((c) => !unreachableHere.includes(c));
      expect(expected.filter((c) => !seen.has(c))).to.deep.equal([]);
    });
  });
});
