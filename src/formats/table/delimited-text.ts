/**
 * Delimited text (CSV, TSV, semicolon-separated) as rows of cells. Quoting that changes where cells
 * split (a delimiter, a quote or a line break inside a quoted cell) goes through csv-parse. A line
 * with no quote, or whose quotes only wrap whole cells (Parvo's `"TIME ", "HR  "`), splits on the
 * delimiter to exactly the cells csv-parse gives (a test holds the two to agree on every line of
 * every fixture and variant), so those lines, nearly every line of every export seen, are split
 * directly: the same cells, without a parser's per-character cost.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { parserError } from '../../errors.js';
import { READ_LIMITS, type FileView } from '../file-view.js';

export type Delimiter = '\t' | ';' | ',';

export interface TextTable {
  delimiter: Delimiter;
  /** Cells per row; a blank line is an empty row. */
  rows: string[][];
  /** The 1-based line each row starts on. */
  lines: number[];
  /** Whether the text ends with a line break: when it does not, the last row may have been cut. */
  ends_with_line_break: boolean;
}

/** Text that opens as XML or JSON is never a delimited table: detection does not split it. */
const MARKUP_OR_JSON = /^\s*(<|\{|\[\s*[{[])/;

/** Lines of the head that detection reads (past the longest header block seen, Cortex's ~50 rows). */
export const HEAD_LINES = 80;
/**
 * Characters of a head line that detection reads: a header is far shorter, and a file that is one
 * long line (JSON, minified XML) is never a table, so it is not worth splitting whole.
 */
const HEAD_LINE_CHARS = 4096;

/**
 * The delimiter of a table: a tab or a semicolon when at least half of the non-blank head lines
 * hold one (neither is ever a decimal mark), else a comma.
 */
export function sniffDelimiter(lines: readonly string[]): Delimiter {
  const sample = lines.filter((l) => l.trim() !== '').slice(0, 40);
  for (const d of ['\t', ';'] as const) {
    if (sample.length > 0 && sample.filter((l) => l.includes(d)).length * 2 >= sample.length) return d;
  }
  return ',';
}

/** Splits `lines` into rows of cells (see the module comment); throws PARSER_ERROR where a quoted field never closes. */
export function splitLines(lines: readonly string[], delimiter: Delimiter, firstLine = 1): { rows: string[][]; lines: number[]; closed: boolean } {
  const rows: string[][] = [];
  const starts: number[] = [];
  let closed = true;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const cells = line.includes('"') ? wrappedCells(line, delimiter) : line === '' ? [] : line.split(delimiter);
    if (cells) {
      rows.push(cells);
      starts.push(firstLine + i);
      i++;
      continue;
    }
    // A run of lines with quotes (and the blank lines between them) goes to the CSV parser in one call.
    const from = i;
    let inside = false;
    let spans = false;
    while (i < lines.length && (inside || (lines[i].includes('"') && !wrappedCells(lines[i], delimiter)) || lines[i] === '')) {
      if (countQuotes(lines[i]) % 2 === 1) inside = !inside;
      if (inside) spans = true;
      i++;
    }
    // A quoted field still open at the last line may go on past it: a head split there is not whole.
    if (inside) closed = false;
    parseRun(lines, from, i, delimiter, firstLine, spans, rows, starts);
  }
  return { rows, lines: starts, closed };
}

/**
 * The cells of a line whose quotes only wrap whole cells (after leading spaces, which csv-parse's
 * ltrim drops, a cell is either free of quotes or is `"..."` with no quote inside), as csv-parse
 * would give them; null for any other quoting, which is left to csv-parse.
 */
export function wrappedCells(line: string, delimiter: Delimiter): string[] | null {
  const fields = line.split(delimiter);
  for (let k = 0; k < fields.length; k++) {
    const field = fields[k];
    const open = field.indexOf('"');
    if (open < 0) {
      fields[k] = trimSpaces(field);
      // Other leading white space (a no-break space) csv-parse's ltrim also drops: left to it.
      if (/^\s/.test(fields[k])) return null;
      continue;
    }
    if (trimSpaces(field.slice(0, open)) !== '' || open === field.length - 1 || field.indexOf('"', open + 1) !== field.length - 1) return null;
    fields[k] = field.slice(open + 1, -1);
  }
  return fields;
}

/** Leading spaces and tabs dropped, as csv-parse's ltrim drops them. */
function trimSpaces(field: string): string {
  let i = 0;
  while (field.charCodeAt(i) === 32 || field.charCodeAt(i) === 9) i++;
  return i === 0 ? field : field.slice(i);
}

function countQuotes(line: string): number {
  let n = 0;
  for (let p = line.indexOf('"'); p >= 0; p = line.indexOf('"', p + 1)) n++;
  return n;
}

/**
 * Parses lines [from, to) with csv-parse. Without a field spanning lines, record k is line from + k;
 * with one, csv-parse's record info says where each record ends (asked for only then: it costs).
 */
function parseRun(lines: readonly string[], from: number, to: number, delimiter: Delimiter, firstLine: number, spans: boolean, rows: string[][], starts: number[]): void {
  let records: { record: string[]; info: { lines: number } }[] | string[][];
  // csv-parse builds an error for every row whose length differs from the first, even when
  // relax_column_count accepts it; capturing a stack for each was most of its cost on vendor files
  // (header blocks of short rows), so none is captured during the call. The call is synchronous.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    records = parseCsv(lines.slice(from, to).join('\n'), {
      delimiter,
      ltrim: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      info: spans,
    }) as unknown as { record: string[]; info: { lines: number } }[] | string[][];
  } catch (err) {
    throw parserError(`the text cannot be split into cells after line ${firstLine + from}: ${(err as Error).message}`, { line: firstLine + from });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  let next = from;
  for (const entry of records) {
    const record = Array.isArray(entry) ? entry : entry.record;
    rows.push(record.length === 1 && record[0] === '' ? [] : record);
    starts.push(firstLine + next);
    next = Array.isArray(entry) ? next + 1 : from + entry.info.lines;
  }
}

/** A head split for detection; `whole_lines` of the file's first lines are split exactly as a full read would (0: none). */
type Head = TextTable & { whole_lines: number };
const cache = new WeakMap<FileView, Map<string, Head | TextTable | null>>();

function byFile(file: FileView): Map<string, Head | TextTable | null> {
  let byKey = cache.get(file);
  if (!byKey) {
    byKey = new Map();
    cache.set(file, byKey);
  }
  return byKey;
}

/** The whole text as a table (null for content that is not text); cached per file and delimiter. */
export function textTable(file: FileView, delimiter?: Delimiter): TextTable | null {
  return cached(file, `all${delimiter ?? ''}`, () => {
    if (file.container !== 'text') return null;
    const lines = file.lines();
    const d = delimiter ?? sniffDelimiter(lines.slice(0, HEAD_LINES));
    const ends_with_line_break = /[\r\n]$/.test(file.text() ?? '');
    // The head detection already split serves again when it was split the same way and whole.
    const head = byFile(file).get('head') as Head | null | undefined;
    if (!head || head.delimiter !== d || head.whole_lines === 0) {
      const { rows, lines: starts } = splitLines(lines, d);
      return { delimiter: d, rows, lines: starts, ends_with_line_break };
    }
    const rest = splitLines(lines.slice(head.whole_lines), d, head.whole_lines + 1);
    return { delimiter: d, rows: [...head.rows, ...rest.rows], lines: [...head.lines, ...rest.lines], ends_with_line_break };
  });
}

/**
 * The first lines as a table, for detectors: bounded (HEAD_LINES lines of at most HEAD_LINE_CHARS),
 * split once per file and shared by every detector, and never throws (an unreadable head is null).
 */
export function textHead(file: FileView, maxLines = HEAD_LINES): TextTable | null {
  const head = cached<Head>(file, 'head', () => {
    const text = file.container === 'text' ? file.text() : null;
    if (text === null || MARKUP_OR_JSON.test(text.slice(0, 64))) return null;
    // The first lines of the bounded head, as FileView.lines() would give them.
    const slice = text.slice(0, READ_LIMITS.head_bytes);
    const pieces = slice.split(/\r\n|\n|\r/);
    const coversText = slice.length === text.length;
    if (coversText && pieces[pieces.length - 1] === '') pieces.pop();
    const lines = pieces.slice(0, HEAD_LINES);
    // A line the 64 KB bound cut is not whole; nor is a head with a shortened line or an open quote.
    const uncut = coversText || pieces.length > HEAD_LINES ? lines.length : lines.length - 1;
    const delimiter = sniffDelimiter(lines);
    try {
      const split = splitLines(
        lines.map((l) => l.slice(0, HEAD_LINE_CHARS)),
        delimiter,
      );
      const whole = split.closed && lines.every((l) => l.length <= HEAD_LINE_CHARS) && uncut === lines.length;
      return { delimiter, rows: split.rows, lines: split.lines, ends_with_line_break: true, whole_lines: whole ? lines.length : 0 };
    } catch {
      return null;
    }
  });
  if (!head || maxLines >= HEAD_LINES) return head;
  const n = head.lines.findIndex((line) => line > maxLines);
  return n < 0 ? head : { ...head, rows: head.rows.slice(0, n), lines: head.lines.slice(0, n) };
}

function cached<T extends TextTable>(file: FileView, key: string, make: () => T | null): T | null {
  const byKey = byFile(file);
  if (!byKey.has(key)) byKey.set(key, make());
  return (byKey.get(key) as T | undefined) ?? null;
}
