import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { BoundedZip } from '../../src/formats/bounded-zip.js';
import { FileView, READ_LIMITS } from '../../src/formats/file-view.js';
import { readSheets, writeWorkbook } from '../../src/formats/workbook.js';
import { openXlsx, unescapeXml } from '../../src/formats/xlsx-sheets.js';
import { listFixtures } from './fixture-helpers.js';
import { gaussian } from '../analyses/eov/recordings.js';

const LIMITS = { max_rows: READ_LIMITS.max_sheet_rows + 1, max_head_bytes: READ_LIMITS.max_head_bytes };

/** The rows SheetJS gives (src/formats/workbook.ts, as node-xlsx read them), with the options FileView gave it before the direct reader. */
function sheetJs(bytes: Buffer): { name: string; rows: unknown[][] }[] {
  return readSheets(bytes, { sheetRows: READ_LIMITS.max_sheet_rows + 1, raw: true, blankrows: true, defval: null, cellText: false }).map((s) => ({ name: s.name, rows: s.data as unknown[][] }));
}

/** The direct reader's sheets, each read whole and by head; null when it declines the workbook. */
function direct(bytes: Buffer): { name: string; rows: unknown[][] | null; head: unknown[][] | null }[] | null {
  const heads = openXlsx(new BoundedZip(bytes, READ_LIMITS.max_uncompressed_bytes), LIMITS);
  const whole = openXlsx(new BoundedZip(bytes, READ_LIMITS.max_uncompressed_bytes), LIMITS);
  if (!heads || !whole) return null;
  return whole.map((s, i) => ({ name: s.name, head: heads[i].head(READ_LIMITS.head_rows), rows: s.rows() }));
}

/** Both readers agree on names, rows and heads, and the direct one read every sheet itself. */
function expectSameAsSheetJs(bytes: Buffer, label: string): void {
  const expected = sheetJs(bytes);
  const got = direct(bytes);
  expect(got, `${label}: the direct reader declined the workbook`).to.not.equal(null);
  expect(
    got!.map((s) => s.name),
    label,
  ).to.deep.equal(expected.map((s) => s.name));
  got!.forEach((s, i) => {
    expect(s.rows, `${label} ${s.name}: rows`).to.deep.equal(expected[i].rows);
    expect(s.head, `${label} ${s.name}: head`).to.deep.equal(expected[i].rows.slice(0, READ_LIMITS.head_rows));
  });
}

/** The workbook with one part's text changed. */
function withPart(bytes: Buffer, name: string, edit: (xml: string) => string): Buffer {
  const parts = unzipSync(bytes);
  parts[name] = strToU8(edit(strFromU8(parts[name])));
  return Buffer.from(zipSync(parts));
}

describe('xlsx sheets read straight from the archive', () => {
  it('gives the rows SheetJS gives for every real workbook among the format fixtures, reading each itself', () => {
    const workbooks = listFixtures().filter((f) => f.input.endsWith('.xlsx'));
    expect(workbooks.length).to.be.at.least(4);
    for (const f of workbooks) expectSameAsSheetJs(readFileSync(f.input), `${f.format}/${f.name}`);
  });

  it('gives SheetJS rows for text with entities, escapes, line breaks and umlauts, booleans, numbers and gaps, inline or shared', () => {
    const data = [
      ['t', 'V\'O2 & "VCO2"', '<tag>', 'Größe (cm)', ' padded ', 'line\r\nbreak', 'x_x000D_y', null, true, false],
      [0, -1.5, 1e-7, 123456789012345680000, 0.30113099999999998, 2.5e300, null, '', 'ÆØÅ €', 3],
      [],
      [null, null, 'only here'],
    ];
    for (const bookSST of [false, true]) {
      expectSameAsSheetJs(writeWorkbook([{ name: 'Data', data }], 'xlsx', bookSST), `bookSST ${bookSST}`);
    }
  });

  it('starts rows and columns where the sheet dimension starts, blank rows inside it included', () => {
    const written = writeWorkbook([{ name: 'Offset', data: [[], [], [null, null, 'a', 1], [], [null, null, 'b', 2]] }]);
    const sheet = withPart(written, 'xl/worksheets/sheet1.xml', (xml) => xml.replace(/<dimension ref="[^"]*"/, '<dimension ref="C3:D5"'));
    expectSameAsSheetJs(sheet, 'dimension C3:D5');
    expect(sheetJs(sheet)[0].rows).to.deep.equal([
      ['a', 1],
      [null, null],
      ['b', 2],
    ]);
  });

  it('lists sheets in the order node-xlsx does, integer-like names first', () => {
    const book = writeWorkbook(
      ['Daten', '2', 'Ergebnisse', '1'].map((name, i) => ({ name, data: [[name, i]] })),
      'xlsx',
      true,
    );
    expectSameAsSheetJs(book, 'sheet order');
    expect(direct(book)!.map((s) => s.name)).to.deep.equal(['1', '2', 'Daten', 'Ergebnisse']);
  });

  it('reads the head of a long sheet from a cut of its compressed XML, the same rows as a whole read', () => {
    const draw = gaussian(7);
    const data = Array.from({ length: 3000 }, (_, r) => Array.from({ length: 20 }, (_, c) => (c === 0 ? r : draw())));
    const book = writeWorkbook([{ name: 'Long', data: [['t', ...Array.from({ length: 19 }, (_, c) => `c${c}`)], ...data] }]);
    const sheetEntry = new BoundedZip(book, READ_LIMITS.max_uncompressed_bytes).find('xl/worksheets/sheet1.xml')!;
    expect(sheetEntry.compressed.length, 'the sheet must be larger than one head read').to.be.above(256 * 1024);
    expectSameAsSheetJs(book, 'long sheet');
  });

  it('leaves to SheetJS a sheet without a stated dimension, and the file still reads the same rows', () => {
    const book = withPart(
      writeWorkbook([
        {
          name: 'Data',
          data: [
            ['t', 'VO2'],
            [1, 2],
          ],
        },
      ]),
      'xl/worksheets/sheet1.xml',
      (xml) => xml.replace(/<dimension[^>]*\/>/, ''),
    );
    const sheets = openXlsx(new BoundedZip(book, READ_LIMITS.max_uncompressed_bytes), LIMITS)!;
    expect(sheets[0].rows()).to.equal(null);
    expect(new FileView('x.xlsx', book).sheets()!.map((s) => s.rows)).to.deep.equal(sheetJs(book).map((s) => s.rows));
  });

  it('declines workbooks whose structure it does not read: no shared-string rich text guessed', () => {
    const book = withPart(writeWorkbook([{ name: 'Data', data: [['t', 'VO2']] }], 'xlsx', true), 'xl/sharedStrings.xml', (xml) => xml.replace('<si><t>t</t></si>', '<si><r><t>t</t></r></si>'));
    expect(openXlsx(new BoundedZip(book, READ_LIMITS.max_uncompressed_bytes), LIMITS)).to.equal(null);
    expect(new FileView('x.xlsx', book).sheets()!.map((s) => s.rows)).to.deep.equal(sheetJs(book).map((s) => s.rows));
  });

  it('reads only the head of the sheet for detectors, and the whole sheet only when its rows are asked for', () => {
    const draw = gaussian(11);
    const book = writeWorkbook([{ name: 'Long', data: Array.from({ length: 3000 }, () => Array.from({ length: 20 }, () => draw())) }]);
    const view = new FileView('x.xlsx', book);
    const heads = view.sheetHeads()!;
    expect(heads[0].rows.length).to.equal(READ_LIMITS.head_rows);
    expect(view.sheets()![0].rows.length).to.equal(3000);
    expect(heads[0].rows).to.deep.equal(view.sheets()![0].rows.slice(0, READ_LIMITS.head_rows));
  });

  it('reads rows where plain cells give way to other markup mid-row or mid-sheet as SheetJS does', () => {
    const data = [['t', 'VO2', 'VCO2', 'note', 'HR'], ...Array.from({ length: 120 }, (_, r) => [r, 0.30113099999999998 * r, -1.5e-7 * r, r % 7 === 0 ? 'x & y' : `s${r % 3}`, 1814.1413726146379 + r])];
    const edits: [string, (xml: string) => string][] = [
      ['whitespace between cells and rows', (xml) => xml.replace(/<\/c><c /g, '</c>\n  <c ').replace(/<\/row><row /g, '</row>\n<row ')],
      ['an attribute with a space in its value', (xml) => xml.replace(/<c r="C7"/, '<c x="a b" r="C7"')],
      ['a formula with its cached value', (xml) => xml.replace(/<c r="B9"([^>]*)><v>([^<]*)<\/v>/, '<c r="B9"$1><f>A9*2</f><v>$2</v>')],
      ['self-closing empty cells', (xml) => xml.replace(/<c r="E11"([^>]*)><v>[^<]*<\/v><\/c>/, '<c r="E11"$1/>')],
      ['a number with an exponent and one with a plus', (xml) => xml.replace(/(<c r="B13"[^>]*><v>)[^<]*/, '$11.5E-3').replace(/(<c r="C13"[^>]*><v>)[^<]*/, '$1+2.25')],
      ['a row tag with a namespaced attribute', (xml) => xml.replace(/<row r="17"/, '<row x14ac:dyDescent="0.2" r="17"')],
    ];
    for (const bookSST of [false, true]) {
      const book = writeWorkbook([{ name: 'Data', data }], 'xlsx', bookSST);
      expectSameAsSheetJs(book, `plain, bookSST ${bookSST}`);
      for (const [label, edit] of edits) expectSameAsSheetJs(withPart(book, 'xl/worksheets/sheet1.xml', edit), `${label}, bookSST ${bookSST}`);
    }
  });

  it('unescapes as SheetJS does: entities, numeric references, _xHHHH_ and CDATA', () => {
    expect(unescapeXml('a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;')).to.equal('a & b <c> "d" \'e\'');
    expect(unescapeXml('&#233;&#xE9;_x000D__x0041_')).to.equal('éé\rA');
    expect(unescapeXml('<![CDATA[&amp;]]>&amp;')).to.equal('&amp;&');
  });
});
