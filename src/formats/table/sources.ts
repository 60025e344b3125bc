/**
 * The two kinds of grid a table is read from: a workbook sheet (cells as the workbook stores them,
 * positions as sheet rows) and delimited text (cells as text, positions as lines).
 */
import type { Sheet } from '../file-view.js';
import type { TextTable } from './delimited-text.js';
import { columnsRead, type TableLayout, type TableOptions, type TableSource } from './read-table.js';

export function sheetSource(sheet: Sheet): TableSource {
  return { rows: sheet.rows, where: (r) => ({ sheet: sheet.name, row: r + 1 }) };
}

export function textSource(table: TextTable): TableSource {
  return { rows: table.rows, where: (r) => ({ line: table.lines[r] ?? table.lines.length + 1 }), ends_with_line_break: table.ends_with_line_break };
}

/**
 * A sheet's table read column-selectively where the sheet allows it (Sheet.readColumns): numbers
 * are decoded only in the columns readTable reads (`columnsRead` of `headerCells`, the header row as
 * found in the sheet's first rows) and in the rows above the data. The table's `data` then holds
 * UNREAD for every other number: for a plugin that reads no other column of it. The sheet is read
 * when the rows are first asked for.
 */
export function selectiveSheetSource(sheet: Sheet, headerCells: readonly unknown[], layout: TableLayout, options: TableOptions = {}): TableSource {
  let rows: unknown[][] | undefined;
  return {
    get rows(): unknown[][] {
      rows ??= sheet.readColumns ? sheet.readColumns(columnsRead(headerCells, layout, options), layout.data_start) : sheet.rows;
      return rows;
    },
    where: (r) => ({ sheet: sheet.name, row: r + 1 }),
  };
}
