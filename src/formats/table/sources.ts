/**
 * The two kinds of grid a table is read from: a workbook sheet (cells as the workbook stores them,
 * positions as sheet rows) and delimited text (cells as text, positions as lines).
 */
import type { Sheet } from '../file-view.js';
import type { TextTable } from './delimited-text.js';
import type { TableSource } from './read-table.js';

export function sheetSource(sheet: Sheet): TableSource {
  return { rows: sheet.rows, where: (r) => ({ sheet: sheet.name, row: r + 1 }) };
}

export function textSource(table: TextTable): TableSource {
  return { rows: table.rows, where: (r) => ({ line: table.lines[r] ?? table.lines.length + 1 }), ends_with_line_break: table.ends_with_line_break };
}
