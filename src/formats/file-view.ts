/**
 * One uploaded file as every detector and parser sees it: the bytes, the extension, and lazily
 * decoded views (text, lines, JSON, workbook) computed once and shared by all plugins, with bounds
 * on what any view may cost.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { zipSync } from 'fflate';
import { ServiceError } from '../errors.js';
import { BoundedZip, unzipBounded } from './bounded-zip.js';
import { checkBiffBudget, checkSheetBudget } from './sheet-budget.js';
import { biffStream, readSheets } from './workbook.js';
import { openXlsx, type LazySheet } from './xlsx-sheets.js';

export { UNREAD } from './xlsx-sheets.js';

/** Reading limits; a file that would pass them is refused, never read further. */
export const READ_LIMITS = {
  /** Total uncompressed size of an xlsx archive. */
  max_uncompressed_bytes: 120 * 1024 * 1024,
  /** Rows read from one sheet: 20,000 samples plus room for header blocks and trailers. */
  max_sheet_rows: 20_500,
  /** Lines read from a text file. */
  max_lines: 200_000,
  /** Characters in one line of text. */
  max_line_chars: 200_000,
  /** Bytes of the head that detectors look at. */
  head_bytes: 64 * 1024,
  /** Rows of each sheet that detectors look at (`sheetHeads`): the most any detector reads. */
  head_rows: 80,
  /** Most the head of one sheet may inflate to: more from a few compressed KB is a zip bomb. */
  max_head_bytes: 64 * 1024 * 1024,
  /** Cells in one sheet: the row cap times 73 columns (counted before parsing, sheet-budget.ts). */
  max_sheet_cells: 1_500_000,
} as const;

/** Excel's column limit: no row of a sheet is wider. */
const MAX_COLUMNS = 16_384;

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface Sheet {
  name: string;
  /** Rows of cells as the workbook stores them: numbers stay numbers, text stays text. */
  rows: unknown[][];
  /**
   * Column-selective reading, present where the reader can skip numbers (an xlsx sheet the direct
   * reader handles): every row as `rows` gives it, except that from row `wholeBefore` on a number in
   * a column (index in the row) outside `columns` is not decoded and its cell holds UNREAD, which is
   * never blank. For a reader that looks at no other column's numbers (table/sources.ts
   * `selectiveSheetSource`); once `rows` has been read, that is what it gives.
   */
  readColumns?(columns: ReadonlySet<number>, wholeBefore: number): unknown[][];
}

/** The file container, from its leading bytes. */
export type Container = 'zip' | 'ole' | 'text' | 'binary';

export class FileView {
  readonly filename: string;
  readonly bytes: Buffer;
  private cachedText?: { text: string; encoding: TextEncodingName } | null;
  private cachedLines?: string[];
  private cachedHead?: string[];
  private cachedJson?: { value: unknown } | null;
  private cachedSheets?: Sheet[] | null;
  /** The first rows of each sheet, read from the head of its XML where the sheet has not been read whole. */
  private cachedHeads?: Sheet[] | null;
  /** Per sheet of an xlsx read directly, its head; absent for workbooks SheetJS read. */
  private headReaders?: (() => unknown[][])[];
  /** The whole workbook as SheetJS reads it, for what the direct reader leaves to it. */
  private sheetJs?: Sheet[] | null;
  /** A workbook that failed to open fails the same way for every later caller, without re-inflating. */
  private sheetsError?: ServiceError;

  constructor(filename: string, bytes: Buffer) {
    this.filename = filename;
    this.bytes = bytes;
  }

  /** Lower-case extension without the dot ('' when the name has none). */
  get extension(): string {
    const base = this.filename.split(/[\\/]/).pop() ?? '';
    const dot = base.lastIndexOf('.');
    return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  }

  get container(): Container {
    const archive = isArchive(this.bytes);
    if (archive) return archive;
    return this.text() === null ? 'binary' : 'text';
  }

  /** The file decoded as text (BOM, UTF-16 without BOM, UTF-8, else cp1252), or null for binary content. */
  text(): string | null {
    // An archive (zip or OLE) is binary whatever its bytes decode to; it is not decoded at all.
    if (this.cachedText === undefined) this.cachedText = isArchive(this.bytes) ? null : decodeText(this.bytes);
    return this.cachedText?.text ?? null;
  }

  /** The encoding `text()` used, or null for binary content. */
  encoding(): TextEncodingName | null {
    this.text();
    return this.cachedText?.encoding ?? null;
  }

  /** Text lines without their line endings (CRLF, LF or CR); a trailing 0x1A is already gone. */
  lines(): string[] {
    if (this.cachedLines) return this.cachedLines;
    const text = this.text();
    if (text === null) {
      this.cachedLines = [];
      return this.cachedLines;
    }
    const lines = splitLines(text);
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    if (lines.length > READ_LIMITS.max_lines) {
      throw new ServiceError('RECORDING_TOO_LONG', `The file has more than ${READ_LIMITS.max_lines} lines.`, { max_lines: READ_LIMITS.max_lines });
    }
    const long = lines.findIndex((l) => l.length > READ_LIMITS.max_line_chars);
    if (long >= 0) {
      throw new ServiceError('PARSER_ERROR', `Line ${long + 1} is longer than ${READ_LIMITS.max_line_chars} characters.`, { where: { line: long + 1 } });
    }
    this.cachedLines = lines;
    return lines;
  }

  /** The first `n` lines, for detectors (the head is split once and shared by every detector). */
  head(n: number): string[] {
    const text = this.text();
    if (text === null) return [];
    this.cachedHead ??= splitLines(text.slice(0, READ_LIMITS.head_bytes));
    return this.cachedHead.slice(0, n);
  }

  /** The text parsed as JSON, or undefined when it is not JSON. */
  json(): unknown {
    if (this.cachedJson === undefined) {
      const text = this.text();
      const trimmed = text?.trimStart() ?? '';
      if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) {
        this.cachedJson = null;
      } else {
        try {
          this.cachedJson = { value: JSON.parse(text as string) };
        } catch {
          this.cachedJson = null;
        }
      }
    }
    return this.cachedJson?.value;
  }

  /**
   * The workbook's sheets for xlsx (zip) and xls (OLE/BIFF) files, else null. An xlsx sheet's rows
   * are read when first asked for (its XML alone is inflated, under the archive's size cap); rows
   * beyond the row cap make RECORDING_TOO_LONG.
   */
  sheets(): Sheet[] | null {
    if (this.sheetsError) throw this.sheetsError;
    if (this.cachedSheets !== undefined) return this.cachedSheets;
    try {
      this.cachedSheets = this.readSheets();
      return this.cachedSheets;
    } catch (err) {
      if (err instanceof ServiceError) this.sheetsError = err;
      throw err;
    }
  }

  /**
   * The first READ_LIMITS.head_rows rows of every sheet, for detectors: an xlsx sheet not yet read
   * whole gives them from the inflated head of its XML.
   */
  sheetHeads(): Sheet[] | null {
    if (this.cachedHeads !== undefined) return this.cachedHeads;
    const sheets = this.sheets();
    if (!sheets) {
      this.cachedHeads = null;
      return null;
    }
    const heads = this.headReaders;
    this.cachedHeads = sheets.map((sheet, i) => ({ name: sheet.name, rows: heads ? heads[i]() : sheet.rows.slice(0, READ_LIMITS.head_rows) }));
    return this.cachedHeads;
  }

  /** Reads every sheet whole and counts their rows; a workbook that cannot be read throws what makes it unreadable. */
  readEverySheet(): number {
    let rows = 0;
    for (const sheet of this.sheets() ?? []) rows += sheet.rows.length;
    return rows;
  }

  private readSheets(): Sheet[] | null {
    const container = this.container;
    if (container === 'ole') {
      const stream = biffStream(this.bytes);
      if (stream) checkBiffBudget(stream, { max_sheet_cells: READ_LIMITS.max_sheet_cells });
      return this.readWithSheetJs(this.bytes);
    }
    if (container !== 'zip') return null;
    const zip = new BoundedZip(this.bytes, READ_LIMITS.max_uncompressed_bytes);
    if (!zip.entries.some((e) => e.name.startsWith('xl/'))) return null;
    checkSheetBudget(
      zip.entries,
      { max_sheet_rows: READ_LIMITS.max_sheet_rows + 1, max_sheet_cells: READ_LIMITS.max_sheet_cells, max_uncompressed_bytes: READ_LIMITS.max_uncompressed_bytes },
      (entry, xml) => zip.keep(entry, xml),
    );
    const direct = openXlsx(zip, { max_rows: READ_LIMITS.max_sheet_rows + 1, max_head_bytes: READ_LIMITS.max_head_bytes });
    if (!direct) return this.workbookFromSheetJs();
    this.headReaders = direct.map((sheet, i) => () => sheet.head(READ_LIMITS.head_rows) ?? (this.cachedSheets as Sheet[])[i].rows.slice(0, READ_LIMITS.head_rows));
    return direct.map((sheet) => this.lazySheet(sheet));
  }

  /** A sheet whose rows are read on first use, by SheetJS when the direct reader declines its markup. */
  private lazySheet(sheet: LazySheet): Sheet {
    let rows: unknown[][] | undefined;
    let failure: unknown;
    const read = (): unknown[][] => {
      const direct = sheet.rows();
      if (direct) return checkRowCap(sheet.name, direct);
      return this.workbookFromSheetJs()?.find((s) => s.name === sheet.name)?.rows ?? [];
    };
    const lazy: Sheet = {
      name: sheet.name,
      get rows(): unknown[][] {
        if (failure !== undefined) throw failure;
        if (rows === undefined) {
          try {
            rows = read();
          } catch (err) {
            failure = err;
            throw err;
          }
        }
        return rows;
      },
      readColumns(columns, wholeBefore) {
        if (rows !== undefined || failure !== undefined) return lazy.rows;
        const skip = new Uint8Array(MAX_COLUMNS).fill(1);
        for (const c of columns) if (c >= 0 && c < MAX_COLUMNS) skip[c] = 0;
        const direct = sheet.rowsSkipping(skip, wholeBefore);
        return direct ? checkRowCap(sheet.name, direct) : lazy.rows;
      },
    };
    return lazy;
  }

  /** The whole workbook through SheetJS, from a stored (uncompressed) copy of the capped archive. */
  private workbookFromSheetJs(): Sheet[] | null {
    if (this.sheetJs === undefined) {
      const entries = unzipBounded(this.bytes, READ_LIMITS.max_uncompressed_bytes);
      this.sheetJs = this.readWithSheetJs(Buffer.from(zipSync(Object.fromEntries(entries), { level: 0 })));
    }
    return this.sheetJs;
  }

  private readWithSheetJs(input: Buffer): Sheet[] {
    let parsed: { name: string; data: unknown[][] }[];
    try {
      // Values only: `raw` rows never read a cell's formatted text, so SheetJS is told not to format it.
      parsed = readSheets(input, { sheetRows: READ_LIMITS.max_sheet_rows + 1, raw: true, blankrows: true, defval: null, cellText: false });
    } catch (err) {
      throw new ServiceError('PARSER_ERROR', `The workbook cannot be read: ${(err as Error).message}.`, {});
    }
    return parsed.map((s) => ({ name: s.name, rows: checkRowCap(s.name, s.data) }));
  }
}

/** The rows, or RECORDING_TOO_LONG when the sheet holds more than the row cap. */
function checkRowCap(name: string, rows: unknown[][]): unknown[][] {
  if (rows.length > READ_LIMITS.max_sheet_rows) {
    throw new ServiceError('RECORDING_TOO_LONG', `Sheet ${name} has more than ${READ_LIMITS.max_sheet_rows} rows.`, {
      max_samples: 20_000,
      where: { sheet: name },
    });
  }
  return rows;
}

/**
 * Lines split at CRLF, LF or CR. A text with one kind of line end (nearly every export) is split by
 * that string, which is much faster than the pattern; mixed line ends go through the pattern.
 */
export function splitLines(text: string): string[] {
  if (!text.includes('\r')) return text.split('\n');
  if (!text.includes('\n')) return text.split('\r');
  const lines = text.split('\r\n');
  return lines.some((l) => l.includes('\r') || l.includes('\n')) ? text.split(/\r\n|\n|\r/) : lines;
}

/** 'zip' or 'ole' from the leading bytes (an xlsx, an xls), else null. */
function isArchive(b: Buffer): 'zip' | 'ole' | null {
  if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'zip';
  if (b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1) return 'ole';
  return null;
}

/** Decodes bytes to text, or returns null when they look binary. */
export function decodeText(bytes: Buffer): { text: string; encoding: TextEncodingName } | null {
  let encoding: TextEncodingName;
  let body: Buffer = bytes;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    encoding = 'utf-8-bom';
    body = bytes.subarray(3);
  } else if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    encoding = 'utf-16le';
    body = bytes.subarray(2);
  } else if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    encoding = 'utf-16be';
    body = bytes.subarray(2);
  } else {
    encoding = sniffUtf16(bytes) ?? 'utf-8';
  }
  let text: string;
  if (encoding === 'utf-8') {
    // Valid UTF-8 is told from cp1252 by a native check; ASCII, and cp1252 without its 0x80-0x9F
    // characters, are latin1 byte for byte, which decodes several times faster than either decoder.
    if (isAscii(bytes)) text = bytes.toString('latin1');
    else if (isUtf8(bytes)) text = bytes.toString('utf8');
    else {
      encoding = 'windows-1252';
      text = hasC1Bytes(bytes) ? new TextDecoder(encoding).decode(body) : bytes.toString('latin1');
    }
  } else {
    text = new TextDecoder(encoding === 'utf-8-bom' ? 'utf-8' : encoding).decode(body);
  }
  // Trailing 0x1A (DOS end of file) and NUL padding; a loop from the end, as a regex anchored at the
  // end would be tried at every position of the text.
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 0x1a || text.charCodeAt(end - 1) === 0)) end--;
  if (end < text.length) text = text.slice(0, end);
  if (looksBinary(text)) return null;
  return { text, encoding };
}

/** UTF-16 without a BOM shows as NUL bytes in every other position of ASCII text. */
function sniffUtf16(bytes: Buffer): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.4 && evenNul < pairs * 0.05) return 'utf-16le';
  if (evenNul > pairs * 0.4 && oddNul < pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * Whether any byte is 0x80-0x9F, where cp1252 and latin1 differ; four bytes at a time where the buffer
 * is aligned. A C1 byte is one whose top three bits are 100: masked to them and XORed with 0x80, it is
 * a zero byte, and `(z - 0x01010101) & ~z & 0x80808080` is non-zero exactly when z has a zero byte.
 * (Branching to a byte loop on every word with a high bit made optimized code deoptimize at the
 * first such word of a file.)
 */
export function hasC1Bytes(bytes: Buffer): boolean {
  if (bytes.byteOffset % 4 !== 0) return c1Between(bytes, 0, bytes.length);
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  for (let w = 0; w < words.length; w++) {
    const z = (words[w] & 0xe0e0e0e0) ^ 0x80808080;
    if ((z - 0x01010101) & ~z & 0x80808080) return true;
  }
  return c1Between(bytes, 4 * words.length, bytes.length);
}

function c1Between(bytes: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (bytes[i] >= 0x80 && bytes[i] < 0xa0) return true;
  return false;
}

/** Tab, LF, form feed and CR, as bits by character code: the control characters text holds. */
const ALLOWED_CONTROLS = (1 << 9) | (1 << 10) | (1 << 12) | (1 << 13);

/** Control characters other than tab, CR, LF and form feed mark binary content. */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (sample.length === 0) return false;
  let control = 0;
  // Counted without a branch per kind of character: a test that a text never reached had no type
  // feedback, and optimized code deoptimized there again and again.
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    control += c < 32 ? ((ALLOWED_CONTROLS >>> c) & 1) ^ 1 : +(c === 0xfffd);
  }
  return control / sample.length > 0.02;
}
