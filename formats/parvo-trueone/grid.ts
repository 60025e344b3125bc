/**
 * TrueOne writes the same block of cells to CSV and to Excel, so both are read into one grid of
 * rows: CSV lines are split on the vendor's ", " delimiter with quoted, space-padded strings, and
 * workbook rows are taken as the sheet reader gives them.
 */
import type { FileView } from '../../src/formats/file-view.js';

/** The first sheet's rows for a workbook, the tokenised lines for text, or null for other content. */
export function parvoGrid(file: FileView, maxRows = Infinity): unknown[][] | null {
  if (file.container === 'zip' || file.container === 'ole') {
    const sheet = file.sheets()?.[0];
    return sheet ? sheet.rows.slice(0, maxRows) : null;
  }
  if (file.container !== 'text') return null;
  const lines = Number.isFinite(maxRows) ? file.head(maxRows) : file.lines();
  return lines.map(splitParvoLine);
}

/**
 * Splits one TrueOne CSV line: `"TIME ", 0.301131, "Name", "TW02, "`. Quoted cells stay strings
 * (a quoted cell may itself hold ", "); unquoted cells become numbers when they read as one.
 */
export function splitParvoLine(line: string): unknown[] {
  const cells: unknown[] = [];
  let i = 0;
  const n = line.length;
  if (line.trim() === '') return cells;
  while (i <= n) {
    while (i < n && line[i] === ' ') i++;
    if (line[i] === '"') {
      const close = line.indexOf('"', i + 1);
      const end = close < 0 ? n : close;
      cells.push(line.slice(i + 1, end));
      i = end + 1;
      const comma = line.indexOf(',', i);
      if (comma < 0) break;
      i = comma + 1;
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      const token = line.slice(i, end).trim();
      const num = token === '' ? Number.NaN : Number(token);
      cells.push(Number.isFinite(num) ? num : token);
      if (comma < 0) break;
      i = comma + 1;
    }
  }
  return cells;
}

/** A cell as trimmed text ('' for empty cells and numbers rendered as text otherwise). */
export function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  return String(cell).trim();
}
