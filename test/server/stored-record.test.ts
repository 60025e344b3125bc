import { expect } from 'chai';
import request from 'supertest';
import type { PlainStoredRecord } from '../../src/server/stored-record.js';
import { toCanonicalJson } from '../../src/synthetic/canonical-json.js';
import { generateSampleTest } from '../../src/synthetic/sample.js';
import { startHarness, type Harness } from './harness.js';

describe('stored records', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await startHarness({ store: 'sqlite' });
    key = await h.key();
  });
  after(async () => h.close());

  it('keeps the samples as one block beside the summary, and answers the same summary and analyses as a record kept as JSON before the encoding', async () => {
    const sample = generateSampleTest(false);
    const up = await request(h.service.app)
      .post('/v1/cpet/content')
      .set('X-API-Key', key)
      .send({ filename: 'sample.json', content: toCanonicalJson(sample.recording) })
      .expect(200);
    const keyId = key.split('_')[1];
    const stored = await h.service.deps.store.getRecord<Record<string, unknown>>(keyId, up.body.cpet_id);
    expect(stored).to.have.property('encoded');
    expect(stored).to.not.have.property('recording');
    // The record an older version of the service kept for the same upload: the recording as JSON.
    const older: PlainStoredRecord = {
      cpet_id: 'older-record',
      key_id: keyId,
      filename: 'sample.json',
      bytes: up.body.source.bytes,
      uploaded_at_ms: h.clock.now,
      expires_at_ms: h.clock.now + 3_600_000,
      retain_hours: 1,
      detection: { score: up.body.source.detection_score, runner_up: null },
      recording: sample.recording,
    };
    await h.service.deps.store.putRecord(keyId, older.cpet_id, older, older.expires_at_ms);
    const summary = (id: string) => request(h.service.app).get(`/v1/cpet/${id}`).set('X-API-Key', key).expect(200);
    const [now, then] = [(await summary(up.body.cpet_id)).body, (await summary(older.cpet_id)).body];
    const comparable = (s: Record<string, unknown>) => ({ ...s, cpet_id: null, retention: null, source: { ...(s.source as object), runner_up: null } });
    expect(comparable(then)).to.deep.equal(comparable(now));
    const analyze = async (id: string) =>
      (
        await request(h.service.app)
          .post(`/v1/cpet/${id}/analyze`)
          .set('X-API-Key', key)
          .send({ analyses: ['vt', 'substrate'] })
          .expect(200)
      ).body.results.map((e: { findings: unknown }) => e.findings);
    expect(await analyze(older.cpet_id)).to.deep.equal(await analyze(up.body.cpet_id));
  });
});
