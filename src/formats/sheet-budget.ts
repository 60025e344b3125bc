/**
 * What a workbook's sheets would cost, counted before any of them is parsed: every XML part of the
 * archive is inflated (zlib, capped) and its rows (`<row`) and cells (`<c`) counted by a byte loop
 * that stops at the caps, so a few hundred KB that inflate to 80 MB of tiny cells are refused in the
 * time it takes to inflate them, instead of pinning a worker for its whole task budget in a parser.
 * (fflate's streaming inflate would stop earlier but is several times slower than zlib on such data.)
 * Each part's inflated bytes are handed back, so the reader that follows does not inflate them again.
 * An .xls (BIFF) workbook is not compressed, so its bytes are bounded by the upload's; its cells are
 * counted from the record headers of its workbook stream (checkBiffBudget), again before any parser.
 */
import { inflateRawSync } from 'node:zlib';
import { ServiceError } from '../errors.js';
import type { ZipEntry } from './bounded-zip.js';

export interface SheetBudget {
  /** Rows one sheet may hold (the caller's row cap). */
  max_sheet_rows: number;
  /** Cells one sheet may hold. */
  max_sheet_cells: number;
  /** What the XML parts of the archive may inflate to, all together. */
  max_uncompressed_bytes: number;
}

const LT = 0x3c;
const COLON = 0x3a;

/** Whether byte `b` may be part of an XML name (ASCII letters, digits, _ . -). */
function nameByte(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || (b >= 0x30 && b <= 0x39) || b === 0x5f || b === 0x2e || b === 0x2d;
}

/** Whether byte `b` ends a tag name (space, tab, CR, LF, / or >). */
function nameEnd(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a || b === 0x2f || b === 0x3e;
}

/**
 * Counts `<row` and `<c` start tags (with or without a namespace prefix; `<cols>`, `<color` and the
 * like do not count), a byte loop rather than a pattern over decoded text, stopping once either
 * count passes its cap.
 */
function countTags(bytes: Uint8Array, maxRows: number, maxCells: number): { rows: number; cells: number } {
  let rows = 0;
  let cells = 0;
  for (let i = bytes.indexOf(LT); i >= 0 && rows <= maxRows && cells <= maxCells; i = bytes.indexOf(LT, i + 1)) {
    let start = i + 1;
    let end = start;
    while (end < bytes.length && nameByte(bytes[end])) end++;
    if (bytes[end] === COLON) {
      start = end + 1;
      end = start;
      while (end < bytes.length && nameByte(bytes[end])) end++;
    }
    if (end >= bytes.length || !nameEnd(bytes[end])) continue;
    const length = end - start;
    if (length === 1 && bytes[start] === 0x63) cells++;
    else if (length === 3 && bytes[start] === 0x72 && bytes[start + 1] === 0x6f && bytes[start + 2] === 0x77) rows++;
  }
  return { rows, cells };
}

/**
 * What `countTags` gives for a part too short to hold more than `maxCells` cells: every counted tag
 * owns at least three bytes no other counted tag shares (its `<`, its name's last letter, the byte
 * ending the name), so a part under 3 (maxCells + 1) bytes never reaches the cell cap, and only its
 * `row` tags need finding. They are rare, so they are searched natively and each hit checked back to
 * its `<` as `countTags` reads it (`<row`, or `<prefix:row`, followed by a byte that ends a name).
 */
function countRowTags(bytes: Uint8Array, maxRows: number): { rows: number; cells: number } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let rows = 0;
  // Searched as `ow`: the search runs to each occurrence of its first byte, and cells hold no o.
  for (let ow = buf.indexOf('ow'); ow >= 0 && rows <= maxRows; ow = buf.indexOf('ow', ow + 2)) {
    const at = ow - 1;
    if (at < 0 || buf[at] !== 0x72 || ow + 2 >= buf.length || !nameEnd(buf[ow + 2])) continue;
    let lt = at - 1;
    if (buf[lt] === COLON) {
      lt--;
      while (lt >= 0 && nameByte(buf[lt])) lt--;
    }
    if (lt >= 0 && buf[lt] === LT) rows++;
  }
  return { rows, cells: 0 };
}

/**
 * Output chunk for inflating an entry: zlib's default 16 KB makes a large sheet thousands of chunks to
 * copy together, about a third of its inflation time; sheet XML inflates to 4-8 times its size. When
 * the size the archive states is plausible for its compressed bytes and within the room left, one
 * chunk one byte larger holds the whole part, and zlib hands that chunk back without concatenating
 * (a stated size that lies costs only more chunks, or a larger buffer, never a wrong result).
 */
function chunkSize(entry: ZipEntry, room: number): number {
  const stated = entry.declared_bytes;
  if (stated !== undefined && stated > 0 && stated < room && stated <= MAX_STATED_RATIO * entry.compressed.length + 64 * 1024) return Math.max(1024, stated + 1);
  return Math.min(1024 * 1024, Math.max(16 * 1024, 8 * entry.compressed.length));
}

/** Most a stated size may exceed the compressed bytes by to be taken as one chunk (XML compresses 5-20 fold). */
const MAX_STATED_RATIO = 64;

/**
 * Throws FILE_TOO_LARGE or RECORDING_TOO_LONG (with the limit in context) when a part passes the budget;
 * `inflated` receives every part inflated whole on the way.
 */
export function checkSheetBudget(entries: readonly ZipEntry[], budget: SheetBudget, inflated?: (entry: ZipEntry, xml: Uint8Array) => void): void {
  const inflatedTooMuch = (): ServiceError =>
    new ServiceError('FILE_TOO_LARGE', `The spreadsheet inflates to more than ${Math.round(budget.max_uncompressed_bytes / 1e6)} MB; it is refused unread.`, {
      max_uncompressed_bytes: budget.max_uncompressed_bytes,
    });
  let room = budget.max_uncompressed_bytes;
  for (const entry of entries) {
    if (!/\.xml$/i.test(entry.name) || (entry.method !== 0 && entry.method !== 8)) continue;
    let xml: Uint8Array;
    try {
      xml = entry.method === 0 ? entry.compressed : inflateRawSync(entry.compressed, { maxOutputLength: Math.max(1, room), chunkSize: chunkSize(entry, room) });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw inflatedTooMuch();
      // A damaged stream is left to the reader that follows, which names the damage.
      continue;
    }
    if (xml.length > room) throw inflatedTooMuch();
    room -= xml.length;
    inflated?.(entry, xml);
    const short = xml.length < 3 * (budget.max_sheet_cells + 1);
    const { rows, cells } = short ? countRowTags(xml, budget.max_sheet_rows) : countTags(xml, budget.max_sheet_rows, budget.max_sheet_cells);
    if (rows > budget.max_sheet_rows) {
      throw new ServiceError('RECORDING_TOO_LONG', `Part ${entry.name} of the workbook has more than ${budget.max_sheet_rows} rows; it is refused unread.`, {
        max_samples: 20_000,
        max_sheet_rows: budget.max_sheet_rows,
        where: { sheet: entry.name },
      });
    }
    if (cells > budget.max_sheet_cells) {
      throw new ServiceError('FILE_TOO_LARGE', `Part ${entry.name} of the workbook has more than ${budget.max_sheet_cells} cells; it is refused unread.`, {
        max_sheet_cells: budget.max_sheet_cells,
        where: { sheet: entry.name },
      });
    }
  }
}

/** BIFF records that hold one cell (BIFF5 and BIFF8: FORMULA, LABELSST, BLANK, NUMBER, LABEL, BOOLERR, RK, RSTRING). */
const ONE_CELL_RECORDS = new Set([0x0006, 0x00fd, 0x0201, 0x0203, 0x0204, 0x0205, 0x027e, 0x00d6]);
const MULRK = 0x00bd;
const MULBLANK = 0x00be;
const BOF = 0x0809;
const BOUNDSHEET = 0x0085;

/**
 * Throws FILE_TOO_LARGE (the cell limit in context) when one sheet of a BIFF workbook stream holds more
 * than `max_sheet_cells` cells. Each record's header gives its type and length, so the walk reads four
 * bytes a record: MULRK (6 bytes a cell) and MULBLANK (2 bytes a cell) count every cell they hold. Each
 * sheet is a substream from its BOF record, named by the BOUNDSHEET record that points at that offset
 * ([MS-XLS] 2.4.28 and 2.4.21).
 */
export function checkBiffBudget(stream: Uint8Array, budget: Pick<SheetBudget, 'max_sheet_cells'>): void {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  const names = new Map<number, string>();
  let sheet = 'workbook globals';
  let sheets = 0;
  let cells = 0;
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    const body = at + 4;
    if (body + length > stream.length) break;
    if (type === BOF) {
      sheet = names.get(at) ?? (sheets === 0 ? 'workbook globals' : `sheet ${sheets}`);
      sheets++;
      cells = 0;
    } else if (type === BOUNDSHEET && length >= 8) {
      names.set(view.getUint32(body, true), boundSheetName(stream, body, length));
    } else if (ONE_CELL_RECORDS.has(type)) cells++;
    else if (type === MULRK && length >= 6) cells += Math.floor((length - 6) / 6);
    else if (type === MULBLANK && length >= 6) cells += Math.floor((length - 6) / 2);
    if (cells > budget.max_sheet_cells) {
      throw new ServiceError('FILE_TOO_LARGE', `Sheet ${sheet} of the workbook has more than ${budget.max_sheet_cells} cells; it is refused unread.`, {
        max_sheet_cells: budget.max_sheet_cells,
        where: { sheet },
      });
    }
    at = body + length;
  }
}

/** A BOUNDSHEET record's sheet name: a count, a BIFF8 high-byte flag, then the characters (latin-1 or UTF-16LE). */
function boundSheetName(stream: Uint8Array, body: number, length: number): string {
  const count = stream[body + 6];
  const wide = (stream[body + 7] & 1) === 1;
  const start = body + 8;
  const end = Math.min(body + length, start + (wide ? 2 * count : count));
  return Buffer.from(stream.subarray(start, end)).toString(wide ? 'utf16le' : 'latin1');
}
