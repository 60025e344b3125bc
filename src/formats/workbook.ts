/**
 * Workbooks through SheetJS itself: the `xlsx` dependency is SheetJS 0.20.3 as republished on the
 * npm registry (@e965/xlsx), since SheetJS serves its own releases from a CDN npm cannot install
 * from. Sheets come back as rows of cell values, in the workbook's sheet order.
 */
import { read, utils, write, type WorkBook } from 'xlsx';

export interface SheetRows {
  name: string;
  data: unknown[][];
}

export interface ReadOptions {
  /** Rows read per sheet (SheetJS stops there). */
  sheetRows?: number;
  /** Cell values as stored (numbers stay numbers), not their formatted text. Default true. */
  raw?: boolean;
  /** Keep empty rows, so row numbers stay the file's. */
  blankrows?: boolean;
  /** The value of an empty cell. */
  defval?: unknown;
  /** Whether SheetJS formats each cell's text at all (values-only readers say false). */
  cellText?: boolean;
}

/** Every sheet of xlsx or xls bytes as rows of cells. */
export function readSheets(bytes: Uint8Array, options: ReadOptions = {}): SheetRows[] {
  const { blankrows, defval, raw = true, ...parsing } = options;
  const book = read(bytes, { raw, ...parsing });
  return Object.keys(book.Sheets).map((name) => ({ name, data: utils.sheet_to_json<unknown[]>(book.Sheets[name], { header: 1, blankrows, defval, raw }) }));
}

/** A workbook of the given sheets, as xlsx or as BIFF8 .xls bytes; `bookSST` writes text through the shared-strings table. */
export function writeWorkbook(sheets: readonly SheetRows[], bookType: 'xlsx' | 'biff8' = 'xlsx', bookSST = false): Buffer {
  const book: WorkBook = { SheetNames: [], Sheets: {} };
  for (const sheet of sheets) {
    book.SheetNames.push(sheet.name);
    book.Sheets[sheet.name] = utils.aoa_to_sheet(sheet.data);
  }
  return write(book, { bookType, bookSST, type: 'buffer' }) as Buffer;
}
