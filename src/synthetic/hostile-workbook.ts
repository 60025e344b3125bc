/**
 * Hostile workbooks for the upload limits and the spreadsheet budget (issues 14 and 20): a few hundred
 * KB whose one sheet inflates to tens of MB. Tests and the benchmark build them the same way.
 */
import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { writeWorkbook } from '../formats/workbook.js';

const MB = 1024 * 1024;

/** A workbook written by SheetJS whose one sheet is padded with `rowXml` repeated to `inflatedMb` MB. */
export function paddedXlsx(inflatedMb: number, rowXml: string): Buffer {
  const seed = unzipSync(
    writeWorkbook([
      {
        name: 'Daten',
        data: [
          ['t', 'VO2'],
          [0, 300],
        ],
      },
    ]),
  );
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
  const chunk = Buffer.alloc(MB, rowXml);
  for (let i = 0; i < inflatedMb; i++) sheet.push(chunk);
  sheet.push(strToU8(`</sheetData>${tail}`), true);
  zip.end();
  return Buffer.concat(parts);
}

/** A sheet of rows of 256 one-digit cells: many cells per inflated byte, what the cell budget counts. */
export function tinyCellsXlsx(inflatedMb: number): Buffer {
  return paddedXlsx(inflatedMb, `<row>${'<c><v>1</v></c>'.repeat(256)}</row>`);
}
