/**
 * Where things are in a COSMED export: the metadata block in columns A-H (label, value pairs), the
 * data table from the column whose row-1 header is `t` (column J beside the block, column A when
 * the export holds the data table only), units in row 2.
 */
import { locateTable, normaliseHeader, selectiveSheetSource, textSource, textTable, type FileView, type Sheet, type TableHeader, type TableSource, type TextTable } from 'cpet-analysis-service/plugin';

/** Columns A-H hold the metadata block in both Omnia and PFT Suite exports. */
export const METADATA_COLUMNS = 8;
/** COSMED puts its header in row 1; a few rows leave room for a title line a re-save may add. */
const HEADER_SEARCH_ROWS = 5;

/** Index of the data table's time column in a row: the first header equal to `t` (as whippr finds it), or -1. */
export function timeColumn(row: readonly unknown[] | undefined): number {
  return (row ?? []).findIndex((c) => normaliseHeader(c) === 't');
}

/** A metadata label as compared: lower case, trailing colon dropped (`Weight (Kg):` → `weight (kg)`). */
export function metadataLabel(cell: unknown): string {
  return normaliseHeader(cell).replace(/:$/, '');
}

/** The grid holding the data table: the first sheet with one (Omnia's Daten/Data), or the text. */
export interface CosmedTable {
  source: TableSource;
  layout: TableHeader;
  /** The sheet the table is on (null for CSV); the other sheets hold Omnia's results. */
  sheet: Sheet | null;
  /** The rows the header and the metadata block are in: a sheet's first rows, or every row of text. */
  rows: readonly (readonly unknown[])[];
}

/**
 * Finds the data table in a workbook's sheets or in delimited text; null when there is none. A
 * sheet's header and metadata come from its first rows, and its data table is read column by
 * column: the parse uses no value outside the table's named columns, and an export's 128 columns
 * are mostly ones it does not read.
 */
export function findCosmedTable(file: FileView): CosmedTable | null {
  const sheets = file.sheets();
  if (sheets) {
    const heads = file.sheetHeads() ?? [];
    for (const [i, sheet] of sheets.entries()) {
      const head = heads[i]?.rows ?? sheet.rows;
      const layout = locateTable(head, { from_time_column: true, max_rows: HEADER_SEARCH_ROWS });
      if (layout) return { source: selectiveSheetSource(sheet, head[layout.header_row] ?? [], layout), layout, sheet, rows: head };
    }
    return null;
  }
  const text: TextTable | null = textTable(file);
  if (!text) return null;
  const layout = locateTable(text.rows, { from_time_column: true, max_rows: HEADER_SEARCH_ROWS });
  return layout ? { source: textSource(text), layout, sheet: null, rows: text.rows } : null;
}
