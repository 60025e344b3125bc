import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { listFixtures } from '../formats/fixture-helpers.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

const TEXT_EXTENSIONS = new Set(['csv', 'txt', 'xml', 'json', 'dat', '']);
const REFUSALS: Record<string, string[]> = {
  vt: ['INSUFFICIENT_SIGNAL', 'MISSING_CHANNEL', 'TIER_INSUFFICIENT', 'MODEL_NOT_FOUND', 'INFERENCE_FAILED'],
  eov: ['NO_USABLE_DATA', 'INSUFFICIENT_DURATION', 'MISSING_CHANNEL', 'EOV_FAILED'],
  substrate: ['MISSING_CHANNEL', 'INSUFFICIENT_SIGNAL', 'SUBSTRATE_FAILED'],
};

describe('every format fixture through the API', function () {
  this.timeout(300_000);
  let h: Harness;
  let key: string;
  before(async () => {
    h = await startHarness({ store: 'sqlite', workers: 2 });
    key = await h.key();
  });
  after(async () => h.close());

  for (const fixture of listFixtures()) {
    describe(`${fixture.format}/${fixture.name}`, () => {
      const bytes = readFileSync(fixture.input);
      const filename = basename(fixture.input);
      let id: string;

      it('uploads as a multipart file and as JSON content to the same summary', async () => {
        const multipart = await request(h.service.app).post('/v1/cpet').set('X-API-Key', key).attach('file', bytes, filename);
        expect(multipart.status, JSON.stringify(multipart.body)).to.equal(200);
        expect(multipart.body.source.format).to.equal(fixture.format);
        await expectMatchesSpec(multipart.body, 'uploadCpetMultipart', 200);
        const body = TEXT_EXTENSIONS.has(fixture.extension) && !bytes.includes(0) ? { filename, content: bytes.toString('utf8') } : { filename, content_base64: bytes.toString('base64') };
        const content = await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', key).send(body);
        expect(content.status, JSON.stringify(content.body)).to.equal(200);
        expect(content.body.source.format).to.equal(fixture.format);
        if ('content_base64' in body) expect(content.body.channels).to.deep.equal(multipart.body.channels);
        else expect(content.body.sampling.n_raw).to.be.greaterThan(0);
        id = multipart.body.cpet_id;
      });

      it('answers every analysis with an envelope: ok, or a refusal from the spec with a reason', async () => {
        const res = await request(h.service.app).post(`/v1/cpet/${id}/analyze`).set('X-API-Key', key).send({});
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        await expectMatchesSpec(res.body, 'analyzeCpet', 200);
        for (const e of res.body.results) {
          if (e.status === 'ok') expect(e.findings).to.be.an('object');
          else {
            expect(REFUSALS[e.analysis], `${e.analysis}: ${e.error} ${e.message}`).to.include(e.error);
            expect(e.message).to.be.a('string').and.not.equal('');
          }
        }
      });

      it('answers every metric: ok, or unavailable with a reason', async () => {
        const names = h.service.deps.metrics.list().map((m) => m.name);
        const res = await request(h.service.app).post(`/v1/cpet/${id}/compute`).set('X-API-Key', key).send({ metrics: names });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        await expectMatchesSpec(res.body, 'computeMetrics', 200);
        for (const [name, m] of Object.entries(res.body.metrics as Record<string, { status: string; message?: string; error?: string }>)) {
          if (m.status !== 'ok') {
            expect(m.status, name).to.equal('unavailable');
            expect(['MISSING_CHANNEL', 'INSUFFICIENT_DURATION', 'INSUFFICIENT_SIGNAL'], name).to.include(m.error);
            expect(m.message, name).to.be.a('string').and.not.equal('');
          }
        }
      });
    });
  }
});
