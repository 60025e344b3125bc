/**
 * Where a generic table is: the first sheet of a workbook (or the delimited text) with a header row
 * the column dictionary recognises, in any language it holds: a time column and VO2 with VCO2, or VE.
 */
import {
  HEADER_SEARCH_ROWS,
  locateTable,
  recogniseRow,
  sheetSource,
  textHead,
  textSource,
  textTable,
  type FileView,
  type ReadQuantity,
  type TableHeader,
  type TableSource,
} from 'cpet-analysis-service/plugin';

/** A time column and VO2 with VCO2, or VE: the least a CPET table must name to be read. */
function enoughToRead(q: ReadonlySet<ReadQuantity>): boolean {
  return q.has('time') && ((q.has('VO2') && q.has('VCO2')) || q.has('VE'));
}

export interface FoundTable {
  source: TableSource;
  layout: TableHeader;
  /** Where the header is, in words ("line 3", "row 1 of sheet Data"). */
  where: string;
}

/** The first table in the file (over the bounded head when `head` is set, for detection); null when there is none. */
export function findTable(file: FileView, head: boolean): FoundTable | null {
  if (file.container === 'zip' || file.container === 'ole') {
    for (const sheet of (head ? file.sheetHeads() : file.sheets()) ?? []) {
      const rows = head ? sheet.rows.slice(0, HEADER_SEARCH_ROWS) : sheet.rows;
      const layout = locateTable(rows, { accept: enoughToRead });
      if (layout) return { source: sheetSource(sheet), layout, where: `row ${layout.header_row + 1} of sheet ${sheet.name}` };
    }
    return null;
  }
  const text = head ? textHead(file, HEADER_SEARCH_ROWS) : textTable(file);
  if (!text) return null;
  const layout = locateTable(text.rows, { accept: enoughToRead });
  return layout ? { source: textSource(text), layout, where: `line ${text.lines[layout.header_row]}` } : null;
}

/** The head row naming the most quantities, and what it names, to say why a file is not a table. */
export function closestRow(file: FileView): { where: string; names: ReadQuantity[] } | null {
  const grids: { rows: readonly (readonly unknown[])[]; where: (r: number) => string }[] = [];
  if (file.container === 'zip' || file.container === 'ole') {
    for (const sheet of file.sheetHeads() ?? []) grids.push({ rows: sheet.rows.slice(0, HEADER_SEARCH_ROWS), where: (r) => `row ${r + 1} of sheet ${sheet.name}` });
  } else {
    const text = textHead(file, HEADER_SEARCH_ROWS);
    if (text) grids.push({ rows: text.rows, where: (r) => `line ${text.lines[r]}` });
  }
  let best: { where: string; names: ReadQuantity[] } | null = null;
  for (const grid of grids) {
    grid.rows.forEach((row, r) => {
      const names = [...new Set(recogniseRow(row).values())];
      if (names.length > (best?.names.length ?? 0)) best = { where: grid.where(r), names };
    });
  }
  return best;
}
