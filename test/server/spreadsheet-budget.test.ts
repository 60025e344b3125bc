/**
 * Spreadsheets bounded before work (issue 20, item 3): workbooks of a few hundred KB whose one sheet
 * inflates to 40, 80 or 115 MB of tiny cells are refused (413, the cell limit in context: counted
 * while the sheet is inflated, before any parser), and another key's small upload meanwhile is
 * served. So is a 12 MB .xls (BIFF8) of 2 million cells, counted from its record headers (SheetJS
 * alone spent minutes on it). How fast (goal: 2 s, and the other key within 1 s) is a benchmark's figure
 * (`npm run bench -- spreadsheet`), not a timed test on a shared machine.
 */
import { expect } from 'chai';
import request from 'supertest';
import { tinyCellsXls, tinyCellsXlsx } from '../../src/synthetic/hostile-workbook.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { expectMatchesSpec, startHarness, type Harness } from './harness.js';

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
    it(`refuses one inflating to ${inflatedMb} MB with 413 and its limit, another key served meanwhile`, async () => {
      const attacker = await h.key();
      const lab = await h.key();
      const bomb = tinyCellsXlsx(inflatedMb).toString('base64');
      const labBody = { filename: sample.filename, content: sample.content };
      const heavy = upload(attacker, { filename: 'export.xlsx', content_base64: bomb }).then((res) => ({ res }));
      const small = upload(lab, labBody).then((res) => ({ res }));
      const [refused, served] = await Promise.all([heavy, small]);
      expect(refused.res.status, JSON.stringify(refused.res.body)).to.equal(413);
      expect(refused.res.body.error).to.equal('FILE_TOO_LARGE');
      expect(refused.res.body.context.max_sheet_cells).to.be.a('number');
      await expectMatchesSpec(refused.res.body, 'uploadCpetContent', 413);
      expect(served.res.status).to.equal(200);
    });
  }

  it('refuses an .xls of 2 million cells with 413 and its limit, another key served meanwhile', async () => {
    const attacker = await h.key();
    const lab = await h.key();
    const heavy = upload(attacker, { filename: 'export.xls', content_base64: tinyCellsXls(8_000).toString('base64') });
    const small = upload(lab, { filename: sample.filename, content: sample.content });
    const [refused, served] = await Promise.all([heavy, small]);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(413);
    expect(refused.body.error).to.equal('FILE_TOO_LARGE');
    expect(refused.body.context).to.deep.include({ max_sheet_cells: 1_500_000, where: { sheet: 'Daten' } });
    await expectMatchesSpec(refused.body, 'uploadCpetContent', 413);
    expect(served.status).to.equal(200);
  });
});
