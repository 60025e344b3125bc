/**
 * The project's one CSV writer (RFC 4180: comma, CRLF-free `\n` rows, quotes doubled). Text cells
 * that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return) get a
 * leading apostrophe (OWASP, CSV injection); numbers are written as numbers, negative ones included.
 * Rows come out in chunks, so a long recording streams and memory stays bounded.
 */
import type { ExportTable } from './table.js';

export type Cell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell as CSV text: empty for null, numbers as JavaScript prints them, text quoted when it must be. */
export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\n`;
}

/** Header comment lines (`# key: value`) for what a table cannot say in its columns. */
export function csvComments(about: Record<string, string | number | null>): string {
  return Object.entries(about)
    .map(([k, v]) => `# ${k}: ${String(v ?? '').replace(/[\r\n]+/g, ' ')}\n`)
    .join('');
}

const ROWS_PER_CHUNK = 500;

/** The export table as CSV text chunks: comments, the column row, then rows in groups. */
export function* exportCsvChunks(table: ExportTable): Generator<string> {
  yield csvComments(table.about) + csvRow(['t_s', ...table.columns.map((c) => c.name), 'phase', 'flags']);
  for (let start = 0; start < table.t_s.length; start += ROWS_PER_CHUNK) {
    let chunk = '';
    for (let i = start; i < Math.min(table.t_s.length, start + ROWS_PER_CHUNK); i++) {
      chunk += csvRow([table.t_s[i], ...table.values.map((col) => col[i]), table.phase[i], table.flags[i]]);
    }
    yield chunk;
  }
}

/** The export table as JSON chunks: columns as arrays (t_s, one per channel, phase, flags). */
export function* exportJsonChunks(table: ExportTable): Generator<string> {
  yield `{"about":${JSON.stringify(table.about)},"columns":${JSON.stringify(table.columns.map((c) => ({ name: c.name, unit: c.unit, channel: c.channel })))},"t_s":${JSON.stringify(table.t_s)}`;
  yield `,"values":{${table.columns.map((c, k) => `${JSON.stringify(c.name)}:${JSON.stringify(table.values[k])}`).join(',')}}`;
  yield `,"phase":${JSON.stringify(table.phase)},"flags":${JSON.stringify(table.flags)}}`;
}
