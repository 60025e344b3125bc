/**
 * TrueOne writes the same block of cells to CSV and to Excel, so both are read into one grid of
 * rows: CSV lines (", "-separated, strings quoted and space-padded) through the table layer's
 * delimited reader, workbook rows as the sheet reader gives them.
 */
import { sheetSource, textHead, textSource, textTable, type FileView, type TableSource } from 'cpet-analysis-service/plugin';

/** The first sheet (or the text) as a table source, or null for other content. */
export function parvoSource(file: FileView): TableSource | null {
  if (file.container === 'zip' || file.container === 'ole') {
    const sheet = file.sheets()?.[0];
    return sheet ? sheetSource(sheet) : null;
  }
  const text = textTable(file, ',');
  return text ? textSource(text) : null;
}

/** The first rows of the first sheet or of the text, for detection. */
export function parvoHead(file: FileView, maxRows: number): readonly (readonly unknown[])[] | null {
  if (file.container === 'zip' || file.container === 'ole') return file.sheetHeads()?.[0]?.rows.slice(0, maxRows) ?? null;
  return textHead(file, maxRows)?.rows ?? null;
}

/** A cell as trimmed text ('' for empty cells). */
export function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  return String(cell).trim();
}
