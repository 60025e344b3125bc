/**
 * The column-selective sheet read (Sheet.readColumns, table/sources.ts selectiveSheetSource)
 * against the whole read: every cell the same except numbers outside the columns asked for, which
 * are UNREAD; and a table read through it the same as through the whole rows.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { FileView, UNREAD } from '../../src/formats/file-view.js';
import { locateTable } from '../../src/formats/table/locate.js';
import { readTable } from '../../src/formats/table/read-table.js';
import { selectiveSheetSource, sheetSource } from '../../src/formats/table/sources.js';
import { writeWorkbook } from '../../src/formats/workbook.js';
import { listFixtures } from './fixture-helpers.js';
import { VARIANTS } from './variants/index.js';

/** Every xlsx the format tests read: the real fixtures and the generated layout variants. */
function workbooks(): { label: string; bytes: Buffer }[] {
  const real = listFixtures()
    .filter((f) => f.extension === 'xlsx')
    .map((f) => ({ label: `${f.format}/${f.name}`, bytes: readFileSync(f.input) }));
  const generated = VARIANTS.filter((v) => v.filename.endsWith('.xlsx')).map((v) => ({ label: `variant ${v.family}/${v.name}`, bytes: v.bytes() }));
  return [...real, ...generated];
}

/** What a selective read must give: the whole rows with numbers outside `columns` replaced, from row `wholeBefore` on. */
function expected(rows: unknown[][], columns: ReadonlySet<number>, wholeBefore: number): unknown[][] {
  return rows.map((row, r) => (r < wholeBefore ? row : row.map((cell, c) => (typeof cell === 'number' && !columns.has(c) ? UNREAD : cell))));
}

/** A fresh view of the file, so that neither read sees the other's cached rows. */
function sheetsOf(label: string, bytes: Buffer) {
  const sheets = new FileView(basename(label), bytes).sheets();
  expect(sheets, label).to.not.equal(null);
  return sheets!;
}

describe('xlsx sheets read column by column', () => {
  it('gives the whole read with only the unasked numbers left undecoded, on every xlsx fixture and variant', () => {
    const books = workbooks();
    expect(books.length).to.be.at.least(6);
    let selective = 0;
    for (const { label, bytes } of books) {
      const whole = sheetsOf(label, bytes).map((s) => s.rows);
      const width = Math.max(1, ...whole.flatMap((rows) => rows.map((r) => r.length)));
      const choices: [Set<number>, number][] = [
        [new Set(), 0],
        [new Set([0, 3, width - 1]), 2],
        [new Set(Array.from({ length: width }, (_, c) => c).filter((c) => c % 3 === 1)), 5],
        [new Set(Array.from({ length: width }, (_, c) => c)), 0],
      ];
      for (const [columns, wholeBefore] of choices) {
        sheetsOf(label, bytes).forEach((sheet, i) => {
          if (sheet.readColumns) selective++;
          const got = sheet.readColumns ? sheet.readColumns(columns, wholeBefore) : sheet.rows;
          expect(got, `${label} ${sheet.name} [${[...columns].slice(0, 5)}] from ${wholeBefore}`).to.deep.equal(sheet.readColumns ? expected(whole[i], columns, wholeBefore) : whole[i]);
        });
      }
    }
    expect(selective, 'sheets the direct reader read column by column').to.be.greaterThan(0);
  });

  it('reads a table through the selective source as through the whole rows, on every xlsx fixture and variant with one', () => {
    let tables = 0;
    for (const { label, bytes } of workbooks()) {
      const wholeSheets = sheetsOf(label, bytes);
      const view = new FileView(basename(label), bytes);
      const sheets = view.sheets() ?? [];
      const heads = view.sheetHeads() ?? [];
      sheets.forEach((sheet, i) => {
        const head = heads[i].rows;
        const layout = locateTable(head, { from_time_column: true }) ?? locateTable(head);
        if (!layout) return;
        tables++;
        const read = (source: Parameters<typeof readTable>[0]) => {
          const { data: _data, column: _column, ...rest } = readTable(source, layout);
          return rest;
        };
        expect(read(selectiveSheetSource(sheet, head[layout.header_row], layout)), `${label} ${sheet.name}`).to.deep.equal(read(sheetSource(wholeSheets[i])));
      });
    }
    expect(tables).to.be.greaterThan(3);
  });

  it('skips numbers only where a whole read would have read the cell: odd cells read the same, or leave the sheet to the whole read', () => {
    const data = [
      ['t', 'VO2', 'VCO2', 'note', 'HR'],
      ['s', 'mL/min', 'mL/min', '', '1/min'],
      ...Array.from({ length: 40 }, (_, r) => [r, 0.30113099999999998 * r, -1.5e-7 * r, r % 7 ? 'x' : ' ', 1814.1413726146379 + r]),
    ];
    const book = writeWorkbook([{ name: 'Data', data }], 'xlsx', true);
    const edits: [string, (xml: string) => string][] = [
      ['none', (xml) => xml],
      ['a number with text after it', (xml) => xml.replace(/(<c r="C9"[^>]*><v>)([^<]*)/, '$1$2 x')],
      ['an entity in a number', (xml) => xml.replace(/(<c r="C11"[^>]*><v>)([^<]*)/, '$1&#49;$2')],
      ['an empty value', (xml) => xml.replace(/(<c r="C12"[^>]*><v>)([^<]*)/, '$1')],
      ['whitespace between cells', (xml) => xml.replace(/<\/c><c /g, '</c>\n<c ')],
      ['a formula', (xml) => xml.replace(/<c r="C14"([^>]*)><v>/, '<c r="C14"$1><f>B14*2</f><v>')],
    ];
    for (const [label, edit] of edits) {
      const parts = unzipSync(book);
      parts['xl/worksheets/sheet1.xml'] = strToU8(edit(strFromU8(parts['xl/worksheets/sheet1.xml'])));
      const bytes = Buffer.from(zipSync(parts));
      const whole = sheetsOf(label, bytes)[0].rows;
      const [sheet] = sheetsOf(label, bytes);
      const columns = new Set([0, 1, 4]);
      const got = sheet.readColumns?.(columns, 2);
      // Where the direct reader declines the sheet (SheetJS reads it), the selective read is the whole one.
      if (label === 'none' || !isDeepStrictEqual(got, whole)) expect(got, label).to.deep.equal(expected(whole, columns, 2));
    }
  });
});
