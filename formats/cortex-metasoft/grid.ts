/**
 * MetaSoft writes one table layout to two containers: xlsx (read by the shared sheet reader) and
 * Excel 2003 SpreadsheetML (read by the entity-safe reader). Both become the same rows of cells.
 */
import { readSpreadsheetMl, type FileView, type Sheet } from 'cpet-analysis-service/plugin';

/** SpreadsheetML's signature: its namespace or its processing instruction. */
export function isSpreadsheetMl(head: string): boolean {
  return /urn:schemas-microsoft-com:office:spreadsheet|<\?mso-application progid="Excel\.Sheet"\?>/.test(head);
}

/** The first sheet of the workbook or SpreadsheetML file, or null for other content. */
export function cortexSheet(file: FileView): Sheet | null {
  if (file.container === 'zip' || file.container === 'ole') return file.sheets()?.[0] ?? null;
  if (file.container !== 'text') return null;
  const text = file.text() ?? '';
  if (!isSpreadsheetMl(text.slice(0, 4096))) return null;
  return readSpreadsheetMl(text)[0] ?? null;
}

/** The first sheet's head rows for detection, or why the workbook cannot be read (a detector never throws). */
export function firstSheet(file: FileView): { rows: unknown[][] } | { error: string } {
  try {
    return { rows: file.sheetHeads()?.[0]?.rows ?? [] };
  } catch (err) {
    return { error: `workbook unreadable: ${(err as Error).message}` };
  }
}
