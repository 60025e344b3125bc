/**
 * Delimited text (CSV, TSV, semicolon-separated) as rows of cells. Quoted fields (a delimiter, a
 * quote or a line break inside a cell; Parvo's quoted, space-padded strings) go through csv-parse.
 * A line that holds no quote character and is not inside a quoted field splits on the delimiter to
 * exactly the cells a CSV parser gives, so those lines (the data rows of every export seen) are split
 * directly: the same cells, without a parser's per-character cost.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { parserError } from '../../errors.js';
import type { FileView } from '../file-view.js';

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

/** Lines of the head that detection reads. */
export const HEAD_LINES = 60;

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
export function splitLines(lines: readonly string[], delimiter: Delimiter, firstLine = 1): { rows: string[][]; lines: number[] } {
  const rows: string[][] = [];
  const starts: number[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.includes('"')) {
      rows.push(line === '' ? [] : line.split(delimiter));
      starts.push(firstLine + i);
      i++;
      continue;
    }
    // A run of lines with quotes (and the blank lines between them) goes to the CSV parser in one call.
    const from = i;
    let inside = false;
    while (i < lines.length && (inside || lines[i].includes('"') || lines[i] === '')) {
      if (countQuotes(lines[i]) % 2 === 1) inside = !inside;
      i++;
    }
    parseRun(lines, from, i, delimiter, firstLine, rows, starts);
  }
  return { rows, lines: starts };
}

function countQuotes(line: string): number {
  let n = 0;
  for (let p = line.indexOf('"'); p >= 0; p = line.indexOf('"', p + 1)) n++;
  return n;
}

function parseRun(lines: readonly string[], from: number, to: number, delimiter: Delimiter, firstLine: number, rows: string[][], starts: number[]): void {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parseCsv(lines.slice(from, to).join('\n'), {
      delimiter,
      ltrim: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (err) {
    throw parserError(`the text cannot be split into cells after line ${firstLine + from}: ${(err as Error).message}`, { line: firstLine + from });
  }
  let next = from;
  for (const { record, info } of records) {
    rows.push(record.length === 1 && record[0] === '' ? [] : record);
    starts.push(firstLine + next);
    next = from + info.lines;
  }
}

const cache = new WeakMap<FileView, Map<string, TextTable | null>>();

/** The whole text as a table (null for content that is not text); cached per file and delimiter. */
export function textTable(file: FileView, delimiter?: Delimiter): TextTable | null {
  return cached(file, `all${delimiter ?? ''}`, () => {
    if (file.container !== 'text') return null;
    const lines = file.lines();
    const d = delimiter ?? sniffDelimiter(lines.slice(0, HEAD_LINES));
    const { rows, lines: starts } = splitLines(lines, d);
    return { delimiter: d, rows, lines: starts, ends_with_line_break: /[\r\n]$/.test(file.text() ?? '') };
  });
}

/** The first lines as a table, for detectors: bounded, and never throws (an unreadable head is null). */
export function textHead(file: FileView, maxLines = HEAD_LINES): TextTable | null {
  return cached(file, `head${maxLines}`, () => {
    if (file.container !== 'text') return null;
    const lines = file.head(maxLines);
    const delimiter = sniffDelimiter(lines);
    try {
      const { rows, lines: starts } = splitLines(lines, delimiter);
      return { delimiter, rows, lines: starts, ends_with_line_break: true };
    } catch {
      return null;
    }
  });
}

function cached(file: FileView, key: string, make: () => TextTable | null): TextTable | null {
  let byKey = cache.get(file);
  if (!byKey) cache.set(file, (byKey = new Map()));
  if (!byKey.has(key)) byKey.set(key, make());
  return byKey.get(key) ?? null;
}
