/**
 * Reads a table's time column in whatever form it was written: seconds, decimal minutes, `m:ss`,
 * `h:mm:ss` (a decimal comma for tenths too), Excel day fractions, day fractions that hold an m:ss
 * typed into Excel (which reads `0:13` as 13 minutes), negative times for rest before the test.
 * The form is decided once for the column from its cells and its unit, and said in a flag whenever
 * the file did not state it.
 */
import { parserError, type FileLocation } from '../../errors.js';
import { extent } from '../../recording/build.js';
import type { ParserFlag } from '../../recording/recording.js';
import { excelDayFractionToSeconds, isPlaceholder, parseClock, scanNumber, type ScanReport } from '../../recording/units.js';
import { unitMeaning } from './unit-words.js';

const SECONDS_PER_DAY = 86_400;
/**
 * An m:ss typed into Excel is stored as h:mm: a test of minutes becomes one of hours, and every
 * step between rows a whole number of minutes (the typed seconds). A CPET recording spans well
 * under 3 h, so a span beyond that with whole-minute steps means the day fraction holds m:ss.
 */
const H_MM_MIN_SPAN_S = 3 * 3600;
/** Rows closer than half a second are minutes, not seconds: no one breathes twice a second for a whole test. */
const MINUTES_MAX_STEP = 0.5;

export interface TimeColumnInput {
  cells: readonly unknown[];
  /** The header as written, for messages. */
  header: string;
  /** The units-row cell under the time column, and a unit written in its header. */
  unit_row: unknown;
  unit_header: string | null;
  /** Where each cell is, for an error that says where reading stopped. */
  where: (k: number) => FileLocation;
}

/**
 * Seconds per row (null where a cell holds no time); throws PARSER_ERROR when the column is not a
 * time. A decimal comma in plain numbers is noted in `report` (the table flags it once).
 */
export function readTimeColumn(input: TimeColumnInput, flags: ParserFlag[], report: ScanReport): (number | null)[] {
  const { cells } = input;
  let numbers = 0;
  let clocks = 0;
  for (const c of cells) {
    if (typeof c === 'number') numbers++;
    else if (typeof c === 'string' && c.includes(':')) clocks++;
  }
  const out: (number | null)[] = new Array(cells.length).fill(null);
  let readable = 0;
  let filled = 0;
  let firstBad = -1;
  if (clocks > 0 && clocks >= numbers) {
    let clockComma = false;
    for (let k = 0; k < cells.length; k++) {
      const c = cells[k];
      if (isPlaceholder(c) || (typeof c === 'string' && c.trim() === '')) continue;
      filled++;
      const t = typeof c === 'number' ? excelDayFractionToSeconds(c) : typeof c === 'string' ? parseClock(c) : null;
      if (t === null) {
        if (firstBad < 0) firstBad = k;
        continue;
      }
      if (typeof c === 'string' && c.includes(',')) clockComma = true;
      out[k] = t;
      readable++;
    }
    refuseUnreadable(input, readable, filled, firstBad);
    if (clockComma) flags.push({ code: 'time_decimal_comma', detail: `times in ${input.header} use a decimal comma for fractions of a second (hh:mm:ss,z)` });
    return out;
  }

  for (let k = 0; k < cells.length; k++) {
    const c = cells[k];
    if (isPlaceholder(c) || (typeof c === 'string' && c.trim() === '')) continue;
    filled++;
    const v = typeof c === 'number' ? (Number.isFinite(c) ? c : null) : typeof c === 'string' ? scanNumber(c, report) : null;
    if (v === null) {
      if (firstBad < 0) firstBad = k;
      continue;
    }
    out[k] = v;
    readable++;
  }
  refuseUnreadable(input, readable, filled, firstBad);
  return scaleToSeconds(out, input, flags);
}

/** A time column most of whose filled cells are not times cannot give a time axis: refused, saying where. */
function refuseUnreadable(input: TimeColumnInput, readable: number, filled: number, firstBad: number): void {
  if (filled === 0) throw parserError(`the time column ${input.header} is empty`, input.where(0));
  if (readable * 2 >= filled) return;
  const cell = String(input.cells[firstBad]).trim();
  throw parserError(`the time column ${input.header} cannot be read: "${cell}" is not a time (${filled - readable} of ${filled} cells unreadable)`, input.where(firstBad));
}

/** Plain numbers to seconds by the stated unit, else by their range and steps, with a flag saying which. */
function scaleToSeconds(values: (number | null)[], input: TimeColumnInput, flags: ParserFlag[]): (number | null)[] {
  const stated = unitMeaning(input.unit_row) ?? unitMeaning(input.unit_header);
  const statedText = String(input.unit_row ?? input.unit_header ?? '').trim();
  const [lo, hi] = extent(values);
  // Every value inside one day either way: an Excel time (a fraction of a day), whatever the unit cell says.
  if (lo > -1 && hi < 1 && hi > lo && stated?.factor !== 60 && stated?.factor !== 3600) {
    const seconds = values.map((v) => (v === null ? null : excelDayFractionToSeconds(v)));
    if ((hi - lo) * SECONDS_PER_DAY > H_MM_MIN_SPAN_S && wholeMinuteSteps(seconds)) {
      flags.push({
        code: 'time_h_mm_read_as_m_ss',
        detail: `${input.header} holds Excel times spanning more than 3 hours in whole-minute steps: an m:ss typed into Excel and stored as h:mm; read as minutes and seconds`,
      });
      return values.map((v) => (v === null ? null : Math.round(v * 1440 * 1000) / 1000));
    }
    flags.push({
      code: 'time_excel_day_fraction',
      detail: `${input.header} is stored as an Excel time (fraction of a day)${statedText ? ` although its unit cell says ${statedText}` : ''}; converted to seconds`,
    });
    return seconds;
  }
  if (stated?.kind === 'duration') return stated.factor === 1 ? values : values.map((v) => (v === null ? null : v * stated.factor));
  if (medianStep(values) < MINUTES_MAX_STEP) {
    flags.push({ code: 'time_unit_inferred', detail: `${input.header} has no unit and its rows are less than half a second apart if read as seconds; read as decimal minutes` });
    return values.map((v) => (v === null ? null : v * 60));
  }
  flags.push({ code: 'time_unit_assumed', detail: `${input.header} has no unit; plain numbers were read as seconds` });
  return values;
}

/** Whether every step between consecutive readable times (in s) is a whole number of minutes. */
function wholeMinuteSteps(seconds: readonly (number | null)[]): boolean {
  let prev: number | null = null;
  for (const t of seconds) {
    if (t === null) continue;
    if (prev !== null && (t - prev) % 60 !== 0) return false;
    prev = t;
  }
  return true;
}

/** Median of the positive steps between consecutive readable values (0 when there are none). */
function medianStep(values: readonly (number | null)[]): number {
  const steps: number[] = [];
  let prev: number | null = null;
  for (const v of values) {
    if (v === null) continue;
    if (prev !== null && v > prev) steps.push(v - prev);
    prev = v;
  }
  if (steps.length === 0) return 0;
  steps.sort((a, b) => a - b);
  return steps[steps.length >> 1];
}
