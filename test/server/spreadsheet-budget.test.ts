/**
 * Spreadsheets bounded before work (issue 20, item 3): workbooks of a few hundred KB whose one sheet
 * inflates to 40, 80 or 115 MB of tiny cells are refused (413, the limit in context) within 2 s,
 * counted while the sheet is inflated, not parsed; another key's small upload meanwhile is answered
 * within 1 s of its time alone.
 */
import { expect } from 'chai';
import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import request from 'supertest';
import { writeWorkbook } from '../../src/formats/workbook.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

const MB = 1024 * 1024;

/** A workbook written by SheetJS whose one sheet is padded to `inflatedMb` MB of rows of 256 one-digit cells. */
function tinyCellsXlsx(inflatedMb: number): Buffer {
  const seed = unzipSync(writeWorkbook([{ name: 'Daten', data: [['t', 'VO2'], [0, 300]] }]));
  const sheetName = Object.keys(seed).find((n) => /worksheets\/sheet1\.xml$/.test(n)) as string;
  const [head, tail] = strFromU8(seed[sheetName]).split('</sheetData>');
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    parts.push(data);
  });
  for (const [name, data] of Object.entries(seed)) {
    if (name === sheetName) continue;
    const entry = new ZipPassThrough(name);
    zip.add(entry);
    entry.push(data, true);
  }
  const sheet = new ZipDeflate(sheetName, { level: 9 });
  zip.add(sheet);
  sheet.push(strToU8(head));
  const chunk = Buffer.alloc(MB, `<row>${'<c><v>1</v></c>'.repeat(256)}</row>`);
  for (let i = 0; i < inflatedMb; i++) sheet.push(chunk);
  sheet.push(strToU8(`</sheetData>${tail}`), true);
  zip.end();
  return Buffer.concat(parts);
}

describe('a workbook of tiny cells', function () {
  this.timeout(120_000);
  const sample = generateSample(false);
  let h: Harness;
  before(async () => {
    h = await startHarness({ store: 'sqlite', workers: 2 });
  });
  after(() => h.close());

  const upload = (key: string, body: Record<string, string>) => request(h.service.app).post('/v1/cpet/content').set('X-API-Key', key).send(body);

  for (const inflatedMb of [40, 80, 115]) {
    it(`refuses one inflating to ${inflatedMb} MB with 413 and its limit within 2 s, without delaying another key`, async () => {
      const attacker = await h.key();
      const lab = await h.key();
      const bomb = tinyCellsXlsx(inflatedMb).toString('base64');
      const labBody = { filename: sample.filename, content: sample.content };
      const aloneStarted = Date.now();
      expect((await upload(lab, labBody)).status).to.equal(200);
      const aloneMs = Date.now() - aloneStarted;

      const started = Date.now();
      const heavy = upload(attacker, { filename: 'export.xlsx', content_base64: bomb }).then((res) => ({ res, ms: Date.now() - started }));
      const small = upload(lab, labBody).then((res) => ({ res, ms: Date.now() - started }));
      const [refused, served] = await Promise.all([heavy, small]);
      expect(refused.res.status, JSON.stringify(refused.res.body)).to.equal(413);
      expect(refused.res.body.error).to.equal('FILE_TOO_LARGE');
      expect(refused.res.body.context.max_sheet_cells).to.be.a('number');
      await expectMatchesSpec(refused.res.body, 'uploadCpetContent', 413);
      expect(refused.ms).to.be.below(2_000);
      expect(served.res.status).to.equal(200);
      expect(served.ms - aloneMs, `the other key's upload took ${served.ms} ms, alone ${aloneMs} ms`).to.be.below(1_000);
    });
  }
});
