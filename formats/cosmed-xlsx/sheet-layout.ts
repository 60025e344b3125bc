/**
 * Where things are in a COSMED sheet: the metadata block in columns A-H (label, value pairs), the
 * data table from the column whose row-1 header is `t`, units in row 2, data from row 4.
 */
import { normaliseHeader } from '../../src/formats/columns.js';
import type { Sheet } from '../../src/formats/file-view.js';

/** Columns A-H hold the metadata block in both Omnia and PFT Suite exports. */
export const METADATA_COLUMNS = 8;

/** Index of the data table's time column: the first row-1 header equal to `t` (as whippr finds it). */
export function timeColumn(sheet: Sheet): number {
  const header = sheet.rows[0] ?? [];
  return header.findIndex((c, i) => i >= METADATA_COLUMNS - 1 && normaliseHeader(c) === 't');
}

/** A metadata label as compared: lower case, trailing colon dropped (`Weight (Kg):` → `weight (kg)`). */
export function metadataLabel(cell: unknown): string {
  return normaliseHeader(cell).replace(/:$/, '');
}
