/**
 * A pathological file fails alone and fast (issue 14, item 5): a 100 MB-inflating xlsx from one key
 * is stopped by the per-task budget of its worker with a 422, while another key's upload and compute
 * go through meanwhile (fair admission: one key never holds every worker), and the pool serves
 * normally afterwards.
 */
import { expect } from 'chai';
import request from 'supertest';
import { paddedXlsx } from '../../src/synthetic/hostile-workbook.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

/**
 * A valid xlsx (written by SheetJS) whose one sheet is padded to `inflatedMb` MB of numeric rows:
 * a few hundred KB zipped, under the inflate cap, and costly to read, as in the issue (254 KB that
 * inflates to 115 MB of sheet XML).
 */
function heavyXlsx(inflatedMb: number): Buffer {
  return paddedXlsx(inflatedMb, '<row><c t="n"><v>1</v></c><c t="n"><v>2</v></c></row>');
}

describe('a pathological upload under the per-task budget', function () {
  this.timeout(120_000);
  const sample = generateSample(false);
  let h: Harness;

  before(async () => {
    h = await startHarness({ store: 'sqlite', workers: 2, operations: { taskTimeoutMs: 3_000, workerMemoryMb: 512 } });
  });
  after(async () => h.close());

  it('fails alone with 422 within its budget while another key is served', async () => {
    const attacker = await h.key();
    const lab = await h.key();
    const bomb = heavyXlsx(100).toString('base64');
    const started = Date.now();
    const bombs = [0, 1].map(() =>
      request(h.service.app)
        .post('/v1/cpet/content')
        .set('X-API-Key', attacker)
        .send({ filename: 'export.xlsx', content_base64: bomb })
        .then((r) => ({ res: r, ms: Date.now() - started })),
    );
    await new Promise((r) => setTimeout(r, 200));
    const labStart = Date.now();
    const own = await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', lab).send({ filename: sample.filename, content: sample.content });
    expect(own.status, JSON.stringify(own.body).slice(0, 200)).to.equal(200);
    await request(h.service.app)
      .post(`/v1/cpet/${own.body.cpet_id}/compute`)
      .set('X-API-Key', lab)
      .send({ metrics: ['vo2max'] })
      .expect(200);
    const labMs = Date.now() - labStart;

    for (const { res, ms } of await Promise.all(bombs)) {
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.be.within(400, 499);
      await expectMatchesSpec(res.body, 'uploadCpetContent', res.status);
      // Two bombs run one after the other on the attacker's one worker: each within its budget plus reading.
      expect(ms).to.be.lessThan(20_000);
    }
    expect(labMs, 'the other key did not wait for the bombs').to.be.lessThan(10_000);
    const after = await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', attacker).send({ filename: sample.filename, content: sample.content });
    expect(after.status).to.equal(200);
  });
});
