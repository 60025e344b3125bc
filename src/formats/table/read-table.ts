/**
 * Reads a located table into canonical columns: the time axis, every channel the dictionary names
 * (its unit decided once, in unit-decision.ts), VO2 per kg, the phase column. Nothing is dropped
 * silently: columns the dictionary does not know are named in a flag, cells that do not read as
 * numbers are counted in a flag, and every column's fate is in `columns` for callers that report it.
 */
import type { FileLocation } from '../../errors.js';
import { parserError } from '../../errors.js';
import { CHANNEL_NAMES, type ChannelData, type ChannelName, type ParserFlag, type PhaseName } from '../../recording/recording.js';
import { isPlaceholder, scanNumber, type ScanReport } from '../../recording/units.js';
import type { Quantity, ReadQuantity } from './dictionary.js';
import { readHeaderName, type HeaderName, type VendorNames } from './header-names.js';
import { phaseOf } from './phase-labels.js';
import { readTimeColumn } from './time-column.js';
import { decideUnit, type UnitSource } from './unit-decision.js';
import { unitMeaning } from './unit-words.js';

/** Where the table is and what its header says. */
export interface TableLayout {
  header_row: number;
  units_row: number | null;
  first_column: number;
  data_start: number;
  /** Header names, units and qualifiers the vendor assembled itself (Parvo's four header lines), by column. */
  names?: readonly unknown[];
  units?: readonly unknown[];
  qualifiers?: readonly unknown[];
}

/** The cells a table is read from, and how to say where a cell is. */
export interface TableSource {
  rows: readonly (readonly unknown[])[];
  /** Where row `r` of `rows` is (a sheet row or a text line), for errors and flags. */
  where: (row: number) => FileLocation;
  /** For text: whether it ends with a line break (a last row without one may have been cut). */
  ends_with_line_break?: boolean;
}

export interface TableOptions {
  /** The vendor's own column names, tried before the dictionary's. */
  names?: VendorNames;
  /** The vendor's units for columns its files state none for, with why (MGC: speed in mph). */
  units?: Partial<Record<ChannelName | 'time', { unit: string; reason: string }>>;
  /** Barometric pressure the file states (mmHg), for end-tidal fractions; 760 is assumed otherwise. */
  barometric_mmhg?: number | null;
}

/** What became of one column. */
export interface TableColumn {
  index: number;
  header: string;
  /** The quantity read from it, or null when it was not read. */
  reads: ReadQuantity | null;
  unit?: { unit_in: string; source: UnitSource; factor: number };
  /** Why it was not read, or how it was told apart. */
  note?: string;
}

export interface TableRead {
  time_s: (number | null)[];
  channels: Partial<Record<ChannelName, ChannelData>>;
  absent: Partial<Record<ChannelName, string>>;
  phase_per_row?: (PhaseName | null)[];
  /** VO2 per kg of body mass (mL/kg/min) when the table has it. */
  vo2_per_kg?: (number | null)[];
  columns: TableColumn[];
  /** The data rows, as cells, for vendor columns the layer does not read. */
  data: readonly (readonly unknown[])[];
  flags: ParserFlag[];
  /** Index of the first column whose header passes `test` (for vendor columns the layer does not read), or -1. */
  column(test: (name: HeaderName) => boolean): number;
}

/** Water vapour pressure of alveolar gas at 37 °C, mmHg (West, Respiratory Physiology: The Essentials). */
const PH2O_37C_MMHG = 47;
const STANDARD_BAROMETRIC_MMHG = 760;
/** Per-kg VO2 (mL/kg/min) stays below this; absolute VO2 in mL/min is far above it. */
const PER_KG_MAX = 100;

/** Reads the table; throws PARSER_ERROR when it has no time column or no data rows. */
export function readTable(source: TableSource, layout: TableLayout, options: TableOptions = {}): TableRead {
  const flags: ParserFlag[] = [];
  const headerCells = layout.names ?? source.rows[layout.header_row] ?? [];
  const unitCells = layout.units ?? (layout.units_row === null ? [] : (source.rows[layout.units_row] ?? []));
  const lastColumn = headerCells.length - 1;
  const names = new Map<number, HeaderName>();
  for (let c = layout.first_column; c <= lastColumn; c++) {
    const name = readHeaderName(headerCells[c], options.names);
    const q =
      name.qualifier || !layout.qualifiers
        ? null
        : String(layout.qualifiers[c] ?? '')
            .trim()
            .toLowerCase();
    names.set(c, q === 'btps' || q === 'stpd' || q === 'atps' ? { ...name, qualifier: q } : name);
  }

  const { data, rowIndex } = dataRows(source, layout, lastColumn, flags);
  if (data.length === 0) throw parserError('the table has a header but no data rows', source.where(layout.data_start));
  const where = (k: number): FileLocation => source.where(rowIndex[k]);
  const cells = (c: number) => data.map((r) => r[c]);
  const unitRow = (c: number): string | null => {
    const u = unitCells[c];
    return u === null || u === undefined ? null : String(u);
  };
  const columns = new Map<number, TableColumn>();
  for (const [c, n] of names) if (n.header !== '') columns.set(c, { index: c, header: n.header, reads: null });
  const report: ScanReport = { comma: false };
  const unreadable: string[] = [];

  // 1. The time axis: the best-ranked time name, leftmost among equals.
  const timeCol = pick(names, 'time');
  if (timeCol < 0) throw parserError('no time column in the header', { ...source.where(layout.header_row) });
  const timeName = names.get(timeCol) as HeaderName;
  const time_s = readTimeColumn({ cells: cells(timeCol), header: timeName.header, unit_row: unitRow(timeCol) ?? options.units?.time?.unit ?? null, unit_header: timeName.unit, where }, flags, report);
  columns.set(timeCol, { index: timeCol, header: timeName.header, reads: 'time' });

  // 2. Numbers of a column, read once, with unreadable cells counted.
  const numbers = new Map<number, (number | null)[]>();
  const read = (c: number): (number | null)[] => {
    let values = numbers.get(c);
    if (values) return values;
    values = new Array(data.length);
    let bad = 0;
    let firstBad = -1;
    for (let k = 0; k < data.length; k++) {
      const cell = data[k][c];
      let v: number | null = null;
      if (typeof cell === 'number') v = Number.isFinite(cell) ? cell : null;
      else if (typeof cell === 'string') {
        v = scanNumber(cell, report);
        if (v === null && !isPlaceholder(cell)) {
          bad++;
          if (firstBad < 0) firstBad = k;
        }
      }
      values[k] = v;
    }
    if (bad > 0) unreadable.push(`${names.get(c)?.header} (${bad}, first "${String(data[firstBad][c]).trim()}" at ${describe(where(firstBad))})`);
    numbers.set(c, values);
    return values;
  };

  // 3. VO2 columns: per kg by unit, by name or by magnitude; the absolute one is the channel.
  const vo2 = splitVo2(names, unitRow, read, flags);
  if (vo2.per_kg >= 0) columns.set(vo2.per_kg, { index: vo2.per_kg, header: names.get(vo2.per_kg)?.header ?? '', reads: 'VO2/kg', note: vo2.note });

  // 4. Channels: candidates best name first; a candidate whose unit rejects it gives way to the next.
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  for (const channel of CHANNEL_NAMES) {
    const candidates = channel === 'VO2' ? (vo2.absolute >= 0 ? [vo2.absolute] : []) : candidatesFor(names, channel);
    for (const c of candidates) {
      const name = names.get(c) as HeaderName;
      const stated = { row: unitRow(c), header: name.unit, vendor: options.units?.[channel] };
      if (name.weak && !confirmsWeak(channel, stated.row ?? stated.header)) {
        columns.set(c, { index: c, header: name.header, reads: null, note: `too short a name to read as ${channel} without a unit that says so` });
        continue;
      }
      const values = read(c);
      const decided = decideUnit(channel, name.header, stated, values, flags);
      if ('reject' in decided) {
        absent[channel] = decided.reject;
        columns.set(c, { index: c, header: name.header, reads: null, note: decided.reject });
        continue;
      }
      if (decided.factor !== 1) for (let k = 0; k < values.length; k++) if (values[k] !== null) values[k] = (values[k] as number) * decided.factor;
      channels[channel] = { values, unit_in: decided.unit_in };
      delete absent[channel];
      columns.set(c, { index: c, header: name.header, reads: channel, unit: { unit_in: decided.unit_in, source: decided.source, factor: decided.factor } });
      break;
    }
  }

  // 5. End-tidal fractions stand in for end-tidal pressures only when the table has none.
  for (const [pressure, fraction] of [
    ['PetO2', 'FetO2'],
    ['PetCO2', 'FetCO2'],
  ] as const) {
    const c = pick(names, fraction);
    if (c < 0 || channels[pressure]) continue;
    channels[pressure] = fromFraction(pressure, names.get(c) as HeaderName, unitRow(c), read(c), options.barometric_mmhg ?? null, flags);
    delete absent[pressure];
    columns.set(c, { index: c, header: names.get(c)?.header ?? '', reads: pressure, unit: { unit_in: channels[pressure].unit_in, source: 'values', factor: 1 } });
  }

  // 6. The phase column, through the phase labels of every language.
  const phaseCol = pick(names, 'phase');
  let phase_per_row: (PhaseName | null)[] | undefined;
  if (phaseCol >= 0) {
    phase_per_row = data.map((r) => phaseOf(r[phaseCol]));
    columns.set(phaseCol, { index: phaseCol, header: names.get(phaseCol)?.header ?? '', reads: 'phase' });
  }

  // 7. What was not read, and why.
  for (const [c, name] of names) {
    const col = columns.get(c);
    if (!col || col.reads !== null || col.note) continue;
    col.note = noteFor(name, columns);
  }
  const unknown = [...names].filter(([c, n]) => n.header !== '' && n.quantity === null && columns.get(c)?.reads === null).map(([, n]) => n.header);
  const unnamed = [...names].filter(([c, n]) => n.header === '' && data.some((r) => !isBlank(r[c]))).map(([c]) => `column ${c + 1} (no header)`);
  if (unknown.length + unnamed.length > 0) {
    flags.push({ code: 'columns_unknown', detail: `not in the column dictionary, so not read: ${[...unknown, ...unnamed].join(', ')}` });
  }
  if (unreadable.length > 0) flags.push({ code: 'values_unreadable', detail: `cells that are not numbers were read as missing: ${unreadable.join('; ')}` });
  if (report.comma) flags.push({ code: 'decimal_comma', detail: 'numbers use a decimal comma' });

  return {
    time_s,
    channels,
    absent,
    phase_per_row,
    vo2_per_kg: vo2.per_kg >= 0 ? read(vo2.per_kg) : undefined,
    columns: [...columns.values()].sort((a, b) => a.index - b.index),
    data,
    flags,
    column: (test) => {
      for (const [c, n] of names) if (test(n)) return c;
      return -1;
    },
  };
}

/**
 * The columns `readTable` may read values from with this header: every one whose name the
 * dictionary (or the vendor's names) gives a quantity to read. Every other column is only looked
 * at for being blank (where the data ends, unnamed columns holding values).
 */
export function columnsRead(headerCells: readonly unknown[], layout: TableLayout, options: TableOptions = {}): Set<number> {
  const out = new Set<number>();
  for (let c = layout.first_column; c < headerCells.length; c++) {
    const quantity = readHeaderName(headerCells[c], options.names).quantity;
    if (quantity !== null && quantity !== 'not_read') out.add(c);
  }
  return out;
}

function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

function describe(where: FileLocation): string {
  return where.line !== undefined ? `line ${where.line}` : `row ${where.row ?? '?'}${where.sheet ? ` of ${where.sheet}` : ''}`;
}

/**
 * Data rows: from the layout's first data row, past leading blank rows, to the first row blank
 * across the table (a trailer may follow). In text that ends without a line break, a last row shorter
 * than the header, or with fewer filled cells than the row before it, is what a cut leaves: dropped.
 */
function dataRows(source: TableSource, layout: TableLayout, lastColumn: number, flags: ParserFlag[]): { data: (readonly unknown[])[]; rowIndex: number[] } {
  const { rows } = source;
  const blank = (row: readonly unknown[] | undefined) => {
    if (!row) return true;
    for (let c = layout.first_column; c <= lastColumn && c < row.length; c++) if (!isBlank(row[c])) return false;
    return true;
  };
  let r = layout.data_start;
  while (r < rows.length && blank(rows[r])) r++;
  const data: (readonly unknown[])[] = [];
  const rowIndex: number[] = [];
  for (; r < rows.length && !blank(rows[r]); r++) {
    data.push(rows[r]);
    rowIndex.push(r);
  }
  const text = source.ends_with_line_break !== undefined;
  const last = rowIndex.length - 1;
  if (text && last >= 0 && rowIndex[last] === rows.length - 1) {
    const row = data[last];
    const filled = (x: readonly unknown[]) => x.filter((c) => !isBlank(c)).length;
    if (row.length < lastColumn + 1 || (!source.ends_with_line_break && last > 0 && filled(row) < filled(data[last - 1]))) {
      flags.push({
        code: 'truncated_row_dropped',
        detail: `the last line (${describe(source.where(rowIndex[last]))}) is shorter than the rows before it; the file looks cut short and that row was dropped`,
      });
      data.pop();
      rowIndex.pop();
    } else if (!source.ends_with_line_break) {
      flags.push({ code: 'last_row_unterminated', detail: `the file does not end with a line break; its last row (${describe(source.where(rowIndex[last]))}) was kept but may be cut short` });
    }
  }
  return { data, rowIndex };
}

/** Columns naming `quantity`, best name first, leftmost among equals. */
function candidates(names: ReadonlyMap<number, HeaderName>, quantity: Quantity): number[] {
  const out: number[] = [];
  for (const [c, n] of names) if (n.quantity === quantity) out.push(c);
  if (out.length > 1) out.sort((a, b) => (names.get(a) as HeaderName).rank - (names.get(b) as HeaderName).rank || a - b);
  return out;
}

/** Candidates for a channel; for VE the BTPS one first (canonical VE is BTPS) and an STPD one last. */
function candidatesFor(names: ReadonlyMap<number, HeaderName>, channel: ChannelName): number[] {
  const list = candidates(names, channel);
  if (channel !== 'VE') return list;
  const order = (c: number) => {
    const q = names.get(c)?.qualifier;
    return q === 'btps' ? 0 : q === 'stpd' ? 2 : 1;
  };
  return list.sort((a, b) => order(a) - order(b));
}

function pick(names: ReadonlyMap<number, HeaderName>, quantity: Quantity): number {
  return candidates(names, quantity)[0] ?? -1;
}

/** A weak name (`P`, `v`, `f`) counts only when its unit measures what the channel measures. */
function confirmsWeak(channel: ChannelName, unit: string | null): boolean {
  const kind = unitMeaning(unit)?.kind;
  return (channel === 'Load' && kind === 'power') || (channel === 'Speed' && kind === 'speed') || (channel === 'RF' && kind === 'rate');
}

/**
 * Of the columns named VO2 (and a VO2/kg column), which is the channel and which is per kg: the
 * units row or header first, then a name that says absolute (`vo2_abs`), then magnitude (two columns
 * both named VO2, as MGC writes them: the larger is mL/min).
 */
function splitVo2(
  names: ReadonlyMap<number, HeaderName>,
  unitRow: (c: number) => string | null,
  read: (c: number) => (number | null)[],
  flags: ParserFlag[],
): { absolute: number; per_kg: number; note?: string } {
  let perKg = pick(names, 'VO2/kg');
  const vo2 = candidates(names, 'VO2').filter((c) => {
    if (unitMeaning(unitRow(c) || names.get(c)?.unit)?.kind !== 'per_kg_flow') return true;
    if (perKg < 0) perKg = c;
    return false;
  });
  if (vo2.length <= 1) return { absolute: vo2[0] ?? -1, per_kg: perKg };
  const stated = vo2.filter((c) => unitMeaning(unitRow(c) || names.get(c)?.unit)?.kind === 'gas_flow');
  const named = vo2.filter((c) => names.get(c)?.absolute);
  if (stated.length === 1 || named.length === 1) {
    const absolute = stated.length === 1 ? stated[0] : named[0];
    const other = vo2.find((c) => c !== absolute && medianOf(read(c)) < PER_KG_MAX);
    if (perKg < 0 && other !== undefined) perKg = other;
    return { absolute, per_kg: perKg, note: 'per kg: another VO2 column is the absolute one' };
  }
  const byMedian = vo2.map((c) => ({ c, med: medianOf(read(c)) })).sort((a, b) => b.med - a.med);
  const [absolute, second] = byMedian;
  if (second.med < PER_KG_MAX && perKg < 0) {
    perKg = second.c;
    flags.push({
      code: 'two_vo2_columns',
      detail: `two columns named VO2: column ${absolute.c + 1} (larger) read as mL/min, column ${second.c + 1} as mL/kg/min`,
    });
  }
  return { absolute: absolute.c, per_kg: perKg, note: 'per kg: the smaller of two VO2 columns' };
}

function medianOf(values: readonly (number | null)[]): number {
  const finite = values.filter((v): v is number => v !== null);
  if (finite.length === 0) return Number.NaN;
  finite.sort((a, b) => a - b);
  return finite[finite.length >> 1];
}

/**
 * An end-tidal fraction (% or a fraction of 1) as a partial pressure of saturated alveolar gas:
 * P = F x (PB - PH2O), PH2O 47 mmHg at 37 °C (Dalton's law; West, Respiratory Physiology).
 */
function fromFraction(pressure: 'PetO2' | 'PetCO2', name: HeaderName, unit: string | null, values: (number | null)[], barometric: number | null, flags: ParserFlag[]): ChannelData {
  const percent = unitMeaning(unit ?? name.unit)?.kind === 'percent' || medianOf(values) > 1;
  const pb = barometric ?? STANDARD_BAROMETRIC_MMHG;
  const factor = (percent ? 0.01 : 1) * (pb - PH2O_37C_MMHG);
  const out = values.map((v) => (v === null ? null : v * factor));
  flags.push({
    code: 'end_tidal_from_fraction',
    detail: `no ${pressure} column; ${pressure} is ${name.header} (${percent ? '%' : 'fraction'}) x (${barometric === null ? `${pb} mmHg assumed barometric pressure` : `the file's barometric pressure ${pb} mmHg`} - 47 mmHg water vapour)`,
  });
  return { values: out, unit_in: percent ? '%' : 'fraction' };
}

/** Why a recognised column was left. */
function noteFor(name: HeaderName, columns: ReadonlyMap<number, TableColumn>): string {
  if (name.quantity === null) return 'not in the column dictionary';
  if (name.quantity === 'not_read') return name.note ?? 'known, not read';
  const pressure = name.quantity === 'FetO2' ? 'PetO2' : name.quantity === 'FetCO2' ? 'PetCO2' : null;
  if (pressure) {
    const read = [...columns.values()].find((c) => c.reads === pressure);
    return `an end-tidal fraction; ${pressure} is read from ${read?.header ?? 'another column'}`;
  }
  const taken = [...columns.values()].find((c) => c.reads === name.quantity);
  if (taken) return `${name.quantity} is read from ${taken.header}`;
  return `${name.quantity} not read`;
}
