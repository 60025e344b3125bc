/**
 * Every defect issue 14 reproduced by hand, as a test that failed before its fix: unbounded clock
 * spans, a burned ticket after a wrong file, a damaged xlsx's context, bodies read before
 * authentication, the quota bypassed by concurrency, deep JSON, huge recordings, echoed bodies,
 * empty 431 answers, world-readable data and the key on stdout.
 */
import { expect } from 'chai';
import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { loadApiDocument } from '../../src/openapi/document.js';
import { createSchemaChecker } from '../../src/openapi/schema-check.js';
import { serve, type Running } from '../../src/server/lifecycle.js';
import { ensureLocalKey } from '../../src/store/bootstrap-key.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { CANONICAL_FORMAT_MARKER } from '../../src/formats/recovery.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

const MB = 1024 * 1024;

/** A canonical JSON recording with `n` samples whose clock is `stamp(i)`. */
function canonical(n: number, stamp: (i: number) => number): string {
  const time_s = Array.from({ length: n }, (_, i) => stamp(i));
  const flow = (base: number) => Array.from({ length: n }, (_, i) => base + (i % 50));
  return JSON.stringify({ format: CANONICAL_FORMAT_MARKER, time_s, channels: { VO2: flow(800), VCO2: flow(700), VE: flow(20) } });
}

/** Sends a request by hand, writing `firstChunk` of a body announced as `announced` bytes, and resolves with the answer. */
function partialPost(port: number, path: string, headers: Record<string, string>, announced: number, firstChunk: Buffer): Promise<{ status: number; body: string; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'Content-Length': String(announced) } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, sentBytes: firstChunk.length });
        req.destroy();
      });
    });
    req.on('error', reject);
    req.write(firstChunk);
  });
}

describe('issue 14 regressions', function () {
  this.timeout(120_000);
  const sample = generateSample(false);
  let h: Harness;
  let key: string;

  before(async () => {
    h = await startHarness({ store: 'sqlite', workers: 2 });
    key = await h.key();
  });
  after(async () => h.close());

  const upload = (content: string, filename = 'rec.json', k = key) => request(h.service.app).post('/v1/cpet/content').set('X-API-Key', k).send({ filename, content });

  it('refuses a recording whose clock spans 1e8 s with 413 RECORDING_TOO_LONG naming the span limit', async () => {
    const res = await upload(canonical(300, (i) => (i === 299 ? 1e8 : i * 2)));
    expect(res.status).to.equal(413);
    expect(res.body.error).to.equal('RECORDING_TOO_LONG');
    expect(res.body.context).to.include({ max_duration_s: 21_600, duration_s: 1e8, max_resampled_points: 21_601 });
    await expectMatchesSpec(res.body, 'uploadCpetContent', 413);
    const caps = await request(h.service.app).get('/v1/capabilities').set('X-API-Key', key).expect(200);
    expect(caps.body.limits.max_duration_s, 'capabilities announce the span limit that refused it').to.equal(res.body.context.max_duration_s);
    await expectMatchesSpec(caps.body, 'getCapabilities', 200);
  });

  it('refuses time stamps near 1e300 with 413, not 500', async () => {
    const res = await upload(canonical(300, (i) => (i === 299 ? 1e300 : i)));
    expect(res.status).to.equal(413);
    expect(res.body.error).to.equal('RECORDING_TOO_LONG');
    await expectMatchesSpec(res.body, 'uploadCpetContent', 413);
  });

  it('refuses 600,000 samples with 413 RECORDING_TOO_LONG, not a stack overflow', async () => {
    const res = await upload(canonical(600_000, (i) => i * 0.01));
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(413);
    expect(res.body.error).to.equal('RECORDING_TOO_LONG');
    expect(res.body.context.samples).to.equal(600_000);
  });

  it('answers an unknown field nested 5,000 deep with a small 422, not a 500', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', key).set('Content-Type', 'application/json').send(`{"filename":"x.json","content":"{}","extra":${deep}}`);
    expect(res.status).to.equal(422);
    expect(res.body.error).to.equal('VALIDATION_ERROR');
    expect(res.text.length).to.be.lessThan(4096);
    expect(JSON.stringify(res.body.context.errors[0].input)).to.contain('truncated');
    await expectMatchesSpec(res.body, 'uploadCpetContent', 422);
  });

  it('echoes at most a bounded summary of a 20 MB unknown field', async () => {
    const res = await request(h.service.app)
      .post('/v1/cpet/content')
      .set('X-API-Key', key)
      .send({ filename: 'x.json', content: '{}', extra: 'A'.repeat(20 * MB) });
    expect(res.status).to.equal(422);
    expect(res.text.length).to.be.lessThan(4096);
    expect(res.body.context.errors[0].input).to.match(/^A{200}…\[truncated: 20971520 characters\]$/);
  });

  it('lets the acquisition PC retry a ticket after a wrong file, until the third refused post uses it up', async () => {
    const mint = await request(h.service.app).post('/v1/uploads').set('X-API-Key', key).send({ count: 2 }).expect(200);
    const [retry, burn] = (mint.body.tickets as { upload_url: string }[]).map((t) => new URL(t.upload_url).pathname);
    const wrong = await request(h.service.app).post(retry).attach('file', Buffer.from('not a cpet export\n'), 'notes.txt');
    expect(wrong.status).to.equal(422);
    await expectMatchesSpec(wrong.body, 'postTicketUpload', 422);
    const right = await request(h.service.app).post(retry).attach('file', Buffer.from(sample.content), sample.filename).expect(200);
    await request(h.service.app).get(`/v1/cpet/${right.body.cpet_id}`).set('X-API-Key', key).expect(200);
    await request(h.service.app).post(retry).attach('file', Buffer.from(sample.content), sample.filename).expect(403);

    for (let i = 0; i < 3; i++) await request(h.service.app).post(burn).attach('file', Buffer.from('x'), 'x.txt').expect(422);
    const used = await request(h.service.app).post(burn).attach('file', Buffer.from(sample.content), sample.filename).expect(403);
    expect(used.body.context.reason).to.equal('already used');
  });

  it('answers a damaged xlsx with a context its OpenAPI schema allows', async () => {
    const xlsx = readFileSync(join(import.meta.dirname, '..', '..', 'formats', 'cosmed-xlsx', 'fixtures', 'omnia-de-10s-averages', 'input.xlsx'));
    const damaged: Buffer[] = [xlsx.subarray(0, xlsx.length - 30), Buffer.concat([xlsx.subarray(0, 200), Buffer.alloc(400), xlsx.subarray(600)])];
    const corrupt = Buffer.from(xlsx);
    for (let i = 100; i < corrupt.length - 200; i += 97) corrupt[i] ^= 0x5a;
    damaged.push(corrupt);
    for (const bytes of damaged) {
      const res = await request(h.service.app)
        .post('/v1/cpet/content')
        .set('X-API-Key', key)
        .send({ filename: 'test.xlsx', content_base64: bytes.toString('base64') });
      expect(res.status).to.be.within(400, 499);
      expect(res.body.context.archive, 'what is wrong with the archive, beside where').to.be.a('string');
      await expectMatchesSpec(res.body, 'uploadCpetContent', res.status);
    }
  });

  it('stops the monthly quota at its limit under 30 concurrent calls (reserve, then settle)', async () => {
    const capped = await h.key({ monthly_limit: 3 });
    const id = (await upload(sample.content, sample.filename, capped).expect(200)).body.cpet_id as string;
    const statuses = await Promise.all(
      Array.from({ length: 30 }, () =>
        request(h.service.app)
          .post(`/v1/cpet/${id}/compute`)
          .set('X-API-Key', capped)
          .send({ metrics: ['vo2max'] })
          .then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).to.have.length(3);
    expect(statuses.filter((s) => s === 429)).to.have.length(27);
    const caps = await request(h.service.app).get('/v1/capabilities').set('X-API-Key', capped).expect(200);
    expect(caps.body.usage.units_used).to.equal(3);
  });

  it('writes DATA_DIR as 0700, its database files and the first-start key file as 0600', async () => {
    const dirMode = statSync(h.dataDir).mode & 0o777;
    expect(dirMode).to.equal(0o700);
    for (const name of ['cpet.sqlite', 'cpet.sqlite-wal', 'cpet.sqlite-shm']) {
      const st = statSync(join(h.dataDir, name), { throwIfNoEntry: false });
      if (st) expect(st.mode & 0o777, name).to.equal(0o600);
    }
    const fresh = await startHarness({ store: 'sqlite' });
    try {
      const created = await ensureLocalKey(fresh.service.deps.store, fresh.dataDir);
      expect(created).to.match(/^cpet_/);
      expect(statSync(join(fresh.dataDir, 'local-api-key')).mode & 0o777).to.equal(0o600);
    } finally {
      await fresh.close();
    }
  });

  describe('on a listening server', () => {
    let running: Running;
    before(async () => {
      running = await serve(h.service, 0, '127.0.0.1');
    });
    after(() => {
      running.server.closeAllConnections();
      running.server.close();
    });

    it('answers 431 in the error shape', async () => {
      const res = await fetch(`http://127.0.0.1:${running.port}/health`, { headers: { 'X-Big': 'x'.repeat(20_000) } });
      expect(res.status).to.equal(431);
      const body = (await res.json()) as { error: string };
      expect(body.error).to.equal('REQUEST_HEADERS_TOO_LARGE');
      expect(createSchemaChecker(loadApiDocument()).schema('Error', body)).to.deep.equal([]);
    });

    it('answers a request the HTTP parser cannot read with 400 in the error shape', async () => {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(running.port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer).to.match(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: string };
      expect(body.error).to.equal('MALFORMED_REQUEST');
      expect(createSchemaChecker(loadApiDocument()).schema('Error', body)).to.deep.equal([]);
    });

    it('refuses a keyless 24 MB upload before reading its body', async () => {
      const answer = await partialPost(running.port, '/v1/cpet/content', { 'Content-Type': 'application/json' }, 24 * MB, Buffer.from('{"filename":"a.json","content":"'));
      expect(answer.status).to.equal(401);
      expect(JSON.parse(answer.body).error).to.equal('MISSING_API_KEY');
    });

    it("refuses a bad ticket's 30 MB body before reading it", async () => {
      const answer = await partialPost(running.port, '/v1/uploads/not.a-ticket', { 'Content-Type': 'application/octet-stream' }, 30 * MB, Buffer.alloc(1024, 0x41));
      expect(answer.status).to.equal(403);
      expect(JSON.parse(answer.body).error).to.equal('UPLOAD_TICKET_INVALID');
    });

    it('refuses an announced body over 25 MB with 413 before reading it', async () => {
      const answer = await partialPost(running.port, '/v1/cpet', { 'X-API-Key': key, 'Content-Type': 'multipart/form-data; boundary=x' }, 40 * MB, Buffer.from('--x\r\n'));
      expect(answer.status).to.equal(413);
      expect(JSON.parse(answer.body).error).to.equal('FILE_TOO_LARGE');
    });

    it('keeps its memory and /health fast under 40 keyless 24 MB uploads', async () => {
      const before = process.memoryUsage().rss;
      const chunk = Buffer.alloc(MB, 0x41);
      const uploads = Array.from({ length: 40 }, () => partialPost(running.port, '/v1/cpet/content', { 'Content-Type': 'application/json' }, 24 * MB, chunk).then((a) => a.status));
      const started = Date.now();
      await fetch(`http://127.0.0.1:${running.port}/health`);
      const healthMs = Date.now() - started;
      expect(new Set(await Promise.all(uploads))).to.deep.equal(new Set([401]));
      expect(process.memoryUsage().rss - before).to.be.lessThan(200 * MB);
      expect(healthMs).to.be.lessThan(1000);
    });
  });
});
