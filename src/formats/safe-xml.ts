/**
 * Reading XML uploads without the XML risks: a DOCTYPE that declares entities (the "billion laughs"
 * expansion bomb) or points outside the file (XXE) is refused before any parsing, and the Excel
 * 2003 SpreadsheetML reader here never expands entities beyond the five predefined ones and
 * numeric character references. Rows and cells are bounded like the xlsx reader's.
 */
import { ServiceError, parserError } from '../errors.js';
import { READ_LIMITS, type Sheet } from './file-view.js';

/** Excel's own sheet limits; a larger ss:Index is a damaged or hostile file. */
const MAX_COLUMNS = 16_384;
const MAX_ROW_INDEX = 1_048_576;

/**
 * Throws PARSER_ERROR when the XML declares entities or an external DOCTYPE; does nothing otherwise.
 * Only the prolog is looked at, so this costs nothing on a large file.
 */
export function assertNoEntityDeclarations(text: string): void {
  const root = text.search(/<[A-Za-z_]/);
  const prolog = root < 0 ? text : text.slice(0, root);
  const doctype = /<!DOCTYPE/i.exec(prolog);
  if (/<!ENTITY/i.test(prolog) || (doctype && /<!ENTITY|\bSYSTEM\b|\bPUBLIC\b/i.test(prolog.slice(doctype.index)))) {
    throw parserError('the XML declares entities or an external DOCTYPE; such files are refused unread (entity expansion is never performed)', { line: lineOf(text, doctype?.index ?? prolog.search(/<!ENTITY/i)) });
  }
  // A declaration after the root element is not valid XML, but refuse it too rather than trust a parser.
  if (/<!ENTITY/i.test(root < 0 ? '' : text.slice(root))) {
    throw parserError('the XML contains an entity declaration; refused unread', { line: lineOf(text, text.search(/<!ENTITY/i)) });
  }
}

/** Decodes the five predefined XML entities and numeric references; any other `&name;` stays literal. */
export function decodeXmlText(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[e] as string;
  });
}

const TAG = /<(\/?)(?:ss:)?(Worksheet|Row|Cell|Data)\b([^>]*?)(\/?)>/g;

/**
 * Reads an Excel 2003 XML Spreadsheet (`<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">`)
 * into sheets of rows, honouring `ss:Index` and `ss:MergeAcross` so every value lands in its column.
 * Numbers (`ss:Type="Number"`) become numbers; everything else stays text. Throws PARSER_ERROR for
 * entity declarations and RECORDING_TOO_LONG past the row cap.
 */
export function readSpreadsheetMl(text: string): Sheet[] {
  assertNoEntityDeclarations(text);
  const sheets: Sheet[] = [];
  let sheet: Sheet | null = null;
  let row: unknown[] | null = null;
  let rowIndex = 0;
  let col = 0;
  let merge = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(text); m !== null; m = TAG.exec(text)) {
    const [, closing, tag, attrs, selfClosing] = m;
    if (tag === 'Worksheet') {
      if (!closing) {
        sheet = { name: decodeXmlText(attr(attrs, 'Name') ?? `Sheet${sheets.length + 1}`), rows: [] };
        sheets.push(sheet);
        rowIndex = 0;
      } else sheet = null;
    } else if (tag === 'Row' && sheet) {
      if (closing) {
        row = null;
        rowIndex++;
        continue;
      }
      rowIndex = index(attrs, rowIndex, MAX_ROW_INDEX, text, m.index);
      if (rowIndex >= READ_LIMITS.max_sheet_rows) {
        throw new ServiceError('RECORDING_TOO_LONG', `Sheet ${sheet.name} has more than ${READ_LIMITS.max_sheet_rows} rows.`, { max_samples: 20_000, where: { sheet: sheet.name } });
      }
      while (sheet.rows.length < rowIndex) sheet.rows.push([]);
      row = [];
      sheet.rows[rowIndex] = row;
      col = 0;
      if (selfClosing) {
        row = null;
        rowIndex++;
      }
    } else if (tag === 'Cell' && row) {
      if (closing) {
        col += 1 + merge;
        continue;
      }
      col = index(attrs, col, MAX_COLUMNS, text, m.index);
      merge = Math.min(Number(attr(attrs, 'MergeAcross') ?? 0) || 0, MAX_COLUMNS);
      if (selfClosing) col += 1 + merge;
    } else if (tag === 'Data' && row && !closing && !selfClosing) {
      const close = text.indexOf('Data>', TAG.lastIndex);
      if (close < 0) throw parserError('a <Data> element is not closed (the file is cut short)', { line: lineOf(text, m.index) });
      const end = text.lastIndexOf('</', close);
      const inner = text.slice(TAG.lastIndex, end);
      // Rich text (<Font>, <B> inside <Data>) keeps only its characters.
      const raw = decodeXmlText(inner.includes('<') ? inner.replace(/<[^>]*>/g, '') : inner);
      while (row.length < col) row.push(null);
      row[col] = attr(attrs, 'Type') === 'Number' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
      TAG.lastIndex = close + 5;
    }
  }
  return sheets;
}

/** An `ss:Index` (1-based) moves the cursor; it may only move forward and stay under the cap. */
function index(attrs: string, current: number, cap: number, text: string, at: number): number {
  const given = attr(attrs, 'Index');
  if (given === null) return current;
  const i = Number(given) - 1;
  if (!Number.isInteger(i) || i < current || i >= cap) throw parserError(`ss:Index="${given}" is out of order or out of range`, { line: lineOf(text, at) });
  return i;
}

const ATTRIBUTES = {
  Name: /(?:^|\s)(?:ss:)?Name="([^"]*)"/,
  Index: /(?:^|\s)(?:ss:)?Index="([^"]*)"/,
  MergeAcross: /(?:^|\s)(?:ss:)?MergeAcross="([^"]*)"/,
  Type: /(?:^|\s)(?:ss:)?Type="([^"]*)"/,
} as const;

function attr(attrs: string, name: keyof typeof ATTRIBUTES): string | null {
  const m = ATTRIBUTES[name].exec(attrs);
  return m ? m[1] : null;
}

function lineOf(text: string, at: number): number {
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
