/**
 * Re-writing a real export's cells in another container, as labs and their tools do: a workbook
 * read and written back (xlsx, BIFF8 .xls), cells written as CSV or TSV (quoted where needed, a
 * decimal comma when Excel runs in a European locale), cells renamed by a translation table.
 */
import { readSheets, writeWorkbook } from '../../../src/formats/workbook.js';

export type Grid = unknown[][];
export interface SheetGrid {
  name: string;
  data: Grid;
}

/** The sheets of a workbook, cells as the workbook stores them (numbers stay numbers). */
export function readWorkbook(bytes: Buffer): SheetGrid[] {
  return readSheets(bytes, { raw: true, blankrows: true, defval: null });
}

export function xlsxOf(sheets: readonly SheetGrid[]): Buffer {
  return writeWorkbook(sheets);
}

export function xlsOf(sheets: readonly SheetGrid[]): Buffer {
  return writeWorkbook(sheets, 'biff8');
}

export interface TextOptions {
  delimiter?: string;
  /** Numbers written with a decimal comma (a European locale's CSV). */
  decimal_comma?: boolean;
  line_end?: string;
}

/** Cells as delimited text: numbers in their shortest exact form, text quoted when it holds the delimiter, a quote or a line break. */
export function textOf(rows: Grid, options: TextOptions = {}): Buffer {
  const delimiter = options.delimiter ?? ',';
  const cell = (c: unknown): string => {
    if (c === null || c === undefined) return '';
    if (typeof c === 'number') return options.decimal_comma ? String(c).replace('.', ',') : String(c);
    const s = String(c);
    return s.includes(delimiter) || s.includes('"') || s.includes('\n') ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const eol = options.line_end ?? '\r\n';
  return Buffer.from(rows.map((r) => r.map(cell).join(delimiter)).join(eol) + eol, 'utf8');
}

/** Rows with every text cell found in `names` replaced (exact match after trimming). */
export function renamed(rows: Grid, names: Readonly<Record<string, string>>): Grid {
  return rows.map((r) => r.map((c) => (typeof c === 'string' && names[c.trim()] !== undefined ? names[c.trim()] : c)));
}

/** Lines of a tab-separated text file as rows of text cells (blank lines dropped). */
export function tabRows(text: string): string[][] {
  return text
    .split(/\r\n|\n/)
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

/** `m:ss` (or `-m:ss`) for a time in seconds. */
export function mss(seconds: number): string {
  const sign = seconds < 0 ? '-' : '';
  const s = Math.abs(seconds);
  return `${sign}${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;
}

/** `hh:mm:ss` for a whole number of seconds. */
export function hhmmss(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((x) => String(x).padStart(2, '0')).join(':');
}
