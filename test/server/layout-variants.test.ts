/**
 * Every layout variant generated from the real exports, uploaded through both routes (multipart
 * `POST /v1/cpet` and JSON `POST /v1/cpet/content`), gives the series of the real file it was made
 * from: the three shapes the issue saw refused (COSMED data table only with a units row, MGC with a
 * units row, a researcher's renamed table) among them.
 */
import { expect } from 'chai';
import request from 'supertest';
import { decodeText } from '../../src/formats/file-view.js';
import { fixtureInput } from '../formats/summary-snapshot.js';
import { VARIANTS, type Variant } from '../formats/variants/index.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

const TEXT_EXTENSIONS = new Set(['csv', 'txt', 'xml']);

type Series = Record<string, { t_s: number[]; values: number[] }>;

describe('layout variants through the API', function () {
  this.timeout(300_000);
  let h: Harness;
  let key: string;
  const originals = new Map<string, { format: string; series: Series; channels: string[] }>();
  before(async () => {
    h = await startHarness({ store: 'sqlite', workers: 2 });
    key = await h.key();
  });
  after(async () => h.close());

  /** The JSON body a client sends for a file: its text for text files, base64 for workbooks. */
  function contentBody(filename: string, bytes: Buffer): Record<string, string> {
    const extension = filename.split('.').pop() ?? '';
    const text = TEXT_EXTENSIONS.has(extension) ? decodeText(bytes)?.text : undefined;
    return text !== undefined ? { filename, content: text } : { filename, content_base64: bytes.toString('base64') };
  }

  async function series(id: string, channels: string[]): Promise<Series> {
    const res = await request(h.service.app)
      .get(`/v1/cpet/${id}/series?channels=${channels.join(',')}&max_points=5000`)
      .set('X-API-Key', key);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.series as Series;
  }

  async function original(variant: Variant): Promise<{ format: string; series: Series; channels: string[] }> {
    const format = variant.family === 'generic-table' ? 'mgc-breeze-txt' : variant.family;
    const cacheKey = `${format}/${variant.original}`;
    const cached = originals.get(cacheKey);
    if (cached) return cached;
    const { filename, bytes } = fixtureInput(format, variant.original);
    const res = await request(h.service.app).post('/v1/cpet').set('X-API-Key', key).attach('file', bytes, filename);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const channels = Object.entries(res.body.channels as Record<string, { present: boolean }>)
      .filter(([, c]) => c.present)
      .map(([n]) => n);
    const entry = { format, series: await series(res.body.cpet_id, channels), channels };
    originals.set(cacheKey, entry);
    return entry;
  }

  for (const variant of VARIANTS) {
    it(`${variant.family}/${variant.name}: both routes give ${variant.format} with the series of ${variant.original}`, async () => {
      const base = await original(variant);
      const bytes = variant.bytes();
      const multipart = await request(h.service.app).post('/v1/cpet').set('X-API-Key', key).attach('file', bytes, variant.filename);
      expect(multipart.status, JSON.stringify(multipart.body)).to.equal(200);
      await expectMatchesSpec(multipart.body, 'uploadCpetMultipart', 200);
      const content = await request(h.service.app).post('/v1/cpet/content').set('X-API-Key', key).send(contentBody(variant.filename, bytes));
      expect(content.status, JSON.stringify(content.body)).to.equal(200);
      await expectMatchesSpec(content.body, 'uploadCpetContent', 200);
      for (const body of [multipart.body, content.body]) {
        expect(body.source.format).to.equal(variant.format);
        expect(body.source.format_confidence).to.equal(variant.format === 'generic-table' ? 'last_resort' : 'detected');
        expect(body.channels).to.deep.equal(multipart.body.channels);
        const got = await series(body.cpet_id, base.channels);
        for (const name of base.channels) {
          const want = base.series[name];
          const factor = variant.scaled?.[name as keyof typeof variant.scaled]?.factor;
          const offset = variant.time === 'shifted' ? want.t_s[0] - got[name].t_s[0] : 0;
          expect(got[name].values.length, name).to.equal(want.values.length);
          if (factor === undefined) expect(got[name].values, name).to.deep.equal(want.values);
          else
            got[name].values.forEach((v, i) => {
              expect(v, `${name}[${i}]`).to.be.closeTo(want.values[i] * factor, 1e-4);
            });
          if (variant.time === 'same') expect(got[name].t_s, `${name} times`).to.deep.equal(want.t_s);
          else
            got[name].t_s.forEach((t, i) => {
              expect(t + offset, `${name} t_s[${i}]`).to.be.closeTo(want.t_s[i], 2e-3);
            });
        }
      }
    });
  }
});
