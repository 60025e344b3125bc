/**
 * One uploaded file as every detector and parser sees it: the bytes, the extension, and lazily
 * decoded views (text, lines, JSON, workbook) computed once and shared by all plugins, with bounds
 * on what any view may cost.
 */
import { zipSync } from 'fflate';
import { ServiceError } from '../errors.js';
import { unzipBounded } from './bounded-zip.js';
import { readSheets } from './workbook.js';

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
} as const;

export type TextEncodingName = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface Sheet {
  name: string;
  /** Rows of cells as the workbook stores them: numbers stay numbers, text stays text. */
  rows: unknown[][];
}

/** The file container, from its leading bytes. */
export type Container = 'zip' | 'ole' | 'text' | 'binary';

export class FileView {
  readonly filename: string;
  readonly bytes: Buffer;
  private cachedText?: { text: string; encoding: TextEncodingName } | null;
  private cachedLines?: string[];
  private cachedJson?: { value: unknown } | null;
  private cachedSheets?: Sheet[] | null;
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
    const b = this.bytes;
    if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'zip';
    if (b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1) return 'ole';
    return this.text() === null ? 'binary' : 'text';
  }

  /** The file decoded as text (BOM, UTF-16 without BOM, UTF-8, else cp1252), or null for binary content. */
  text(): string | null {
    if (this.cachedText === undefined) this.cachedText = decodeText(this.bytes);
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
    if (text === null) return (this.cachedLines = []);
    const lines = text.split(/\r\n|\n|\r/);
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    if (lines.length > READ_LIMITS.max_lines) {
      throw new ServiceError('RECORDING_TOO_LONG', `The file has more than ${READ_LIMITS.max_lines} lines.`, { max_lines: READ_LIMITS.max_lines });
    }
    const long = lines.findIndex((l) => l.length > READ_LIMITS.max_line_chars);
    if (long >= 0) {
      throw new ServiceError('PARSER_ERROR', `Line ${long + 1} is longer than ${READ_LIMITS.max_line_chars} characters.`, { where: { line: long + 1 } });
    }
    return (this.cachedLines = lines);
  }

  /** The first `n` lines, for detectors. */
  head(n: number): string[] {
    const text = this.text();
    if (text === null) return [];
    return text.slice(0, READ_LIMITS.head_bytes).split(/\r\n|\n|\r/).slice(0, n);
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
   * The workbook's sheets for xlsx (zip) and xls (OLE/BIFF) files, else null. The zip is inflated
   * under a size cap first; rows beyond the row cap make RECORDING_TOO_LONG.
   */
  sheets(): Sheet[] | null {
    if (this.sheetsError) throw this.sheetsError;
    if (this.cachedSheets !== undefined) return this.cachedSheets;
    try {
      return (this.cachedSheets = this.readSheets());
    } catch (err) {
      if (err instanceof ServiceError) this.sheetsError = err;
      throw err;
    }
  }

  private readSheets(): Sheet[] | null {
    const container = this.container;
    if (container !== 'zip' && container !== 'ole') return null;
    let input: Buffer = this.bytes;
    if (container === 'zip') {
      const entries = unzipBounded(this.bytes, READ_LIMITS.max_uncompressed_bytes);
      if (![...entries.keys()].some((name) => name.startsWith('xl/'))) return null;
      input = Buffer.from(zipSync(Object.fromEntries(entries), { level: 0 }));
    }
    let parsed: { name: string; data: unknown[][] }[];
    try {
      // Values only: `raw` rows never read a cell's formatted text, so SheetJS is told not to format it.
      parsed = readSheets(input, { sheetRows: READ_LIMITS.max_sheet_rows + 1, raw: true, blankrows: true, defval: null, cellText: false });
    } catch (err) {
      throw new ServiceError('PARSER_ERROR', `The workbook cannot be read: ${(err as Error).message}.`, {});
    }
    for (const sheet of parsed) {
      if (sheet.data.length > READ_LIMITS.max_sheet_rows) {
        throw new ServiceError('RECORDING_TOO_LONG', `Sheet ${sheet.name} has more than ${READ_LIMITS.max_sheet_rows} rows.`, {
          max_samples: 20_000,
          where: { sheet: sheet.name },
        });
      }
    }
    return parsed.map((s) => ({ name: s.name, rows: s.data }));
  }
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
    encoding = sniffUtf16(bytes) ?? (isUtf8(bytes) ? 'utf-8' : 'windows-1252');
  }
  const decoder = new TextDecoder(encoding === 'utf-8-bom' ? 'utf-8' : encoding);
  let text = decoder.decode(body);
  text = text.replace(/[\x1a\x00]+$/, '');
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

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Control characters other than tab, CR, LF and form feed mark binary content. */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (sample.length === 0) return false;
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0xfffd) control++;
  }
  return control / sample.length > 0.02;
}
