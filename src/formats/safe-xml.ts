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
    throw parserError('the XML declares entities or an external DOCTYPE; such files are refused unread (entity expansion is never performed)', {
      line: lineOf(text, doctype?.index ?? prolog.search(/<!ENTITY/i)),
    });
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

/** One piece of an XML document, in order: an element's start or end, or character data. */
export type XmlToken =
  | { kind: 'start'; name: string; attributes: Map<string, string>; selfClosing: boolean; at: number }
  | { kind: 'end'; name: string; at: number }
  | { kind: 'text'; text: string; at: number };

/**
 * Tokenizes XML (XML 1.0, section 2-3): comments, processing instructions and the DOCTYPE are
 * skipped, CDATA sections are character data as written, attribute values may be single- or
 * double-quoted, and text and attribute values have the predefined entities and character references
 * decoded (decodeXmlText). Names keep their prefix. Entity declarations are refused before this runs
 * (assertNoEntityDeclarations). Throws PARSER_ERROR for markup cut short.
 */
export function* tokenizeXml(text: string): Generator<XmlToken> {
  const scanner = new XmlScanner(text);
  while (scanner.next()) {
    if (scanner.kind === 'text') yield { kind: 'text', text: scanner.text(), at: scanner.at };
    else if (scanner.kind === 'end') yield { kind: 'end', name: scanner.name, at: scanner.at };
    else yield { kind: 'start', name: scanner.name, attributes: scanner.attributes(), selfClosing: scanner.selfClosing, at: scanner.at };
  }
}

/**
 * The tokenizer as a cursor: `next()` moves to the next token and says whether there is one; the
 * token is read from the fields, so no object is made per token. Character data and attribute
 * values are decoded only when asked for (`text()`, `attribute()`); where each lies is kept, and a
 * malformed or cut-short tag throws when it is reached, as tokenizeXml does.
 */
export class XmlScanner {
  kind: 'start' | 'end' | 'text' = 'text';
  /** The element name (start and end tokens). */
  name = '';
  selfClosing = false;
  /** Where the token starts in the text. */
  at = 0;
  private readonly source: string;
  private position = 0;
  /** Character data of a text token: text[textFrom, textTo), decoded unless it is CDATA. */
  private textFrom = 0;
  private textTo = 0;
  private cdata = false;
  /** The start tag's attributes as [name from, name to, value from, value to] each, in document order. */
  private spans: number[] = [];
  private count = 0;

  constructor(text: string) {
    this.source = text;
  }

  /** The text token's characters. */
  text(): string {
    const raw = this.source.slice(this.textFrom, this.textTo);
    return this.cdata ? raw : decodeXmlText(raw);
  }

  /** The start tag's attribute of that name (the last one given, as a Map would keep it), decoded; undefined when absent. */
  attribute(name: string): string | undefined {
    const text = this.source;
    for (let k = 4 * (this.count - 1); k >= 0; k -= 4) {
      const from = this.spans[k];
      if (this.spans[k + 1] - from === name.length && text.startsWith(name, from)) return decodeXmlText(text.slice(this.spans[k + 2], this.spans[k + 3]));
    }
    return undefined;
  }

  /** Every attribute of the start tag, decoded, in document order. */
  attributes(): Map<string, string> {
    const out = new Map<string, string>();
    const text = this.source;
    for (let k = 0; k < 4 * this.count; k += 4) out.set(text.slice(this.spans[k], this.spans[k + 1]), decodeXmlText(text.slice(this.spans[k + 2], this.spans[k + 3])));
    return out;
  }

  next(): boolean {
    const text = this.source;
    for (;;) {
      const at = this.position;
      if (at >= text.length) return false;
      const lt = text.indexOf('<', at);
      if (lt < 0) {
        this.setText(at, text.length, false, at);
        this.position = text.length;
        return true;
      }
      if (lt > at) {
        this.setText(at, lt, false, at);
        this.position = lt;
        return true;
      }
      const c1 = text.charCodeAt(lt + 1);
      if (c1 === 33 && text.startsWith('<!--', lt)) {
        const close = text.indexOf('-->', lt + 4);
        if (close < 0) this.cut('a comment', lt);
        this.position = close + 3;
      } else if (c1 === 33 && text.startsWith('<![CDATA[', lt)) {
        const close = text.indexOf(']]>', lt + 9);
        if (close < 0) this.cut('a CDATA section', lt);
        this.setText(lt + 9, close, true, lt);
        this.position = close + 3;
        return true;
      } else if (c1 === 63) {
        const close = text.indexOf('?>', lt + 2);
        if (close < 0) this.cut('a processing instruction', lt);
        this.position = close + 2;
      } else if (c1 === 33) {
        // The DOCTYPE (its internal subset in brackets, already checked to declare no entity).
        let depth = 0;
        let i = lt + 2;
        for (; i < text.length; i++) {
          const c = text.charCodeAt(i);
          if (c === 91) depth++;
          else if (c === 93) depth--;
          else if (c === 62 && depth <= 0) break;
        }
        if (i >= text.length) this.cut('a declaration', lt);
        this.position = i + 1;
      } else if (c1 === 47) {
        const close = text.indexOf('>', lt);
        if (close < 0) this.cut('an end tag', lt);
        this.kind = 'end';
        this.name = text.slice(lt + 2, close).trim();
        this.at = lt;
        this.position = close + 1;
        return true;
      } else {
        this.readStartTag(lt);
        return true;
      }
    }
  }

  private setText(from: number, to: number, cdata: boolean, at: number): void {
    this.kind = 'text';
    this.textFrom = from;
    this.textTo = to;
    this.cdata = cdata;
    this.at = at;
  }

  private cut(what: string, from: number): never {
    throw parserError(`${what} is not closed (the file is cut short)`, { line: lineOf(this.source, from) });
  }

  /**
   * A start tag from `<`: its name, then attributes `name = "value"` (or single-quoted; space
   * before a name optional, around `=` allowed), then `>` or `/>`. A name is a run of characters
   * other than white space (as `\s` means it), `/`, `>` and `=`.
   */
  private readStartTag(lt: number): void {
    const text = this.source;
    const n = text.length;
    let i = lt + 1;
    while (i < n && isNameChar(text.charCodeAt(i))) i++;
    if (i === lt + 1) throw parserError('a "<" does not start a tag', { line: lineOf(text, lt) });
    const name = text.slice(lt + 1, i);
    this.count = 0;
    let at = i;
    for (;;) {
      let k = at;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      const nameFrom = k;
      while (k < n && isNameChar(text.charCodeAt(k))) k++;
      if (k === nameFrom) break;
      const nameTo = k;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) !== 61) break;
      k++;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      const quote = text.charCodeAt(k);
      if (quote !== 34 && quote !== 39) break;
      const close = text.indexOf(quote === 34 ? '"' : "'", k + 1);
      if (close < 0) break;
      const slot = 4 * this.count++;
      this.spans[slot] = nameFrom;
      this.spans[slot + 1] = nameTo;
      this.spans[slot + 2] = k + 1;
      this.spans[slot + 3] = close;
      at = close + 1;
    }
    while (at < n && isSpace(text.charCodeAt(at))) at++;
    const c = text.charCodeAt(at);
    if (c === 47 && text.charCodeAt(at + 1) === 62) this.startTag(name, true, lt, at + 2);
    else if (c === 62) this.startTag(name, false, lt, at + 1);
    else if (at >= n) this.cut('a start tag', lt);
    else throw parserError(`the tag <${name}> has a malformed attribute`, { line: lineOf(text, lt) });
  }

  private startTag(name: string, selfClosing: boolean, at: number, next: number): void {
    this.kind = 'start';
    this.name = name;
    this.selfClosing = selfClosing;
    this.at = at;
    this.position = next;
  }
}

/** White space as the regular expression `\s` means it (ECMAScript WhiteSpace and LineTerminator). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** A character of a tag or attribute name: anything but white space, `/`, `>` and `=`. */
function isNameChar(c: number): boolean {
  return c !== 47 && c !== 62 && c !== 61 && !isSpace(c);
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
  const scanner = new XmlScanner(text);
  const attr = (name: 'Name' | 'Index' | 'MergeAcross' | 'Type'): string | null => scanner.attribute(`ss:${name}`) ?? scanner.attribute(name) ?? null;
  while (scanner.next()) {
    if (scanner.kind === 'text') {
      if (data) data.text += scanner.text();
      continue;
    }
    const tag = localName(scanner.name);
    if (scanner.kind === 'end') {
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
    if (tag === 'Worksheet') {
      sheet = { name: attr('Name') ?? `Sheet${sheets.length + 1}`, rows: [] };
      sheets.push(sheet);
      rowIndex = 0;
      if (scanner.selfClosing) sheet = null;
    } else if (tag === 'Row' && sheet) {
      rowIndex = index(attr('Index'), rowIndex, MAX_ROW_INDEX, text, scanner.at);
      if (rowIndex >= READ_LIMITS.max_sheet_rows) {
        throw new ServiceError('RECORDING_TOO_LONG', `Sheet ${sheet.name} has more than ${READ_LIMITS.max_sheet_rows} rows.`, { max_samples: 20_000, where: { sheet: sheet.name } });
      }
      while (sheet.rows.length < rowIndex) sheet.rows.push([]);
      row = [];
      sheet.rows[rowIndex] = row;
      col = 0;
      if (scanner.selfClosing) {
        row = null;
        rowIndex++;
      }
    } else if (tag === 'Cell' && row) {
      col = index(attr('Index'), col, MAX_COLUMNS, text, scanner.at);
      merge = Math.min(Number(attr('MergeAcross') ?? 0) || 0, MAX_COLUMNS);
      if (scanner.selfClosing) col += 1 + merge;
    } else if (tag === 'Data' && row && !scanner.selfClosing) {
      data = { type: attr('Type'), text: '', col };
    }
  }
  if (data) throw parserError('a <Data> element is not closed (the file is cut short)', { line: lineOf(text, text.length) });
  return sheets;
}

/** An `ss:Index` (1-based, `given`) moves the cursor; it may only move forward and stay under the cap. */
function index(given: string | null, current: number, cap: number, text: string, at: number): number {
  if (given === null) return current;
  const i = Number(given) - 1;
  if (!Number.isInteger(i) || i < current || i >= cap) throw parserError(`ss:Index="${given}" is out of order or out of range`, { line: lineOf(text, at) });
  return i;
}

function lineOf(text: string, at: number): number {
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
