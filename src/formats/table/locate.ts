/**
 * Finds a table in the first rows of a sheet or of delimited text: the header row is the row whose
 * cells the dictionary recognises best (a time column and gas channels), an optional units row sits
 * right under it, and data starts after them.
 */
import { parseClock } from '../../recording/units.js';
import type { ReadQuantity } from './dictionary.js';
import { readHeaderName, type VendorNames } from './header-names.js';
import { unitMeaning } from './unit-words.js';

/** Rows searched for a header: past the longest block seen above a table (Cortex, about 50 rows). */
export const HEADER_SEARCH_ROWS = 80;

export interface TableHeader {
  header_row: number;
  units_row: number | null;
  /** The first column of the table (metadata beside it is left out). */
  first_column: number;
  data_start: number;
  /** What each recognised column of the header row reads, by column index. */
  recognised: Map<number, ReadQuantity>;
}

/** Quantities whose presence makes a row a CPET table header. */
const GAS: readonly ReadQuantity[] = ['VO2', 'VCO2', 'VE'];

export interface LocateOptions {
  /** Start the table at its time column (vendors whose metadata sits left of the table, as COSMED's). */
  from_time_column?: boolean;
  vendor?: VendorNames;
  max_rows?: number;
  /** Which sets of recognised quantities make a header; by default a time column and two of VO2, VCO2, VE. */
  accept?: (quantities: ReadonlySet<ReadQuantity>) => boolean;
}

/** A vendor table's header: a time column and at least two of VO2, VCO2, VE. */
function timeAndTwoGases(quantities: ReadonlySet<ReadQuantity>): boolean {
  return quantities.has('time') && GAS.filter((g) => quantities.has(g)).length >= 2;
}

/**
 * The best header row within the first rows: one the `accept` rule takes, scored by how many
 * quantities it names (the earliest of equals wins). Null when no row qualifies.
 */
export function locateTable(rows: readonly (readonly unknown[])[], options: LocateOptions = {}): TableHeader | null {
  let best: { row: number; score: number; recognised: Map<number, ReadQuantity> } | null = null;
  const limit = Math.min(rows.length, options.max_rows ?? HEADER_SEARCH_ROWS);
  const accept = options.accept ?? timeAndTwoGases;
  for (let r = 0; r < limit; r++) {
    const recognised = recogniseRow(rows[r], options.vendor);
    const quantities = new Set(recognised.values());
    if (!accept(quantities)) continue;
    if (!best || quantities.size > best.score) best = { row: r, score: quantities.size, recognised };
  }
  if (!best) return null;
  const timeColumn = [...best.recognised].find(([, q]) => q === 'time')?.[0] ?? 0;
  const firstColumn = options.from_time_column ? timeColumn : firstFilled(rows[best.row]);
  const unitsRow = isUnitsRow(rows[best.row + 1], firstColumn) ? best.row + 1 : null;
  return {
    header_row: best.row,
    units_row: unitsRow,
    first_column: firstColumn,
    data_start: best.row + (unitsRow === null ? 1 : 2),
    recognised: new Map([...best.recognised].filter(([c]) => c >= firstColumn)),
  };
}

/** Column index to the quantity its header names, for the cells the dictionary recognises (weak names left out). */
export function recogniseRow(row: readonly unknown[] | undefined, vendor?: VendorNames): Map<number, ReadQuantity> {
  const out = new Map<number, ReadQuantity>();
  if (!row) return out;
  for (let c = 0; c < row.length; c++) {
    const cell = row[c];
    if (typeof cell !== 'string' || cell.length > 60 || startsLikeNumber(cell)) continue;
    const name = readHeaderName(cell, vendor);
    if (name.quantity && name.quantity !== 'not_read' && !name.weak) out.set(c, name.quantity);
  }
  return out;
}

/** A cell whose first character is a digit, or a sign or point before one, is data, not a name. */
function startsLikeNumber(cell: string): boolean {
  // Never read past the end (NaN there compared as false, but made optimized code deoptimize).
  const n = cell.length;
  let i = 0;
  while (i < n && cell.charCodeAt(i) === 32) i++;
  if (i >= n) return false;
  let c = cell.charCodeAt(i);
  if (c === 45 || c === 43 || c === 46) c = i + 1 < n ? cell.charCodeAt(i + 1) : -1;
  return c >= 48 && c <= 57;
}

function firstFilled(row: readonly unknown[]): number {
  const i = row.findIndex((c) => c !== null && c !== undefined && String(c).trim() !== '');
  return Math.max(i, 0);
}

const NUMBER_TEXT = /^\s*[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?\s*$/;

/**
 * A units row: no cell from `from` on is a number or a clock time, and at least one cell is a unit
 * the vocabulary knows (`s`, `L/min`, `(mL/kg/min)`, `---`); blank cells are allowed.
 */
export function isUnitsRow(row: readonly unknown[] | undefined, from = 0): boolean {
  if (!row) return false;
  let units = 0;
  for (let c = from; c < row.length; c++) {
    const cell = row[c];
    if (cell === null || cell === undefined) continue;
    if (typeof cell === 'number') return false;
    const text = String(cell).trim();
    if (text === '') continue;
    if (NUMBER_TEXT.test(text) || (text.includes(':') && parseClock(text) !== null)) return false;
    if (unitMeaning(text)) units++;
  }
  return units > 0;
}
