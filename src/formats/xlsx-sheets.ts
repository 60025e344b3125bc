/**
 * The worksheets of an xlsx workbook read straight from the archive: only the sheet asked for is
 * inflated, only its head when that is all a detector needs, and cells become values with no
 * formatting. The rows are the ones node-xlsx (SheetJS 0.20.3) gives with `raw`, `blankrows` and
 * `defval: null`: the sheet's stated dimension sets the first row and the width, numbers are
 * `parseFloat` of the stored text, shared and inline strings are unescaped as SheetJS unescapes
 * them, booleans are booleans and error cells are null. What this reader does not know (no stated
 * dimension, formulas without a cached value, dates stored as text, rich text, namespaced
 * markup ...) it does not guess: the workbook, or the one sheet, goes to SheetJS instead
 * (test/formats/xlsx-sheets.test.ts holds both readers to the same rows).
 */
import { isAscii } from 'node:buffer';
import type { BoundedZip, ZipEntry } from './bounded-zip.js';

/** One worksheet: its name, and its rows read in full or only the first ones. */
export interface LazySheet {
  name: string;
  /** Every row, or null when this reader does not handle the sheet's markup. */
  rows(): unknown[][] | null;
  /** The first `count` rows (fewer when the sheet has fewer), or null as for `rows`. */
  head(count: number): unknown[][] | null;
  /**
   * Every row as `rows` gives it, except that from row `wholeBefore` on a number in a column
   * `skip` marks (by index in the row) is not decoded: the cell holds UNREAD. Null as for `rows`.
   */
  rowsSkipping(skip: Uint8Array, wholeBefore: number): unknown[][] | null;
}

/** A number cell a column-selective read did not decode (never blank; its value unknown). */
export const UNREAD: unique symbol = Symbol('unread number');

/** What a reader may cost. */
export interface SheetLimits {
  /** Rows a sheet may hold before it is left to the caller's row check (SheetJS `sheetRows`). */
  max_rows: number;
  /** Most a head read may inflate to (more from a few compressed KB is a bomb). */
  max_head_bytes: number;
}

const CONTENT_TYPES_NS = 'http://schemas.openxmlformats.org/package/2006/content-types';
const WORKBOOK_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
const SHARED_STRINGS_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml';
const WORKSHEET_RELS = ['http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet', 'http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet'];
/** Compressed bytes of a sheet a head read starts with; doubled until the head's rows are in. */
const FIRST_HEAD_BYTES = 64 * 1024;
/** Past this many compressed bytes a head read gives up and the whole sheet is read. */
const MAX_HEAD_COMPRESSED_BYTES = 1024 * 1024;
/** Returned by `readRows` when a cut sheet does not yet hold the rows asked for. */
const INCOMPLETE = Symbol('incomplete');

/**
 * The workbook's sheets in the order node-xlsx lists them, or null when its structure is not the
 * plain one this reader handles (then SheetJS reads it).
 */
export function openXlsx(zip: BoundedZip, limits: SheetLimits): LazySheet[] | null {
  // SheetJS reads these as OpenDocument or Numbers whatever else the archive holds.
  if (['META-INF/manifest.xml', 'objectdata.xml', 'Index/Document.iwa'].some((n) => zip.find(n))) return null;
  const types = text(zip, '[Content_Types].xml');
  if (types === null || attribute(firstTag(types, 'Types') ?? '', 'xmlns') !== CONTENT_TYPES_NS) return null;
  const overrides = tags(types, 'Override');
  const workbooks = overrides.filter((o) => attribute(o, 'ContentType') === WORKBOOK_TYPE);
  if (workbooks.length !== 1 || attribute(workbooks[0], 'PartName') !== '/xl/workbook.xml') return null;
  if (overrides.some((o) => (attribute(o, 'ContentType') ?? '').includes('macroEnabled') || (attribute(o, 'ContentType') ?? '').includes('.template.'))) return null;
  const workbook = text(zip, 'xl/workbook.xml');
  const rels = text(zip, 'xl/_rels/workbook.xml.rels');
  if (workbook === null || rels === null) return null;
  const sstPart = overrides.find((o) => attribute(o, 'ContentType') === SHARED_STRINGS_TYPE);
  let strings: string[] = [];
  if (sstPart) {
    const sst = text(zip, (attribute(sstPart, 'PartName') ?? '').replace(/^\//, ''));
    const parsed = sst === null ? null : sharedStrings(sst);
    if (parsed === null) return null;
    strings = parsed;
  }
  const targets = new Map<string, { type: string; target: string }>();
  for (const r of tags(rels, 'Relationship')) {
    const id = attribute(r, 'Id');
    const target = attribute(r, 'Target');
    if (id === null || target === null || target.includes('&')) return null;
    targets.set(id, { type: attribute(r, 'Type') ?? '', target });
  }
  const sheets = new Map<string, LazySheet>();
  const sheetsBlock = between(workbook, '<sheets>', '</sheets>');
  if (sheetsBlock === null) return null;
  for (const tag of tags(sheetsBlock, 'sheet')) {
    const name = attribute(tag, 'name');
    const rel = targets.get(attribute(tag, 'r:id') ?? '');
    if (name === null || name.includes('&') || !rel || !WORKSHEET_RELS.includes(rel.type)) return null;
    const entry = sheetEntry(zip, rel.target);
    if (!entry) return null;
    sheets.set(unescapeXml(name), worksheet(zip, entry, unescapeXml(name), strings, limits));
  }
  // node-xlsx lists Object.keys of SheetJS's sheet map, which puts integer-like names first.
  const order: Record<string, LazySheet> = {};
  for (const [name, sheet] of sheets) order[name] = sheet;
  return Object.keys(order).map((name) => order[name]);
}

/** The sheet's part, found the way SheetJS looks for it: under xl/, as written, then beside the workbook. */
function sheetEntry(zip: BoundedZip, target: string): ZipEntry | null {
  return zip.find(`xl/${target.replace(/[/]?xl\//, '')}`) ?? zip.find(target) ?? zip.find(`xl/${target}`);
}

function worksheet(zip: BoundedZip, entry: ZipEntry, name: string, strings: string[], limits: SheetLimits): LazySheet {
  let all: unknown[][] | null | undefined;
  /** The sheet's text when its whole inflation was kept: decoded once, for the head and then the rows. */
  let decoded: string | undefined;
  const kept = (): string | null => {
    const bytes = zip.keptInflation(entry);
    if (bytes && decoded === undefined) decoded = decode(bytes);
    return bytes ? (decoded as string) : null;
  };
  const rows = (): unknown[][] | null => {
    if (all === undefined) {
      const bytes = zip.inflate(entry);
      const read = readRows(decoded ?? decode(bytes), strings, limits.max_rows, Number.POSITIVE_INFINITY, true);
      decoded = undefined;
      all = read === INCOMPLETE ? null : read;
    }
    return all;
  };
  return {
    name,
    rows,
    rowsSkipping(skip, wholeBefore) {
      if (all !== undefined) return all;
      const read = readRows(decoded ?? decode(zip.inflate(entry)), strings, limits.max_rows, Number.POSITIVE_INFINITY, true, { skip, wholeBefore });
      decoded = undefined;
      return read === INCOMPLETE ? null : read;
    },
    head(count) {
      if (all === undefined && entry.compressed.length > FIRST_HEAD_BYTES) {
        // Read from the whole text when it is at hand, as from a cut of it when it is not.
        const whole = kept();
        if (whole !== null) {
          const read = readRows(whole, strings, limits.max_rows, count, false);
          if (read !== INCOMPLETE) return read;
        }
      }
      // A growing prefix of the sheet, until it holds the rows asked for; else the whole sheet.
      for (let bytes = FIRST_HEAD_BYTES; all === undefined && bytes < entry.compressed.length && bytes <= MAX_HEAD_COMPRESSED_BYTES; bytes *= 2) {
        const read = readRows(decode(zip.inflateHead(entry, bytes, limits.max_head_bytes)), strings, limits.max_rows, count, false);
        if (read !== INCOMPLETE) return read;
      }
      return rows()?.slice(0, count) ?? null;
    },
  };
}

/**
 * The rows of a sheet's XML from the first row of its dimension, at most `count` of them; null when
 * the markup is outside what this reader handles. `complete` false means the text is a cut head:
 * only rows closed before the cut are read, and INCOMPLETE comes back when they are not enough.
 *
 * Where the sheet ends (`</sheetData>`) and where each row ends (`</row>`) are searched for only when
 * the markup before them is not the plain run of `<row>`s of plain cells Excel writes: inside such a
 * run neither can occur, so the row ends right after its last cell and the sheet after its last row,
 * and two searches through the whole text are saved.
 */
function readRows(xml: string, strings: string[], maxRows: number, count: number, complete: boolean, selective?: Selective): unknown[][] | null | typeof INCOMPLETE {
  const dataAt = xml.indexOf('<sheetData');
  if (dataAt < 0) return complete ? null : INCOMPLETE;
  const range = dimension(xml.slice(0, dataAt));
  if (!range || range.e.r >= maxRows) return null;
  const open = xml.indexOf('>', dataAt);
  if (open < 0 || xml.charCodeAt(open - 1) === 47) return null;
  // Without a `</sheetData>` after the opening tag, every position is searched for as before.
  const closed = xml.lastIndexOf('</sheetData>') > open;
  let sheetEnd = -1;
  const end = (): number => {
    if (sheetEnd < 0) {
      sheetEnd = xml.indexOf('</sheetData>', open);
      if (sheetEnd < 0) sheetEnd = complete ? -2 : xml.lastIndexOf('</row>');
    }
    return sheetEnd;
  };
  if (!closed && (end() === -2 || end() < open)) return complete ? null : INCOMPLETE;
  const width = range.e.c - range.s.c + 1;
  const last = Math.min(range.e.r, range.s.r + count - 1);
  const out: unknown[][] = [];
  // Every row starts as a copy of one blank row: copying is a native loop, filling one is a runtime call.
  const blank: unknown[] = new Array(width).fill(null);
  const blankUpTo = (r: number): void => {
    while (range.s.r + out.length <= Math.min(r, last)) out.push(blank.slice());
  };
  let at = open + 1;
  let previous = -1;
  // Whether all from `open` to `at` is plain rows: then `</sheetData>` lies at or after `at`.
  let plain = closed;
  for (;;) {
    const rowAt = xml.indexOf('<row', at);
    plain &&= rowAt === at;
    if (rowAt < 0 || (!plain && rowAt >= end())) break;
    const tagEnd = xml.indexOf('>', rowAt);
    plain &&= tagEnd >= 0 && xml.indexOf('<', rowAt + 1) > tagEnd;
    if (tagEnd < 0 || (!plain && tagEnd >= end())) return null;
    if (!isSpace(xml.charCodeAt(rowAt + 4)) || xml.charCodeAt(tagEnd - 1) === 47) return null;
    const rowNumber = Number(attribute(xml.slice(rowAt, tagEnd), 'r'));
    const r = rowNumber - 1;
    if (!Number.isInteger(rowNumber) || r <= previous || rowNumber > maxRows) return null;
    previous = r;
    let close = -1;
    if (!plain || r > last) {
      close = xml.indexOf('</row>', tagEnd);
      // After plain markup `</sheetData>` cannot start before this row's tag ends, so only the row is
      // searched for it (end() would search the rest of the sheet, which a head read never needs).
      if (close < 0 || (plain ? xml.slice(tagEnd + 1, close).includes('</sheetData>') : close > end())) return null;
    }
    if (r > last) {
      blankUpTo(last);
      return out;
    }
    let row: unknown[] | null = null;
    if (r >= range.s.r) {
      blankUpTo(r - 1);
      row = blank.slice();
      out.push(row);
    }
    let from = tagEnd + 1;
    const skip = selective && out.length > selective.wholeBefore ? selective.skip : null;
    if (plain) {
      from = readPlainCells(xml, from, rowNumber, row, range.s.c, range.e.c, strings, skip);
      if (xml.startsWith('</row>', from)) close = from;
      else {
        // Past the plain cells the row is read as any row is, from where they stopped.
        plain = false;
        close = xml.indexOf('</row>', tagEnd);
        if (close < 0 || close > end() || from > close) return null;
      }
    }
    if (!readCells(xml, from, close, rowNumber, row, range.s.c, range.e.c, strings, skip)) return null;
    at = close + 6;
  }
  if (!complete && !closed && range.s.r + out.length <= last) return INCOMPLETE;
  blankUpTo(last);
  return out;
}

/** A column-selective read: numbers in the columns `skip` marks (index in the row) are not decoded from row `wholeBefore` on. */
interface Selective {
  skip: Uint8Array;
  wholeBefore: number;
}

/** Whether the number in row index `index` is left undecoded. */
function skipped(skip: Uint8Array | null, index: number): boolean {
  return skip !== null && skip[index] === 1;
}

/**
 * Reads the plain cells at the start of a row, `<c r="K300" s="3" t="s"><v>12</v></c>` (or empty,
 * `<c r="K300" s="3"/>`), as `readCells` would, and returns where the first other markup starts.
 * Plain means: attributes other than r and t hold no space, quote, < or >, and a `<v>` holds a number
 * or a shared-string index and nothing else; so no `</row>` or `</sheetData>` can hide inside one.
 */
function readPlainCells(xml: string, from: number, rowNumber: number, row: unknown[] | null, firstCol: number, lastCol: number, strings: string[], skip: Uint8Array | null): number {
  let at = from;
  for (;;) {
    if (xml.charCodeAt(at) !== 60 || xml.charCodeAt(at + 1) !== 99 || xml.charCodeAt(at + 2) !== 32) return at;
    let col = -1;
    let type = 110; // 'n'
    let i = at + 2;
    // Attributes: ` name="value"`, until the tag closes with > or />.
    while (xml.charCodeAt(i) === 32) {
      const nameAt = i + 1;
      if (xml.charCodeAt(nameAt) === 114 && xml.charCodeAt(nameAt + 1) === 61 && xml.charCodeAt(nameAt + 2) === 34) {
        // ` r="K300"`, read in one pass; any other value is one the general reading below refuses too.
        i = referenceEnd(xml, nameAt + 3, rowNumber);
        if (i < 0) return at;
        col = referenceColumn;
        continue;
      }
      let k = nameAt;
      while (isNameChar(xml.charCodeAt(k))) k++;
      if (k === nameAt || xml.charCodeAt(k) !== 61 || xml.charCodeAt(k + 1) !== 34) return at;
      const valueAt = k + 2;
      let valueEnd = valueAt;
      for (let c = xml.charCodeAt(valueEnd); c !== 34; c = xml.charCodeAt(++valueEnd)) {
        // A space, < or > (or the end of the text) is left to readCells, which reads around them differently.
        if (c === 32 || c === 60 || c === 62 || c === 9 || c === 10 || c === 13 || Number.isNaN(c)) return at;
      }
      if (k === nameAt + 1 && xml.charCodeAt(nameAt) === 114) {
        col = columnAt(xml, valueAt, valueEnd, rowNumber);
        if (col < 0) return at;
      } else if (k === nameAt + 1 && xml.charCodeAt(nameAt) === 116) {
        type = xml.charCodeAt(valueAt);
        if (valueEnd !== valueAt + 1 || (type !== 110 && type !== 115)) return at;
      }
      i = valueEnd + 1;
    }
    if (col < 0) return at;
    if (xml.charCodeAt(i) === 47 && xml.charCodeAt(i + 1) === 62) {
      // An empty number or shared-string cell: no value, as SheetJS keeps none.
      at = i + 2;
      continue;
    }
    if (xml.charCodeAt(i) !== 62 || xml.charCodeAt(i + 1) !== 60 || xml.charCodeAt(i + 2) !== 118 || xml.charCodeAt(i + 3) !== 62) return at;
    const valueAt = i + 4;
    let value: unknown;
    if (type === 115) {
      const index = indexAt(xml, valueAt, strings.length);
      if (index === null) return at;
      value = strings[index];
    } else if (skipped(skip, col - firstCol)) {
      // Accepted exactly when a decoded number would be: the cell is closed after its value, which holds no entity.
      if (!plainValueAt(xml, valueAt)) return at;
      value = UNREAD;
    } else {
      const exact = decimalAt(xml, valueAt);
      if (exact === null) {
        if (!plainValueAt(xml, valueAt)) return at;
        value = parseFloat(xml.slice(valueAt, scanEnd));
      } else value = exact;
    }
    if (!closesValueAndCell(xml, scanEnd)) return at;
    if (row !== null && col >= firstCol && col <= lastCol) row[col - firstCol] = value;
    at = scanEnd + 8;
  }
}

/** The column index the last `referenceEnd` read. */
let referenceColumn = -1;

/**
 * Reads a cell reference (`DX757`: capital letters, then the digits of row `rowNumber`) and its
 * closing quote at xml[from]; returns the position after the quote, with the column index in
 * referenceColumn, or -1 where `columnAt` would refuse the value (or the quote is missing).
 */
function referenceEnd(xml: string, from: number, rowNumber: number): number {
  let i = from;
  let c = xml.charCodeAt(i);
  let col = 0;
  while (c >= 65 && c <= 90) {
    col = 26 * col + (c - 64);
    c = xml.charCodeAt(++i);
  }
  const digitsAt = i;
  let row = 0;
  while (c >= 48 && c <= 57) {
    row = 10 * row + (c - 48);
    c = xml.charCodeAt(++i);
  }
  if (c !== 34 || digitsAt === from || i === digitsAt || row !== rowNumber) return -1;
  referenceColumn = col - 1;
  return i + 1;
}

/** Whether `</v></c>` starts at xml[at] (compared by code, which is faster than startsWith here). */
function closesValueAndCell(xml: string, at: number): boolean {
  return (
    xml.charCodeAt(at) === 60 &&
    xml.charCodeAt(at + 1) === 47 &&
    xml.charCodeAt(at + 2) === 118 &&
    xml.charCodeAt(at + 3) === 62 &&
    xml.charCodeAt(at + 4) === 60 &&
    xml.charCodeAt(at + 5) === 47 &&
    xml.charCodeAt(at + 6) === 99 &&
    xml.charCodeAt(at + 7) === 62
  );
}

/** ASCII letters, digits, and `:`, `_`, `-`, `.`: what an attribute name of a plain cell is made of. */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 58 || c === 95 || c === 45 || c === 46;
}

/**
 * Reads the cells of one row (between its tag and `</row>`) into `row` (null: a row outside the
 * dimension, only checked); false when a cell is outside what this reader handles. The common cell,
 * `<c r="K300" s="3" t="s"><v>12</v></c>`, is read in place; anything else goes through `cellValue`.
 */
function readCells(xml: string, from: number, to: number, rowNumber: number, row: unknown[] | null, firstCol: number, lastCol: number, strings: string[], skip: Uint8Array | null): boolean {
  let at = from;
  for (;;) {
    const c = xml.indexOf('<c', at);
    if (c < 0 || c >= to) break;
    // `<col`... is not a cell, and no other tag inside a row starts with <c.
    if (!isSpace(xml.charCodeAt(c + 2))) return false;
    // 1. The tag: where its r and t values start, and its end.
    let col = -1;
    let type = 110; // 'n'
    let typeLength = 1;
    let i = c + 3;
    let ch = xml.charCodeAt(i);
    while (ch !== 62) {
      if (i >= to) return false;
      if ((ch === 114 || ch === 116) && isSpace(xml.charCodeAt(i - 1)) && xml.charCodeAt(i + 1) === 61) {
        if (xml.charCodeAt(i + 2) !== 34) return false;
        const valueAt = i + 3;
        const valueEnd = xml.indexOf('"', valueAt);
        if (ch === 114) col = columnAt(xml, valueAt, valueEnd, rowNumber);
        else {
          type = xml.charCodeAt(valueAt);
          typeLength = valueEnd - valueAt;
        }
        i = valueEnd;
      }
      ch = xml.charCodeAt(++i);
    }
    if (col < 0) return false;
    const tagEnd = i;
    const selfClosing = xml.charCodeAt(tagEnd - 1) === 47;
    const cellEnd = selfClosing ? tagEnd + 1 : xml.indexOf('</c>', tagEnd);
    if (cellEnd < 0 || cellEnd > to) return false;
    at = selfClosing ? cellEnd : cellEnd + 4;
    // 2. The value: a plain number or shared string read in place, the rest by cellValue.
    let value: unknown;
    const plain = !selfClosing && typeLength === 1 && (type === 110 || type === 115) && xml.startsWith('<v>', tagEnd + 1);
    const vEnd = plain ? xml.indexOf('</v>', tagEnd + 4) : -1;
    if (plain && vEnd > tagEnd + 4 && vEnd + 4 === cellEnd && !hasAmpersand(xml, tagEnd + 4, vEnd)) {
      if (type === 110) value = skipped(skip, col - firstCol) ? UNREAD : parseFloat(xml.slice(tagEnd + 4, vEnd));
      else {
        const index = Number(xml.slice(tagEnd + 4, vEnd));
        if (!Number.isInteger(index) || index < 0 || index >= strings.length) return false;
        value = strings[index];
      }
    } else {
      const tag = xml.slice(c, tagEnd);
      value = cellValue(attribute(tag, 't'), selfClosing ? '' : xml.slice(tagEnd + 1, cellEnd), strings);
      if (value === UNHANDLED) return false;
      if (typeof value === 'number' && skipped(skip, col - firstCol)) value = UNREAD;
    }
    if (value !== ABSENT && row !== null && col >= firstCol && col <= lastCol) row[col - firstCol] = value;
  }
  return true;
}

/** Powers of ten a double holds exactly. */
const EXACT_POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);
/** Where the last `decimalAt` or `indexAt` stopped. */
let scanEnd = 0;

/**
 * The number `-?digits(.digits)?` at xml[from], of at most 15 digits, or null for anything else (left
 * to parseFloat). A mantissa below 2^53 over an exact power of ten is correctly rounded, so the value
 * is bit for bit parseFloat's.
 */
function decimalAt(xml: string, from: number): number | null {
  let i = from;
  let c = xml.charCodeAt(i);
  const negative = c === 45;
  if (negative) c = xml.charCodeAt(++i);
  let mantissa = 0;
  let digits = 0;
  while (c >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    digits++;
    c = xml.charCodeAt(++i);
  }
  if (digits === 0) return null;
  let fraction = 0;
  if (c === 46) {
    c = xml.charCodeAt(++i);
    while (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      fraction++;
      c = xml.charCodeAt(++i);
    }
    if (fraction === 0) return null;
  }
  if (digits + fraction > 15) return null;
  scanEnd = i;
  const value = mantissa / EXACT_POW10[fraction];
  return negative ? -value : value;
}

/** The shared-string index (digits, below `count`) at xml[from], or null for anything else. */
function indexAt(xml: string, from: number, count: number): number | null {
  let i = from;
  let index = 0;
  for (let c = xml.charCodeAt(i); c >= 48 && c <= 57 && i - from < 9; c = xml.charCodeAt(++i)) index = index * 10 + (c - 48);
  if (i === from || index >= count) return null;
  scanEnd = i;
  return index;
}

/**
 * Whether a value that is not empty and holds no entity starts at xml[from], ending at the next `<`
 * (scanEnd is left there): what `indexOf('<')` and `hasAmpersand` tell, in one pass over a value
 * of a few characters, which costs less than the search call.
 */
function plainValueAt(xml: string, from: number): boolean {
  let i = from;
  for (let c = xml.charCodeAt(i); c !== 60; c = xml.charCodeAt(++i)) {
    if (c === 38 || Number.isNaN(c)) return false;
  }
  scanEnd = i;
  return i > from;
}

function hasAmpersand(xml: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (xml.charCodeAt(i) === 38) return true;
  return false;
}

/** A cell with no value (SheetJS keeps no cell for it). */
const ABSENT = Symbol('absent');
/** A cell this reader leaves to SheetJS. */
const UNHANDLED = Symbol('unhandled');

/** A cell's value as SheetJS gives it with `raw` and `defval: null`. */
function cellValue(type: string | null, body: string, strings: string[]): unknown {
  const raw = element(body, 'v');
  if (raw === UNHANDLED) return UNHANDLED;
  const v = raw === null || raw === '' ? undefined : raw;
  // A formula without a cached value: SheetJS makes it 0 or keeps its type; left to SheetJS.
  if (v === undefined && body.includes('<f')) return UNHANDLED;
  switch (type ?? 'n') {
    case 'n':
      if (v === undefined) return ABSENT;
      if (v.includes('&')) return UNHANDLED;
      return parseFloat(v);
    case 's': {
      if (v === undefined) return ABSENT;
      const index = Number(v);
      if (!Number.isInteger(index) || index < 0 || index >= strings.length) return UNHANDLED;
      return strings[index];
    }
    case 'str':
      // SheetJS unescapes the stored text twice (once as <v>, once as a formula string).
      if (v === undefined) return '';
      if (v.includes('&#')) return UNHANDLED;
      return unescapeXml(unescapeXml(v)).replace(/\r\n/g, '\n');
    case 'inlineStr': {
      const is = element(body, 'is');
      if (is === UNHANDLED) return UNHANDLED;
      if (is === null) return '';
      const t = plainText(is);
      return t === null ? UNHANDLED : t;
    }
    case 'b':
      return v === '1' || v === 'true';
    case 'e':
      return null;
    default:
      return UNHANDLED;
  }
}

/** The column index of a reference like `DX757` at xml[from, to) on row `rowNumber`, or -1 when it is not one. */
function columnAt(xml: string, from: number, to: number, rowNumber: number): number {
  let i = from;
  let col = 0;
  for (; i < to; i++) {
    const c = xml.charCodeAt(i) - 64;
    if (c < 1 || c > 26) break;
    col = 26 * col + c;
  }
  if (i === from || i === to) return -1;
  let row = 0;
  for (; i < to; i++) {
    const d = xml.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    row = 10 * row + d;
  }
  return row === rowNumber ? col - 1 : -1;
}

/** The sheet's stated range (`<dimension ref="A1:DX757"/>`), read as SheetJS reads it; null without one. */
function dimension(beforeData: string): { s: { r: number; c: number }; e: { r: number; c: number } } | null {
  const at = beforeData.search(/<(?:\w*:)?dimension/);
  if (at <= 0) return null;
  const ref = /"(\w*:\w*)"/.exec(beforeData.slice(at, at + 50));
  if (!ref) return null;
  const range = decodeRange(ref[1]);
  const valid = range.s.r <= range.e.r && range.s.c <= range.e.c && range.s.r >= 0 && range.s.c >= 0;
  return valid ? range : null;
}

/** `A1:DX757` to 0-based corners, as SheetJS's safe_decode_range reads it. */
function decodeRange(text: string): { s: { r: number; c: number }; e: { r: number; c: number } } {
  let i = 0;
  const part = (): { r: number; c: number } => {
    let c = 0;
    for (; i < text.length; i++) {
      const k = text.charCodeAt(i) - 64;
      if (k < 1 || k > 26) break;
      c = 26 * c + k;
    }
    let r = 0;
    for (; i < text.length; i++) {
      const k = text.charCodeAt(i) - 48;
      if (k < 0 || k > 9) break;
      r = 10 * r + k;
    }
    return { r: r - 1, c: c - 1 };
  };
  const s = part();
  if (i === text.length || text.charCodeAt(i) !== 58) return { s, e: { ...s } };
  i++;
  return { s, e: part() };
}

/** The shared string table, or null when an entry is rich text or otherwise not a plain `<t>`. */
function sharedStrings(xml: string): string[] | null {
  const open = /<sst\b[^<>]*>/.exec(xml);
  if (!open) return [];
  const close = xml.indexOf('</sst>', open.index + open[0].length);
  if (close < 0) return [];
  const body = xml.slice(open.index + open[0].length, close);
  if (body.includes('<si/>') || body.includes(':si')) return null;
  const out: string[] = [];
  for (const item of body.replace(/<si>/g, '').split('</si>')) {
    const trimmed = item.trim();
    if (trimmed === '') {
      out.push('');
      continue;
    }
    const t = plainText(trimmed);
    if (t === null) return null;
    out.push(t);
  }
  return out;
}

/** The text of an `<si>` or `<is>` whose content is one plain `<t>` (SheetJS parse_si), else null. */
function plainText(item: string): string | null {
  if (!/^\s*<t[^>]*>/.test(item) || item.includes('<r>') || item.includes('<rPh')) return null;
  const start = item.indexOf('>') + 1;
  const stop = item.indexOf('</t>', start);
  return unescapeXml(stop < 0 ? item.slice(start) : item.slice(start, stop)).replace(/\r\n/g, '\n');
}

const ENTITIES: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&gt;': '>', '&lt;': '<', '&amp;': '&' };

/** XML entities and Excel's `_xHHHH_` escapes resolved, CDATA kept literal (SheetJS unescapexml). */
export function unescapeXml(s: string): string {
  if (!s.includes('&') && !s.includes('_x') && !s.includes('_X') && !s.includes('<![CDATA[')) return s;
  const cdata = s.indexOf('<![CDATA[');
  if (cdata >= 0) {
    const endCdata = s.indexOf(']]>');
    return unescapeXml(s.slice(0, cdata)) + s.slice(cdata + 9, endCdata) + unescapeXml(s.slice(endCdata + 3));
  }
  return s
    .replace(/&(?:quot|apos|gt|lt|amp|#x?([\da-fA-F]+));/gi, (m: string, code: string | undefined) => ENTITIES[m] || String.fromCharCode(parseInt(code as string, m.indexOf('x') > -1 ? 16 : 10)) || m)
    .replace(/_x([\da-fA-F]{4})_/gi, (_m: string, c: string) => String.fromCharCode(parseInt(c, 16)));
}

/** The inflated entry of that name as text, or null when the archive has none. */
function text(zip: BoundedZip, name: string): string | null {
  const entry = zip.find(name);
  return entry ? decode(zip.inflate(entry)) : null;
}

const utf8 = new TextDecoder('utf-8');

/** UTF-8 text; ASCII (nearly every part) is decoded as latin1, byte for byte the same and several times faster. */
function decode(bytes: Uint8Array): string {
  return isAscii(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : utf8.decode(bytes);
}

/** Every `<name ...>` tag (attributes included, without the closing >) in document order. */
function tags(xml: string, name: string): string[] {
  const out: string[] = [];
  const open = `<${name}`;
  for (let at = xml.indexOf(open); at >= 0; at = xml.indexOf(open, at + 1)) {
    if (!isSpace(xml.charCodeAt(at + open.length)) && xml.charCodeAt(at + open.length) !== 47 && xml.charCodeAt(at + open.length) !== 62) continue;
    const end = xml.indexOf('>', at);
    if (end < 0) break;
    out.push(xml.slice(at, end));
  }
  return out;
}

function firstTag(xml: string, name: string): string | null {
  return tags(xml, name)[0] ?? null;
}

/** The text between the first `open` and the next `close`, or null. */
function between(xml: string, open: string, close: string): string | null {
  const a = xml.indexOf(open);
  if (a < 0) return null;
  const b = xml.indexOf(close, a);
  return b < 0 ? null : xml.slice(a + open.length, b);
}

/**
 * The content of the first `<name>` or `<name ...>` element, or null; UNHANDLED for a
 * self-closing one, which SheetJS would read past.
 */
function element(xml: string, name: string): string | null | typeof UNHANDLED {
  for (let open = xml.indexOf(`<${name}`); open >= 0; open = xml.indexOf(`<${name}`, open + 1)) {
    const next = xml.charCodeAt(open + name.length + 1);
    if (next !== 62 && !isSpace(next)) continue;
    const tagEnd = xml.indexOf('>', open);
    if (tagEnd < 0) return null;
    if (xml.charCodeAt(tagEnd - 1) === 47) return UNHANDLED;
    const close = xml.indexOf(`</${name}>`, tagEnd);
    return close < 0 ? null : xml.slice(tagEnd + 1, close);
  }
  return null;
}

/** The value of attribute `name` in a tag, quoted with " or ', or null when the tag has none. */
function attribute(tag: string, name: string): string | null {
  for (let at = tag.indexOf(`${name}=`); at >= 0; at = tag.indexOf(`${name}=`, at + 1)) {
    if (!isSpace(tag.charCodeAt(at - 1))) continue;
    const quote = tag.charCodeAt(at + name.length + 1);
    if (quote !== 34 && quote !== 39) return null;
    const end = tag.indexOf(String.fromCharCode(quote), at + name.length + 2);
    return end < 0 ? null : tag.slice(at + name.length + 2, end);
  }
  return null;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
