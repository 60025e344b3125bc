/**
 * The XML tokenizer and SpreadsheetML reader as they were before the tokenizer was rewritten for
 * speed (issue 23; src/formats/safe-xml.ts at 50f3215), kept as the oracle the rewrite is
 * held to in safe-xml-equivalence.test.ts. Not used by the service.
 */
import { ServiceError, parserError } from '../../src/errors.js';
import { READ_LIMITS, type Sheet } from '../../src/formats/file-view.js';
// The entity check, the text decoding and the token type were not rewritten: the oracle shares them.
import { assertNoEntityDeclarations, decodeXmlText, type XmlToken } from '../../src/formats/safe-xml.js';

/** Excel's own sheet limits; a larger ss:Index is a damaged or hostile file. */
const MAX_COLUMNS = 16_384;
const MAX_ROW_INDEX = 1_048_576;

/**
 * Tokenizes XML (XML 1.0, section 2-3): comments, processing instructions and the DOCTYPE are
 * skipped, CDATA sections are character data as written, attribute values may be single- or
 * double-quoted, and text and attribute values have the predefined entities and character references
 * decoded (decodeXmlText). Names keep their prefix. Entity declarations are refused before this runs
 * (assertNoEntityDeclarations). Throws PARSER_ERROR for markup cut short.
 */
export function* tokenizeXml(text: string): Generator<XmlToken> {
  let at = 0;
  const cut = (what: string, from: number): never => {
    throw parserError(`${what} is not closed (the file is cut short)`, { line: lineOf(text, from) });
  };
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    if (lt < 0) {
      yield { kind: 'text', text: decodeXmlText(text.slice(at)), at };
      return;
    }
    if (lt > at) yield { kind: 'text', text: decodeXmlText(text.slice(at, lt)), at };
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      if (close < 0) cut('a comment', lt);
      at = close + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      if (close < 0) cut('a CDATA section', lt);
      yield { kind: 'text', text: text.slice(lt + 9, close), at: lt };
      at = close + 3;
    } else if (text.startsWith('<?', lt)) {
      const close = text.indexOf('?>', lt + 2);
      if (close < 0) cut('a processing instruction', lt);
      at = close + 2;
    } else if (text.startsWith('<!', lt)) {
      // The DOCTYPE (its internal subset in brackets, already checked to declare no entity).
      let depth = 0;
      let i = lt + 2;
      for (; i < text.length; i++) {
        const c = text[i];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (i >= text.length) cut('a declaration', lt);
      at = i + 1;
    } else if (text[lt + 1] === '/') {
      const close = text.indexOf('>', lt);
      if (close < 0) cut('an end tag', lt);
      yield { kind: 'end', name: text.slice(lt + 2, close).trim(), at: lt };
      at = close + 1;
    } else {
      const tag = readStartTag(text, lt);
      if (!tag) cut('a start tag', lt);
      else {
        yield { kind: 'start', name: tag.name, attributes: tag.attributes, selfClosing: tag.selfClosing, at: lt };
        at = tag.next;
      }
    }
  }
}

const NAME = /[^\s/>=]+/y;
const ATTRIBUTE = /\s*([^\s/>=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** A start tag from `<`: its name, attributes (quotes either way) and where the tag ends; null when cut short. */
function readStartTag(text: string, lt: number): { name: string; attributes: Map<string, string>; selfClosing: boolean; next: number } | null {
  NAME.lastIndex = lt + 1;
  const name = NAME.exec(text)?.[0];
  if (!name) throw parserError('a "<" does not start a tag', { line: lineOf(text, lt) });
  const attributes = new Map<string, string>();
  let at = NAME.lastIndex;
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(text);
    if (!m) break;
    attributes.set(m[1], decodeXmlText(m[2] ?? m[3]));
    at = ATTRIBUTE.lastIndex;
  }
  while (at < text.length && /\s/.test(text[at])) at++;
  if (text.startsWith('/>', at)) return { name, attributes, selfClosing: true, next: at + 2 };
  if (text[at] === '>') return { name, attributes, selfClosing: false, next: at + 1 };
  if (at >= text.length) return null;
  throw parserError(`the tag <${name}> has a malformed attribute`, { line: lineOf(text, lt) });
}

/** An element name without its namespace prefix (`ss:Row` and `Row` are the same SpreadsheetML element). */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

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
  /** The open <Data>: its type and the characters read so far (rich text inside keeps only its characters). */
  let data: { type: string | null; text: string; col: number } | null = null;
  for (const token of tokenizeXml(text)) {
    if (token.kind === 'text') {
      if (data) data.text += token.text;
      continue;
    }
    const tag = localName(token.name);
    if (token.kind === 'end') {
      if (tag === 'Worksheet') sheet = null;
      else if (tag === 'Row' && row) {
        row = null;
        rowIndex++;
      } else if (tag === 'Cell' && row) col += 1 + merge;
      else if (tag === 'Data' && data && row) {
        const raw = data.text;
        while (row.length < data.col) row.push(null);
        row[data.col] = data.type === 'Number' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
        data = null;
      }
      continue;
    }
    const attrs = token.attributes;
    if (tag === 'Worksheet') {
      sheet = { name: attr(attrs, 'Name') ?? `Sheet${sheets.length + 1}`, rows: [] };
      sheets.push(sheet);
      rowIndex = 0;
      if (token.selfClosing) sheet = null;
    } else if (tag === 'Row' && sheet) {
      rowIndex = index(attrs, rowIndex, MAX_ROW_INDEX, text, token.at);
      if (rowIndex >= READ_LIMITS.max_sheet_rows) {
        throw new ServiceError('RECORDING_TOO_LONG', `Sheet ${sheet.name} has more than ${READ_LIMITS.max_sheet_rows} rows.`, { max_samples: 20_000, where: { sheet: sheet.name } });
      }
      while (sheet.rows.length < rowIndex) sheet.rows.push([]);
      row = [];
      sheet.rows[rowIndex] = row;
      col = 0;
      if (token.selfClosing) {
        row = null;
        rowIndex++;
      }
    } else if (tag === 'Cell' && row) {
      col = index(attrs, col, MAX_COLUMNS, text, token.at);
      merge = Math.min(Number(attr(attrs, 'MergeAcross') ?? 0) || 0, MAX_COLUMNS);
      if (token.selfClosing) col += 1 + merge;
    } else if (tag === 'Data' && row && !token.selfClosing) {
      data = { type: attr(attrs, 'Type'), text: '', col };
    }
  }
  if (data) throw parserError('a <Data> element is not closed (the file is cut short)', { line: lineOf(text, text.length) });
  return sheets;
}

/** An `ss:Index` (1-based) moves the cursor; it may only move forward and stay under the cap. */
function index(attrs: Map<string, string>, current: number, cap: number, text: string, at: number): number {
  const given = attr(attrs, 'Index');
  if (given === null) return current;
  const i = Number(given) - 1;
  if (!Number.isInteger(i) || i < current || i >= cap) throw parserError(`ss:Index="${given}" is out of order or out of range`, { line: lineOf(text, at) });
  return i;
}

/** A SpreadsheetML attribute, with the `ss:` prefix or without. */
function attr(attrs: Map<string, string>, name: 'Name' | 'Index' | 'MergeAcross' | 'Type'): string | null {
  return attrs.get(`ss:${name}`) ?? attrs.get(name) ?? null;
}

function lineOf(text: string, at: number): number {
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
