/**
 * The .xls cell count (sheet-budget.ts, checkBiffBudget): exact, from the record headers alone, MULRK
 * counted cell by cell, and the sheet named by its BOUNDSHEET record.
 */
import { expect } from 'chai';
import { ServiceError } from '../../src/errors.js';
import { checkBiffBudget } from '../../src/formats/sheet-budget.js';
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
