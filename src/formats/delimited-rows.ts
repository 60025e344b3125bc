/**
 * The data rows of a delimited text table (tab, comma, semicolon), as the text exports write them.
 * Blank lines are skipped; a last row shorter than the one before it is what a cut file leaves, so
 * it is dropped with a flag rather than read as a sample with missing channels.
 */
import type { ParserFlag } from '../recording/recording.js';

export interface DelimitedRows {
  rows: string[][];
  /** The 1-based line number of each row, for errors that say where. */
  lines: number[];
}

/** Splits `lines` from index `from` on `delimiter`; `text` is the whole file (to see its final line break). */
export function delimitedRows(lines: readonly string[], from: number, delimiter: string, headerCells: number, text: string | null, flags: ParserFlag[]): DelimitedRows {
  const rows: string[][] = [];
  const numbers: number[] = [];
  for (let i = from; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const cells = lines[i].split(delimiter);
    if (i === lines.length - 1 && lastRowCut(cells, rows[rows.length - 1], headerCells, text)) {
      flags.push({ code: 'truncated_row_dropped', detail: `the last line (${i + 1}) is shorter than the rows before it; the file looks cut short and that row was dropped` });
      continue;
    }
    rows.push(cells);
    numbers.push(i + 1);
  }
  return { rows, lines: numbers };
}

/**
 * Whether the last line was cut: fewer cells than the header, or, when the text does not end with
 * a line break, fewer filled cells than the row before (a cut inside the last row).
 */
function lastRowCut(cells: string[], previous: string[] | undefined, headerCells: number, text: string | null): boolean {
  if (cells.length < headerCells) return true;
  if (!previous || /[\r\n]$/.test(text ?? '')) return false;
  const filled = (row: string[]) => row.filter((c) => c.trim() !== '').length;
  return filled(cells) < filled(previous);
}
