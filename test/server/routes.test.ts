import { expect } from 'chai';
import request from 'supertest';
import { generateSample } from '../../src/synthetic/sample.js';
import { toCanonicalJson } from '../../src/synthetic/canonical-json.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { expectMatchesSpec, startHarness, STORE_KINDS, type Harness } from './harness.js';

const HOUR = 3_600_000;

for (const kind of STORE_KINDS) {
  describe(`API routes on the ${kind} store`, function () {
    this.timeout(120_000);
    let h: Harness;
    let key: string;
    let app: Harness['service']['app'];
    const sample = generateSample(false);

    before(async () => {
      h = await startHarness({ store: kind });
      app = h.service.app;
      key = await h.key();
    });
    after(async () => h.close());

    const upload = (k = key, body?: Record<string, unknown>) => h.upload(k, body);

    describe('public routes', () => {
      it('answers /health without a key', async () => {
        const res = await request(app).get('/health').expect(200);
        expect(res.body).to.include({ status: 'ok', store: kind });
        await expectMatchesSpec(res.body, 'getHealth', 200);
      });

      it("serves the OpenAPI document with every route, the web application's marked x-web-only", async () => {
        const res = await request(app).get('/v1/openapi.json').expect(200);
        expect(res.body.info.version).to.equal('v1');
        expect(res.body.paths['/v1/uploads/{ticket}'].post.operationId).to.equal('postTicketUpload');
        expect(res.body.paths['/v1/cpet'].post.operationId).to.equal('uploadCpetMultipart');
        expect(res.body.paths['/v1/cpet/content'].post.operationId).to.equal('uploadCpetContent');
        expect(res.body.paths['/v1/web/models'].get['x-web-only']).to.equal(true);
        expect(res.body.paths['/'].get['x-web-only']).to.equal(true);
      });

      it('serves llms.txt and llms-full.txt as text generated from the spec', async () => {
        const short = await request(app).get('/llms.txt').expect(200);
        expect(short.headers['content-type']).to.match(/text\/plain/);
        expect(short.text).to.contain('/v1/cpet/content');
        const full = await request(app).get('/llms-full.txt').expect(200);
        expect(full.text.length).to.be.greaterThan(short.text.length);
        expect(full.text).to.contain('UNSUPPORTED_FORMAT');
      });

      it('returns the same sample bytes for the same request, and an oscillating variant', async () => {
        const a = await request(app).get('/v1/sample').expect(200);
        const b = await request(app).get('/v1/sample').expect(200);
        expect(a.text).to.equal(b.text);
        await expectMatchesSpec(a.body, 'getSample', 200);
        expect(a.body.expected.vt1.time_s).to.be.within(475, 515);
        const osc = await request(app).get('/v1/sample?oscillating=true').expect(200);
        expect(osc.body.expected.oscillation.period_s).to.equal(60);
        expect(osc.body.content).to.not.equal(a.body.content);
      });

      it('refuses a malformed sample query with 422 naming the parameter', async () => {
        const res = await request(app).get('/v1/sample?oscillating=maybe').expect(422);
        expect(res.body.error).to.equal('VALIDATION_ERROR');
        expect(res.body.context.errors[0].loc).to.deep.equal(['query', 'oscillating']);
        const extra = await request(app).get('/v1/sample?colour=red').expect(422);
        expect(JSON.stringify(extra.body.context.errors)).to.contain('colour');
      });

      it('answers an unknown route with 404 and a wrong method with 405, both in the error shape', async () => {
        const missing = await request(app).get('/v1/nothing-here').expect(404);
        expect(missing.body).to.include({ error: 'NOT_FOUND' });
        expect(missing.body.context).to.be.an('object');
        const wrong = await request(app).put('/v1/capabilities').set('X-API-Key', key).expect(405);
        expect(wrong.body.error).to.equal('METHOD_NOT_ALLOWED');
        expect(wrong.headers.allow).to.contain('GET');
      });
    });

    describe('authentication', () => {
      it('gives 401 MISSING_API_KEY without the header and 403 INVALID_API_KEY for an unknown key', async () => {
        const none = await request(app).get('/v1/capabilities').expect(401);
        expect(none.body.error).to.equal('MISSING_API_KEY');
        const bad = await request(app).get('/v1/capabilities').set('X-API-Key', 'cpet_nope_nope').expect(403);
        expect(bad.body.error).to.equal('INVALID_API_KEY');
      });

      it('gives 403 KEY_EXPIRED once the clock passes the key expiry', async () => {
        const expiring = await h.key({ expires_at: new Date(h.clock.now + HOUR).toISOString() });
        await request(app).get('/v1/capabilities').set('X-API-Key', expiring).expect(200);
        h.clock.advance(2 * HOUR);
        try {
          const res = await request(app).get('/v1/capabilities').set('X-API-Key', expiring).expect(403);
          expect(res.body.error).to.equal('KEY_EXPIRED');
        } finally {
          h.clock.advance(-2 * HOUR);
        }
      });

      it('lists what the key may do in capabilities', async () => {
        const limited = await h.key({ tier: 'free', products: ['substrate'], monthly_limit: 50 });
        const res = await request(app).get('/v1/capabilities').set('X-API-Key', limited).expect(200);
        await expectMatchesSpec(res.body, 'getCapabilities', 200);
        expect(res.body.analyses).to.deep.equal(h.service.deps.plugins.analyses.map((a) => a.name).filter((n) => n === 'substrate'));
        expect(res.body.limits).to.include({ max_upload_bytes: 25 * 1024 * 1024, retention_hours: 24, max_retain_hours: 168, monthly_limit: 50 });
        expect(res.body.usage.units_remaining).to.equal(50);
        expect(res.body.formats).to.include('canonical-json');
      });
    });

    describe('uploads', () => {
      it('uploads the sample through /v1/cpet/content and returns the summary', async () => {
        const res = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: sample.filename, content: sample.content }).expect(200);
        await expectMatchesSpec(res.body, 'uploadCpetContent', 200);
        expect(res.body.source.format).to.equal('canonical-json');
        expect(res.body.channels.VO2).to.include({ present: true, unit: 'mL/min', coverage: 1 });
        expect(res.body.channels.SpO2.present).to.equal(false);
        expect(res.body.channels.SpO2.reason).to.be.a('string');
        expect(res.body.sampling).to.include({ raw_interval_s: 2, n_raw: JSON.parse(sample.content).time_s.length });
        expect(res.body.retention.retain_hours).to.equal(24);
        const again = await request(app).get(`/v1/cpet/${res.body.cpet_id}`).set('X-API-Key', key).expect(200);
        expect(again.body).to.deep.equal(res.body);
        await expectMatchesSpec(again.body, 'getCpet', 200);
      });

      it('uploads a multipart file through /v1/cpet with retain_hours', async () => {
        const res = await request(app).post('/v1/cpet').set('X-API-Key', key).field('retain_hours', '48').attach('file', Buffer.from(sample.content), sample.filename).expect(200);
        expect(res.body.retention.retain_hours).to.equal(48);
        await expectMatchesSpec(res.body, 'uploadCpetMultipart', 200);
      });

      it('refuses a multipart post without a file, and a bad retain_hours', async () => {
        const none = await request(app).post('/v1/cpet').set('X-API-Key', key).field('retain_hours', '2').expect(422);
        expect(none.body.context.errors[0].loc).to.deep.equal(['body', 'file']);
        const bad = await request(app).post('/v1/cpet').set('X-API-Key', key).field('retain_hours', 'soon').attach('file', Buffer.from(sample.content), sample.filename).expect(422);
        expect(JSON.stringify(bad.body.context.errors)).to.contain('retain_hours');
      });

      it('refuses unknown fields, both or neither content field, and retain_hours above 168 with 422', async () => {
        const unknown = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'a.json', content: '{}', colour: 'red' }).expect(422);
        expect(unknown.body.error).to.equal('VALIDATION_ERROR');
        expect(unknown.body.context.errors[0]).to.include.keys('loc', 'msg', 'type');
        expect(unknown.body.context.errors[0].loc).to.deep.equal(['body', 'colour']);
        const both = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'a.json', content: '{}', content_base64: 'e30=' }).expect(422);
        expect(both.body.error).to.equal('VALIDATION_ERROR');
        const neither = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'a.json' }).expect(422);
        expect(neither.body.error).to.equal('VALIDATION_ERROR');
        const long = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: sample.filename, content: sample.content, retain_hours: 169 }).expect(422);
        expect(JSON.stringify(long.body.context.errors)).to.contain('retain_hours');
      });

      it('gives 422 VALIDATION_ERROR for malformed JSON', async () => {
        const res = await request(app).post('/v1/cpet/content').set('X-API-Key', key).set('Content-Type', 'application/json').send('{"filename": ').expect(422);
        expect(res.body.error).to.equal('VALIDATION_ERROR');
        expect(res.body.context.errors[0].type).to.equal('json_invalid');
      });

      it('refuses random bytes with UNSUPPORTED_FORMAT and the canonical shape to convert into', async () => {
        const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
        const res = await request(app)
          .post('/v1/cpet/content')
          .set('X-API-Key', key)
          .send({ filename: 'export.xlsx', content_base64: bytes.toString('base64') })
          .expect(422);
        expect(res.body.error).to.equal('UNSUPPORTED_FORMAT');
        expect(res.body.context.recovery.schema).to.be.an('object');
        await expectMatchesSpec(res.body, 'uploadCpetContent', 422);
      });

      it('refuses a table without a time column, saying in context.candidates why the generic table could not read it', async () => {
        const res = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'summary.csv', content: 'subject,VO2,VCO2\nA,3100,3300\n' }).expect(422);
        expect(res.body.error).to.equal('UNSUPPORTED_FORMAT');
        await expectMatchesSpec(res.body, 'uploadCpetContent', 422);
        const generic = res.body.context.candidates.find((c: { format: string }) => c.format === 'generic-table');
        expect(generic.reasons.join(' ')).to.match(/no header row .* names a time column .*the closest, line 1, names VO2, VCO2/);
      });

      it('reads a lab table no vendor format claims as generic-table, last resort, with its column mapping', async () => {
        const table = 'time,vo2,vco2,ve,hr\n0:10,300,250,10.2,80\n0:13,310,255,10.4,81\n0:16,330,270,11.0,83\n';
        const res = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'lab.csv', content: table }).expect(200);
        await expectMatchesSpec(res.body, 'uploadCpetContent', 200);
        expect(res.body.source).to.include({ format: 'generic-table', format_confidence: 'last_resort', detection_score: 0.5 });
        const mapping = res.body.parser_flags.find((f: { code: string }) => f.code === 'column_mapping');
        expect(mapping.detail).to.contain('vo2 → VO2 in mL/min (from its values)');
      });

      it('refuses a recognised but broken file with PARSER_ERROR saying where', async () => {
        const broken = JSON.stringify({ format: 'cpet-canonical/1', time_s: [0, 1, 2], channels: { VO2: [1, 2] } });
        const res = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'x.json', content: broken }).expect(422);
        expect(res.body.error).to.equal('PARSER_ERROR');
        expect(res.body.message).to.contain('VO2');
      });

      it('refuses more than 20,000 samples with 413 RECORDING_TOO_LONG', async () => {
        const n = 20_001;
        const doc = JSON.stringify({ format: 'cpet-canonical/1', time_s: Array.from({ length: n }, (_, i) => i), channels: { VO2: Array.from({ length: n }, () => 1000) } });
        const res = await request(app).post('/v1/cpet/content').set('X-API-Key', key).send({ filename: 'long.json', content: doc }).expect(413);
        expect(res.body.error).to.equal('RECORDING_TOO_LONG');
      });

      it('refuses a file over 25 MB with 413 FILE_TOO_LARGE', async () => {
        const big = Buffer.alloc(25 * 1024 * 1024 + 10, 0x41);
        const res = await request(app).post('/v1/cpet').set('X-API-Key', key).attach('file', big, 'big.txt').expect(413);
        expect(res.body.error).to.equal('FILE_TOO_LARGE');
      });
    });

    describe('upload tickets', () => {
      it('mints count tickets, each with a URL, an expiry and a curl line', async () => {
        const res = await request(app).post('/v1/uploads').set('X-API-Key', key).send({ count: 3, filename: sample.filename }).expect(200);
        await expectMatchesSpec(res.body, 'createUploadTickets', 200);
        expect(res.body.tickets).to.have.length(3);
        expect(res.body.upload_url).to.equal(res.body.tickets[0].upload_url);
        expect(res.body.curl).to.contain('curl');
        expect(new Set(res.body.tickets.map((t: { upload_url: string }) => t.upload_url)).size).to.equal(3);
      });

      it('refuses count outside 1..200 and unknown fields', async () => {
        await request(app).post('/v1/uploads').set('X-API-Key', key).send({ count: 0 }).expect(422);
        await request(app).post('/v1/uploads').set('X-API-Key', key).send({ count: 201 }).expect(422);
        const res = await request(app).post('/v1/uploads').set('X-API-Key', key).send({ count: 1, expiry: 9 }).expect(422);
        expect(res.body.context.errors[0].loc).to.deep.equal(['body', 'expiry']);
      });

      it('accepts one file per ticket without a key, and the record belongs to the issuing key', async () => {
        const mint = await request(app).post('/v1/uploads').set('X-API-Key', key).send({ retain_hours: 72 }).expect(200);
        const path = new URL(mint.body.upload_url).pathname;
        const first = await request(app).post(path).attach('file', Buffer.from(sample.content), sample.filename).expect(200);
        expect(first.body.retention.retain_hours).to.equal(72);
        await request(app).get(`/v1/cpet/${first.body.cpet_id}`).set('X-API-Key', key).expect(200);
        const other = await h.key();
        await request(app).get(`/v1/cpet/${first.body.cpet_id}`).set('X-API-Key', other).expect(404);
        const second = await request(app).post(path).attach('file', Buffer.from(sample.content), sample.filename).expect(403);
        expect(second.body.error).to.equal('UPLOAD_TICKET_INVALID');
      });

      it('accepts a raw octet-stream body named by the ticket', async () => {
        const mint = await request(app).post('/v1/uploads').set('X-API-Key', key).send({ filename: sample.filename }).expect(200);
        const res = await request(app).post(new URL(mint.body.upload_url).pathname).set('Content-Type', 'application/octet-stream').send(Buffer.from(sample.content)).expect(200);
        expect(res.body.source.filename).to.equal(sample.filename);
      });

      it('refuses forged, malformed and expired tickets with 403 UPLOAD_TICKET_INVALID', async () => {
        const mint = await request(app).post('/v1/uploads').set('X-API-Key', key).send({}).expect(200);
        const token = new URL(mint.body.upload_url).pathname.split('/').pop() as string;
        const [payload, signature] = token.split('.');
        const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), rh: 168 })).toString('base64url');
        for (const bad of [`${forgedPayload}.${signature}`, 'garbage', `${payload}.AAAA`, `${payload}`]) {
          const res = await request(app).post(`/v1/uploads/${bad}`).attach('file', Buffer.from(sample.content), sample.filename).expect(403);
          expect(res.body.error).to.equal('UPLOAD_TICKET_INVALID');
        }
        h.clock.advance(6 * 60_000);
        try {
          const late = await request(app).post(`/v1/uploads/${token}`).attach('file', Buffer.from(sample.content), sample.filename).expect(403);
          expect(late.body.context.reason).to.equal('expired');
        } finally {
          h.clock.advance(-6 * 60_000);
        }
      });

      it('answers 503 UPLOAD_TICKETS_UNAVAILABLE pointing to POST /v1/cpet when tickets cannot be signed', async () => {
        const saved = process.env.TICKET_SECRET;
        process.env.TICKET_SECRET = 'too-short-to-sign-with';
        try {
          const res = await request(app).post('/v1/uploads').set('X-API-Key', key).send({}).expect(503);
          expect(res.body.error).to.equal('UPLOAD_TICKETS_UNAVAILABLE');
          expect(res.body.context.alternative).to.equal('POST /v1/cpet');
        } finally {
          if (saved === undefined) delete process.env.TICKET_SECRET;
          else process.env.TICKET_SECRET = saved;
        }
      });

      it('lets exactly one of 50 concurrent posts of one ticket through', async () => {
        const mint = await request(app).post('/v1/uploads').set('X-API-Key', key).send({}).expect(200);
        const path = new URL(mint.body.upload_url).pathname;
        const statuses = await Promise.all(
          Array.from({ length: 50 }, () =>
            request(app)
              .post(path)
              .attach('file', Buffer.from(sample.content), sample.filename)
              .then((r) => r.status),
          ),
        );
        expect(statuses.filter((s) => s === 200)).to.have.length(1);
        expect(statuses.filter((s) => s === 403)).to.have.length(49);
      });
    });

    describe('records', () => {
      it('keeps records partitioned: another key gets 404 on every route', async () => {
        const id = await upload();
        const other = await h.key();
        const routes = [
          request(app).get(`/v1/cpet/${id}`),
          request(app).get(`/v1/cpet/${id}/series`),
          request(app)
            .post(`/v1/cpet/${id}/analyze`)
            .send({ analyses: h.service.deps.plugins.analyses.map((a) => a.name).slice(0, 1) }),
          request(app)
            .post(`/v1/cpet/${id}/compute`)
            .send({ metrics: [h.service.deps.metrics.list()[0]?.name ?? 'vo2max'] }),
          request(app).delete(`/v1/cpet/${id}`),
        ];
        for (const [i, r] of routes.entries()) {
          const res = await r.set('X-API-Key', other);
          expect(res.status, `route ${i}`).to.equal(404);
          expect(res.body.error).to.equal('CPET_NOT_FOUND');
        }
        await request(app).get(`/v1/cpet/${id}`).set('X-API-Key', key).expect(200);
      });

      it('deletes a record now, after which it is not found', async () => {
        const id = await upload();
        const del = await request(app).delete(`/v1/cpet/${id}`).set('X-API-Key', key).expect(200);
        expect(del.body).to.deep.equal({ cpet_id: id, deleted: true });
        await request(app).get(`/v1/cpet/${id}`).set('X-API-Key', key).expect(404);
        await request(app).delete(`/v1/cpet/${id}`).set('X-API-Key', key).expect(404);
      });

      it('expires a record after its retention (clock injected)', async () => {
        const short = await upload();
        const long = await upload(key, { filename: sample.filename, content: sample.content, retain_hours: 48 });
        h.clock.advance(25 * HOUR);
        try {
          await request(app).get(`/v1/cpet/${short}`).set('X-API-Key', key).expect(404);
          await request(app).get(`/v1/cpet/${long}`).set('X-API-Key', key).expect(200);
        } finally {
          h.clock.advance(-25 * HOUR);
        }
      });
    });

    describe('series', () => {
      let id: string;
      before(async () => {
        id = await upload();
      });

      it('returns VE by default and named channels on request', async () => {
        const res = await request(app).get(`/v1/cpet/${id}/series`).set('X-API-Key', key).expect(200);
        await expectMatchesSpec(res.body, 'getCpetSeries', 200);
        expect(Object.keys(res.body.series)).to.deep.equal(['VE']);
        const two = await request(app).get(`/v1/cpet/${id}/series?channels=VE,PetCO2`).set('X-API-Key', key).expect(200);
        expect(Object.keys(two.body.series)).to.deep.equal(['VE', 'PetCO2']);
        expect(two.body.series.PetCO2.unit).to.equal('mmHg');
      });

      it('keeps the peak when downsampling and resamples to 1 Hz on request', async () => {
        const full = await request(app).get(`/v1/cpet/${id}/series?channels=VO2&max_points=5000`).set('X-API-Key', key).expect(200);
        const small = await request(app).get(`/v1/cpet/${id}/series?channels=VO2&max_points=40`).set('X-API-Key', key).expect(200);
        expect(small.body.series.VO2.values).to.have.length(40);
        expect(small.body.downsampling).to.equal('lttb');
        expect(Math.max(...small.body.series.VO2.values)).to.equal(Math.max(...full.body.series.VO2.values));
        const grid = await request(app).get(`/v1/cpet/${id}/series?channels=VO2&grid=resampled&max_points=5000`).set('X-API-Key', key).expect(200);
        const t = grid.body.series.VO2.t_s;
        expect(t[1] - t[0]).to.equal(1);
      });

      it('computes the ratio series from the measured channels', async () => {
        const res = await request(app).get(`/v1/cpet/${id}/series?channels=VE/VCO2,RER,O2pulse&max_points=5000`).set('X-API-Key', key).expect(200);
        const raw = await request(app).get(`/v1/cpet/${id}/series?channels=VE,VCO2,VO2,HR&max_points=5000`).set('X-API-Key', key).expect(200);
        const i = 100;
        const ve = raw.body.series.VE.values[i];
        const vco2 = raw.body.series.VCO2.values[i];
        expect(res.body.series['VE/VCO2'].values[i]).to.be.closeTo((ve * 1000) / vco2, 0.01);
        expect(res.body.series.RER.values[i]).to.be.closeTo(vco2 / raw.body.series.VO2.values[i], 0.001);
        expect(res.body.series.O2pulse.unit).to.equal('mL/beat');
        expect(res.body.series.O2pulse.values[i]).to.be.closeTo(raw.body.series.VO2.values[i] / raw.body.series.HR.values[i], 0.01);
      });

      it('refuses an unknown channel listing the available ones, and max_points outside 10..5000', async () => {
        const res = await request(app).get(`/v1/cpet/${id}/series?channels=VE,Lactate`).set('X-API-Key', key).expect(422);
        expect(res.body.error).to.equal('VALIDATION_ERROR');
        expect(res.body.context.available).to.include('PetCO2');
        expect(res.body.message).to.contain('Lactate');
        await request(app).get(`/v1/cpet/${id}/series?max_points=9`).set('X-API-Key', key).expect(422);
        await request(app).get(`/v1/cpet/${id}/series?max_points=5001`).set('X-API-Key', key).expect(422);
        await request(app).get(`/v1/cpet/${id}/series?grid=wavy`).set('X-API-Key', key).expect(422);
      });
    });

    describe('analyze and compute', () => {
      let id: string;
      before(async () => {
        id = await upload();
      });

      it('answers one envelope per analysis in the order asked, and bills the ok ones', async () => {
        const names = h.service.deps.plugins.analyses.map((a) => a.name).reverse();
        const billed = await h.key();
        const res = await request(app).post(`/v1/cpet/${id}/analyze`).set('X-API-Key', key).send({ analyses: names }).expect(200);
        await expectMatchesSpec(res.body, 'analyzeCpet', 200);
        expect(res.body.results.map((e: { analysis: string }) => e.analysis)).to.deep.equal(names);
        for (const e of res.body.results) {
          expect(e.provenance).to.include({ analysis_version: '2026.08', schema_version: '1.0' });
          expect(e.quality).to.equal('good');
        }
        const own = await upload(billed);
        const run = await request(app).post(`/v1/cpet/${own}/analyze`).set('X-API-Key', billed).send({ analyses: names }).expect(200);
        const ok = run.body.results.filter((e: { status: string }) => e.status === 'ok').length;
        const caps = await request(app).get('/v1/capabilities').set('X-API-Key', billed).expect(200);
        expect(caps.body.usage.units_used).to.equal(ok);
      });

      it('refuses an unknown analysis with 422 UNKNOWN_ANALYSIS and an unlicensed one with 403', async () => {
        const res = await request(app)
          .post(`/v1/cpet/${id}/analyze`)
          .set('X-API-Key', key)
          .send({ analyses: ['signal'] })
          .expect(422);
        expect(res.body.error).to.equal('UNKNOWN_ANALYSIS');
        const names = h.service.deps.plugins.analyses.map((a) => a.name);
        if (names.includes('vt')) {
          const narrow = await h.key({ products: ['substrate'] });
          const own = await upload(narrow);
          const refused = await request(app)
            .post(`/v1/cpet/${own}/analyze`)
            .set('X-API-Key', narrow)
            .send({ analyses: ['vt'] })
            .expect(403);
          expect(refused.body.error).to.equal('PRODUCT_NOT_ENABLED');
        }
        const extra = await request(app).post(`/v1/cpet/${id}/analyze`).set('X-API-Key', key).send({ analyses: names, modle: 'x' }).expect(422);
        expect(extra.body.context.errors[0].loc).to.deep.equal(['body', 'modle']);
      });

      it('computes registry metrics, bills one unit when any is ok, and refuses unknown names', async () => {
        const names = h.service.deps.metrics.list().map((m) => m.name);
        const list = await request(app).get('/v1/metrics').set('X-API-Key', key).expect(200);
        await expectMatchesSpec(list.body, 'listMetrics', 200);
        expect(list.body.metrics.map((m: { name: string }) => m.name)).to.deep.equal(names);
        const billed = await h.key();
        const own = await upload(billed);
        const res = await request(app).post(`/v1/cpet/${own}/compute`).set('X-API-Key', billed).send({ metrics: names }).expect(200);
        await expectMatchesSpec(res.body, 'computeMetrics', 200);
        expect(Object.keys(res.body.metrics)).to.deep.equal(names);
        const anyOk = Object.values(res.body.metrics).some((m) => (m as { status: string }).status === 'ok');
        const caps = await request(app).get('/v1/capabilities').set('X-API-Key', billed).expect(200);
        expect(caps.body.usage.units_used).to.equal(anyOk ? 1 : 0);
        const bad = await request(app)
          .post(`/v1/cpet/${own}/compute`)
          .set('X-API-Key', billed)
          .send({ metrics: ['vo2maxx'] })
          .expect(422);
        expect(bad.body.message).to.contain('vo2maxx');
        await request(app).post(`/v1/cpet/${own}/compute`).set('X-API-Key', billed).send({ metrics: [] }).expect(422);
        const extra = await request(app).post(`/v1/cpet/${own}/compute`).set('X-API-Key', billed).send({ metrics: names, window: 30 }).expect(422);
        expect(extra.body.context.errors[0].loc).to.deep.equal(['body', 'window']);
      });

      it('stops billable work at the monthly quota with 429 QUOTA_EXCEEDED', async () => {
        const names = h.service.deps.metrics.list().map((m) => m.name);
        const capped = await h.key({ monthly_limit: 1 });
        const own = await upload(capped);
        const first = await request(app).post(`/v1/cpet/${own}/compute`).set('X-API-Key', capped).send({ metrics: names }).expect(200);
        if (Object.values(first.body.metrics).some((m) => (m as { status: string }).status === 'ok')) {
          const res = await request(app).post(`/v1/cpet/${own}/compute`).set('X-API-Key', capped).send({ metrics: names }).expect(429);
          expect(res.body.error).to.equal('QUOTA_EXCEEDED');
        }
      });

      it('lists the formats with the canonical shape for files none reads', async () => {
        const res = await request(app).get('/v1/formats').set('X-API-Key', key).expect(200);
        await expectMatchesSpec(res.body, 'listFormats', 200);
        expect(res.body.formats.map((f: { id: string }) => f.id)).to.include('canonical-json');
        expect(res.body.if_unsupported.schema).to.be.an('object');
        for (const format of res.body.formats as { id: string; variants: unknown[]; last_resort: boolean }[]) {
          expect(format.variants, format.id).to.not.be.empty;
          expect(format.last_resort, format.id).to.equal(format.id === 'generic-table');
        }
      });
    });

    describe('web-only capabilities (spec 1) are not reachable with a key', () => {
      it('has no domain-curve route under /v1/cpet: 404 NOT_FOUND in the error shape', async () => {
        const id = await upload();
        const res = await request(app).get(`/v1/cpet/${id}/domains`).set('X-API-Key', key).expect(404);
        expect(res.body).to.have.keys('error', 'message', 'context');
        expect(res.body.error).to.equal('NOT_FOUND');
      });

      it('answers analyze naming the alternative engine with MODEL_NOT_FOUND inside the 200, listing the models the API serves', async () => {
        const vt = h.service.deps.plugins.analyses.find((a) => a.name === 'vt');
        const webOnly = (vt?.listModels?.('web') ?? []).filter((m) => !m.surfaces.includes('api'));
        expect(webOnly, 'an engine served to the web application only').to.not.be.empty;
        const id = await upload();
        const res = await request(app)
          .post(`/v1/cpet/${id}/analyze`)
          .set('X-API-Key', key)
          .send({ analyses: ['vt'], model: webOnly[0].name })
          .expect(200);
        await expectMatchesSpec(res.body, 'analyzeCpet', 200);
        const [envelope] = res.body.results;
        expect(envelope).to.include({ status: 'not_analysable', error: 'MODEL_NOT_FOUND' });
        expect(envelope.message).to.be.a('string').and.not.be.empty;
        const available = (envelope.context.available as { name: string }[]).map((m) => m.name);
        expect(available).to.not.include(webOnly[0].name);
        expect(available).to.not.be.empty;
      });
    });

    describe('rate limit', () => {
      it('answers 429 RATE_LIMITED with Retry-After past the per-minute limit', async () => {
        const limited = await startHarness({ store: kind, rateLimitPerMinute: 3 });
        try {
          const k = await limited.key();
          for (let i = 0; i < 3; i++) await request(limited.service.app).get('/v1/capabilities').set('X-API-Key', k).expect(200);
          const res = await request(limited.service.app).get('/v1/capabilities').set('X-API-Key', k).expect(429);
          expect(res.body.error).to.equal('RATE_LIMITED');
          expect(Number(res.headers['retry-after'])).to.be.within(1, 60);
        } finally {
          await limited.close();
        }
      });
    });

    describe('restart', () => {
      it('still has the record after the service closes and a new one opens on the same store', async () => {
        const id = await upload();
        const keep = h;
        await keep.close(true);
        h = await keep.reopen();
        app = h.service.app;
        const res = await request(app).get(`/v1/cpet/${id}`).set('X-API-Key', key).expect(200);
        expect(res.body.cpet_id).to.equal(id);
      });
    });

    describe('a recording generated with gaps and no HR', () => {
      it('uploads and reports HR absent with a reason', async () => {
        const t = generateTest({ seed: 99, hr: false, gaps: 2 });
        const res = await request(app)
          .post('/v1/cpet/content')
          .set('X-API-Key', key)
          .send({ filename: 'gen.json', content: toCanonicalJson(t.recording) })
          .expect(200);
        expect(res.body.channels.HR.present).to.equal(false);
        expect(res.body.channels.HR.reason).to.equal('not in the file');
      });
    });
  });
}
