/**
 * The xlsx row count (checkSheetBudget): the same whether a part is scanned tag by tag or, too short
 * to reach the cell cap, searched for its row tags alone. The .xls cell count (sheet-budget.ts, checkBiffBudget): exact, from the record headers alone, MULRK
 * counted cell by cell, and the sheet named by its BOUNDSHEET record.
 */
import { expect } from 'chai';
import { ServiceError } from '../../src/errors.js';
import type { ZipEntry } from '../../src/formats/bounded-zip.js';
import { checkBiffBudget, checkSheetBudget } from '../../src/formats/sheet-budget.js';
import { biffStream, readSheets } from '../../src/formats/workbook.js';
import { tinyCellsXls } from '../../src/synthetic/hostile-workbook.js';

describe('the .xls cell budget', () => {
  // 100 MULRK rows of 256 cells after the seed sheet's 4 cells (t, VO2, 0, 300).
  const xls = tinyCellsXls(100);
  const cells = 100 * 256 + 4;

  it('counts every cell SheetJS reads', () => {
    const [sheet] = readSheets(xls, { raw: true });
    expect(sheet.data.reduce((n, row) => n + row.filter((c) => c !== undefined && c !== null).length, 0)).to.equal(cells);
  });

  it('passes a sheet at its limit and refuses one cell more, naming the sheet', () => {
    const stream = biffStream(xls);
    expect(stream).to.not.equal(null);
    expect(() => checkBiffBudget(stream as Uint8Array, { max_sheet_cells: cells })).to.not.throw();
    let refused: unknown;
    try {
      checkBiffBudget(stream as Uint8Array, { max_sheet_cells: cells - 1 });
    } catch (err) {
      refused = err;
    }
    expect(refused).to.be.instanceOf(ServiceError);
    expect((refused as ServiceError).code).to.equal('FILE_TOO_LARGE');
    expect((refused as ServiceError).context).to.deep.equal({ max_sheet_cells: cells - 1, where: { sheet: 'Daten' } });
  });

  it('finds no workbook stream in bytes that are not a compound file', () => {
    expect(biffStream(Buffer.from('not an xls'))).to.equal(null);
  });
});

describe('the xlsx row budget', () => {
  // Five row tags as a tag scan counts them (plain, namespaced, empty prefix, self-closing, before a
  // line break), among look-alikes that are not (`</row>`, `<rows>`, `<arow>`, `<a:b:row>`, `row` bare).
  const part = '<row r="1"><c r="A1"/></row><x:row r="2"></x:row><:row/><row/><row\n></row><rows/><arow/><a:b:row/> row <c t="s"><v>1</v></c><row';
  const entry: ZipEntry = { name: 'xl/worksheets/sheet1.xml', method: 0, compressed: Buffer.from(part) };
  const refusal = (maxRows: number, maxCells: number): string | null => {
    try {
      checkSheetBudget([entry], { max_sheet_rows: maxRows, max_sheet_cells: maxCells, max_uncompressed_bytes: 1e6 });
      return null;
    } catch (err) {
      return (err as ServiceError).code;
    }
  };

  it('counts the same row tags whether the part could reach the cell cap or not', () => {
    // 1e6 cells: the part is far too short to reach them, so only row tags are searched for.
    expect(part.length).to.be.below(3 * 1e6);
    expect(refusal(5, 1e6)).to.equal(null);
    expect(refusal(4, 1e6)).to.equal('RECORDING_TOO_LONG');
    // Two cells (`<c r=` and `<c t=`), and a part long enough to reach a cap of two: every tag is scanned.
    expect(part.length).to.be.at.least(3 * (2 + 1));
    expect(refusal(5, 2)).to.equal(null);
    expect(refusal(4, 2)).to.equal('RECORDING_TOO_LONG');
    expect(refusal(5, 1)).to.equal('FILE_TOO_LARGE');
  });
});
