/**
 * Hostile workbooks for the upload limits and the spreadsheet budget (issues 14 and 20): a few hundred
 * KB whose one sheet inflates to tens of MB, and an .xls whose sheet holds millions of cells. Tests and
 * the benchmark build them the same way.
 */
import { strFromU8, strToU8, unzipSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { CFB } from 'xlsx';
import { biffStream, writeWorkbook } from '../formats/workbook.js';

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

/**
 * A BIFF8 .xls written by SheetJS whose one sheet gains `rows` MULRK records of 256 cells each (the
 * value 1 as an RK number), placed before the sheet's closing EOF record: 1,542 bytes a row, so 8,000
 * rows (2 million cells) are a 12 MB file, under the upload limit.
 */
export function tinyCellsXls(rows: number): Buffer {
  const seed = writeWorkbook(
    [
      {
        name: 'Daten',
        data: [
          ['t', 'VO2'],
          [0, 300],
        ],
      },
    ],
    'biff8',
  );
  const stream = biffStream(seed);
  if (!stream) throw new Error('SheetJS wrote an .xls without a Workbook stream');
  const columns = 256;
  const record = Buffer.alloc(4 + 6 + columns * 6);
  record.writeUInt16LE(0x00bd, 0);
  record.writeUInt16LE(record.length - 4, 2);
  record.writeUInt16LE(0, 6);
  for (let c = 0; c < columns; c++) {
    record.writeUInt16LE(0, 8 + c * 6);
    record.writeInt32LE((1 << 2) | 0x02, 10 + c * 6);
  }
  record.writeUInt16LE(columns - 1, record.length - 2);
  const padding = Buffer.alloc(rows * record.length);
  for (let r = 0; r < rows; r++) {
    record.writeUInt16LE((2 + r) & 0xffff, 4);
    record.copy(padding, r * record.length);
  }
  // The sheet is the stream's last substream, so its EOF (type 0x000a, length 0) is the last 4 bytes.
  const workbook = Buffer.concat([stream.subarray(0, stream.length - 4), padding, stream.subarray(stream.length - 4)]);
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/Workbook', workbook);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}
