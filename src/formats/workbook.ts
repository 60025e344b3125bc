/**
 * Workbooks through SheetJS itself: the `xlsx` dependency is SheetJS 0.20.3 as republished on the
 * npm registry (@e965/xlsx), since SheetJS serves its own releases from a CDN npm cannot install
 * from. Sheets come back as rows of cell values, in the workbook's sheet order.
 */
import { CFB, read, utils, write, type WorkBook } from 'xlsx';

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

/** What SheetJS's compound-file reader gives for one stream (its package types CFB as `any`). */
interface CompoundEntry {
  content?: ArrayLike<number>;
}

/**
 * The BIFF workbook stream of an OLE compound file (an .xls): `Workbook` (BIFF8) or `Book` (BIFF5),
 * else null, also when the container cannot be read (the workbook reader that follows names why).
 * Reading the container only follows its sector chains; no record is parsed.
 */
export function biffStream(bytes: Uint8Array): Uint8Array | null {
  let entry: CompoundEntry | null = null;
  try {
    const container: unknown = CFB.read(bytes, { type: 'buffer' });
    entry = (CFB.find(container, 'Workbook') ?? CFB.find(container, 'Book')) as CompoundEntry | null;
  } catch {
    return null;
  }
  const content = entry?.content;
  if (!content) return null;
  return content instanceof Uint8Array ? content : Uint8Array.from(content);
}
