import {
  buildRecording,
  findColumn,
  inferGasFlowFactor,
  parseNumber,
  parserError,
  scale,
  type ChannelData,
  type ChannelName,
  type FileView,
  type ParserFlag,
  type PhaseName,
  type Recording,
  type Subject,
} from 'cpet-analysis-service/plugin';
import { commaCounter, type CommaCounter } from './commas.js';

/**
 * Parameter names (the third field of `P=<id>,<divisor>,<name>`), first match wins. All from the
 * one real file, which is German; ZAN's parameter names are not translated in that file.
 */
export const COLUMNS = {
  time: ['Zeit'],
  Load: ['Last'],
  tex: ['tex'],
  Vin: ['Vin'],
  tin: ['tin'],
  VO2: ['VO2'],
  VCO2: ['VCO2'],
  HR: ['HR'],
  Speed: ['Geschw.'],
  Grade: ['Steig.'],
  SpO2: ['O2sat'],
} as const;

const FORMAT_ID = 'zan-dat';
/** Decimal digits of an integer a double always holds exactly (below 2^53). */
const EXACT_DIGITS = 15;
/** `[Start]` keys (seconds from the start) and the phase each one opens. */
const PHASE_KEYS: Record<string, PhaseName> = { Rest: 'rest', Warmup: 'warmup', Load: 'exercise', Recovery: 'recovery' };

/** A `[name]` section: its lines are lines[from, to) of the file (indexes, so no object per line). */
interface Section {
  name: string;
  line: number;
  from: number;
  to: number;
}

/** Reads a ZAN .dat export into a Recording. */
export function parse(file: FileView): Recording {
  const flags: ParserFlag[] = [];
  const lines = file.lines();
  const sections = splitSections(lines);
  const first = (name: string) => sections.find((s) => s.name.toLowerCase() === name.toLowerCase() && lines.slice(s.from, s.to).some((l) => l.trim() !== ''));

  // 1. [parameter]: one `P=<id>,<divisor>,<name>` per column, in data order.
  const params = first('parameter');
  if (!params) throw parserError('no [parameter] section', { line: 1 });
  const names: string[] = [];
  const divisors: number[] = [];
  for (let i = params.from; i < params.to; i++) {
    const line = i + 1;
    const m = /^P=(\d+),([^,]+),(.*)$/.exec(lines[i].trim());
    if (!m) continue;
    const divisor = parseNumber(m[2]);
    if (!divisor) throw parserError(`parameter ${m[3]} has divisor "${m[2]}"`, { line });
    names.push(m[3].trim());
    divisors.push(divisor);
  }
  if (names.length === 0) throw parserError('the [parameter] section defines no column', { line: params.line });

  // 2. [Data]: `B<n>=1,<v1>,<v2>,...`; the constant 1 after `=` is skipped. Only the columns the
  //    reader uses are converted (about 11 of 98), in one pass over each row's fields.
  // Each alias list is looked up several times; findColumn normalises all 98 names on every call.
  const found = new Map<readonly string[], number>();
  const col = (aliases: readonly string[]) => {
    let at = found.get(aliases);
    if (at === undefined) {
      at = findColumn(names, aliases);
      found.set(aliases, at);
    }
    return at;
  };
  const used = new Map<number, (number | null)[]>();
  const byField: UsedColumns['byField'] = [];
  for (const aliases of Object.values(COLUMNS)) {
    const at = col(aliases);
    if (at < 0 || used.has(at)) continue;
    const values: (number | null)[] = [];
    byField[at + 1] = values;
    used.set(at, values);
  }
  const text = file.text() as string;
  const columns: UsedColumns = { byValue: used, byField, zeros: undefined, commas: commaCounter(file, text) };
  const rows: DataRows = { values: [], line: [] };
  const skipped: number[] = [];
  const starts = lineStarts(text, lines);
  for (const section of sections.filter((s) => s.name.toLowerCase() === 'data')) {
    for (let i = section.from; i < section.to; i++) {
      const from = starts[i];
      const end = from + lines[i].length;
      if (!isBreathRow(text, from, end)) {
        if (lines[i].trim() !== '') skipped.push(i + 1);
        continue;
      }
      rows.values.push(readRow(text, from, end, columns, divisors));
      rows.line.push(i + 1);
    }
  }
  if (skipped.length > 0) flags.push({ code: 'non_breath_rows_skipped', detail: `${skipped.length} lines in [Data] are not B<n>= breath rows and were skipped (first at line ${skipped[0]})` });
  if (rows.values.length === 0) throw parserError('no B<n>= breath rows in [Data]', { line: first('data')?.line ?? 1 });
  const column = (at: number): (number | null)[] => used.get(at) as (number | null)[];
  const timeAt = col(COLUMNS.time);
  if (timeAt < 0) throw parserError('no Zeit (time) parameter', { line: params.line });
  dropTruncatedLastRow(rows, used, timeAt, flags);

  // 3. spiro trims every row after the one with the largest time; rows after it are a corrupt tail.
  const times = column(timeAt);
  let maxAt = 0;
  const count = rows.values.length;
  for (let i = 0; i < count; i++) {
    if ((times[i] ?? -Infinity) >= (times[maxAt] ?? -Infinity)) maxAt = i;
  }
  if (maxAt < count - 1) {
    flags.push({ code: 'rows_after_max_time_dropped', detail: `${count - 1 - maxAt} rows after the latest time (line ${rows.line[maxAt]}) were dropped, as spiro does` });
  }
  const kept = maxAt + 1;

  const read = (aliases: readonly string[]) => {
    const at = col(aliases);
    return at < 0 ? null : column(at).slice(0, kept);
  };
  const { channels, absent } = toCanonical(read, flags);
  return buildRecording({
    format: FORMAT_ID,
    time_s: times.slice(0, kept),
    channels,
    absent,
    phase_starts: phaseStarts(lines, first('Start')),
    sampling_hint: { method: 'breath_by_breath' },
    subject: subject(lines, first('person')),
    flags,
  });
}

/** Splits INI text into `[name]` sections, keeping 1-based line numbers. */
function splitSections(lines: string[]): Section[] {
  const sections: Section[] = [];
  lines.forEach((text, i) => {
    const m = /^\s*\[([^\]]+)\]\s*$/.exec(text);
    if (!m) return;
    if (sections.length > 0) sections[sections.length - 1].to = i;
    sections.push({ name: m[1], line: i + 1, from: i + 1, to: lines.length });
  });
  return sections;
}

/** Per breath row, in parallel arrays (no object per row): how many values it holds (fields after the constant), and its line. */
interface DataRows {
  values: number[];
  line: number[];
}

/**
 * A breath row starts `B<n>=` (`BeginRest=` in `[Start]` also starts with B and is not one); tested
 * by its characters, as a regex test per row costs more than reading the row's used fields.
 */
function isBreathRow(text: string, from: number, end: number): boolean {
  if (from >= end || text.charCodeAt(from) !== 66) return false;
  let i = from + 1;
  while (i < end && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
  return i > from + 1 && i < end && text.charCodeAt(i) === 61;
}

/**
 * Where each line starts in the text. lines() is the text split at CRLF, LF or CR (CR then LF being
 * one break), so the breath rows can be scanned in the flat text, where charCodeAt is faster than in
 * the line strings, which are slices of it.
 */
function lineStarts(text: string, lines: string[]): number[] {
  const starts = new Array<number>(lines.length);
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    starts[i] = at;
    at += lines[i].length;
    at += text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? 2 : 1;
  }
  return starts;
}

/** The columns the reader uses: by value index, and the same arrays by field index (value + 1) for the row scan. */
interface UsedColumns {
  byValue: Map<number, (number | null)[]>;
  byField: ((number | null)[] | undefined)[];
  /** The `,0,0,...` that ends the first row past the used fields: rows ending the same way skip counting it. */
  zeros: string | undefined;
  /** Counts the commas past the used fields (commas.ts). */
  commas: CommaCounter;
}

/**
 * Reads the used columns of one breath row, text[from, n) (value i is field i + 1 after `=`, past the constant)
 * into their arrays, null where the row is too short; returns how many values the row holds. Fields
 * are one to five characters, so commas are found by a character loop (an indexOf call per field
 * costs more than the field), and past the last used field they are only counted (commas.ts): the trailing
 * zeros ZAN writes for unused channels are recognised whole, two characters a field.
 */
function readRow(text: string, from: number, n: number, columns: UsedColumns, divisors: number[]): number {
  const lastUsed = columns.byField.length - 1;
  let field = 0;
  let start = text.indexOf('=', from) + 1;
  for (; field <= lastUsed; field++) {
    const values = columns.byField[field];
    const comma = values ? pushField(text, start, n, divisors[field - 1], values) : commaAt(text, start, n);
    if (comma >= n) break;
    start = comma + 1;
  }
  if (field > lastUsed) {
    columns.zeros ??= zeroFields(text, start, n);
    let stop = n;
    if (columns.zeros.length > 0 && n - columns.zeros.length >= start && text.endsWith(columns.zeros, n)) {
      stop = n - columns.zeros.length;
      field += columns.zeros.length / 2;
    }
    return field + columns.commas(start, stop);
  }
  // A row that ends before the last used field: the used columns it lacks get null.
  for (const [at, values] of columns.byValue) if (at >= field) values.push(null);
  return field;
}

/** The first comma at or after `from`, or `n` (a loop of its own, so it is compiled soon and alone). */
function commaAt(text: string, from: number, n: number): number {
  let i = from;
  while (i < n && text.charCodeAt(i) !== 44) i++;
  return i;
}

/** The run of `,0` fields that ends text[from, end) ('' when it ends otherwise). */
function zeroFields(text: string, from: number, end: number): string {
  let k = end;
  while (k - 2 >= from && text.charCodeAt(k - 2) === 44 && text.charCodeAt(k - 1) === 48) k -= 2;
  return text.slice(k, end);
}

/**
 * Pushes field text[start, comma) divided by its divisor onto values, exactly as `parseNumber` of the
 * field would read it, and returns the comma (n past the last field). ZAN writes integers, so an
 * optional minus and at most 15 digits are read in place (exact in a double, hence what `Number()`
 * gives); anything else is cut out and read by `parseNumber`.
 */
export function pushField(text: string, start: number, n: number, divisor: number, values: (number | null)[]): number {
  let i = start;
  let c = text.charCodeAt(i);
  const negative = i < n && c === 45;
  if (negative) c = text.charCodeAt(++i);
  const first = i;
  let value = 0;
  while (i < n && c >= 48 && c <= 57) {
    value = value * 10 + (c - 48);
    c = text.charCodeAt(++i);
  }
  if ((i >= n || c === 44) && i > first && i - first <= EXACT_DIGITS) {
    values.push((negative ? -value : value) / divisor);
    return i;
  }
  const comma = commaAt(text, i, n);
  const v = parseNumber(text.slice(start, comma));
  values.push(v === null ? null : v / divisor);
  return comma;
}

/** A last row shorter than the usual one (the file was cut) is dropped with a flag. */
function dropTruncatedLastRow(rows: DataRows, used: Map<number, (number | null)[]>, timeAt: number, flags: ParserFlag[]): void {
  const counts = new Map<number, number>();
  for (const v of rows.values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const usual = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const at = rows.values.length - 1;
  const last = { values: rows.values[at], line: rows.line[at] };
  if (last.values < usual || (timeAt < last.values && used.get(timeAt)![at] === null)) {
    flags.push({ code: 'truncated_row_dropped', detail: `the last breath row (line ${last.line}) has ${last.values} of ${usual} fields; the file looks cut short and that row was dropped` });
    rows.values.pop();
    rows.line.pop();
    for (const values of used.values()) values.pop();
  }
}

/**
 * The one function that decides units. ZAN gives divisors but no units; after the divisor the
 * documented units are: Zeit s, Vin L, tin/tex s, VO2/VCO2 L/min (told from mL/min by magnitude),
 * Geschw. km/h (stored as m/h), Steig. %, HR 1/min, Last W. VE, RF and VT are derived as spiro
 * does: RF = 60/(tin+tex), VT = Vin, VE = 60 Vin/(tin+tex).
 */
function toCanonical(
  read: (aliases: readonly string[]) => (number | null)[] | null,
  flags: ParserFlag[],
): { channels: Partial<Record<ChannelName, ChannelData>>; absent: Partial<Record<ChannelName, string>> } {
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {
    PetO2: 'ZAN exports no end-tidal pressures (FO2et/FCO2et have no documented meaning)',
    PetCO2: 'ZAN exports no end-tidal pressures (FO2et/FCO2et have no documented meaning)',
    RER: 'not in the export (computed downstream from VO2 and VCO2 when needed)',
  };
  for (const name of ['VO2', 'VCO2'] as const) {
    const values = read(COLUMNS[name]);
    if (!values) continue;
    const guess = inferGasFlowFactor(values);
    if (!guess) throw parserError(`${name} magnitude tells neither L/min nor mL/min`, { column: name });
    channels[name] = { values: scale(values, guess.factor), unit_in: guess.inferred };
  }
  if (channels.VO2) flags.push({ code: 'unit_inferred', detail: `ZAN states divisors but no units; VO2/VCO2 read as ${channels.VO2.unit_in} after the divisor from their magnitude` });

  const vin = read(COLUMNS.Vin);
  const tin = read(COLUMNS.tin);
  const tex = read(COLUMNS.tex);
  if (vin && tin && tex) {
    const ttot = tin.map((t, i) => (t !== null && tex[i] !== null && t + (tex[i] as number) > 0 ? t + (tex[i] as number) : null));
    channels.VT = { values: vin, unit_in: 'mL (Vin, divided by 1000 to L)' };
    channels.RF = { values: ttot.map((t) => (t === null ? null : 60 / t)), unit_in: 'derived 60/(tin+tex)' };
    channels.VE = { values: vin.map((v, i) => (v === null || ttot[i] === null ? null : (60 * v) / (ttot[i] as number))), unit_in: 'derived 60 Vin/(tin+tex)' };
    flags.push({ code: 'derived_channels', detail: 'VE, RF and VT derived from Vin, tin and tex (the export has no VE or breathing frequency)' });
  }
  const hr = read(COLUMNS.HR);
  if (hr) channels.HR = { values: hr, unit_in: '1/min' };

  // Zero throughout in an optional column means "not recorded" (a cycle test has no speed).
  const optional = (name: ChannelName, aliases: readonly string[], unit: string) => {
    const values = read(aliases);
    if (!values) return;
    if (values.every((v) => v === null || v === 0)) absent[name] = 'column present in the file but reading zero throughout (not recorded)';
    else channels[name] = { values, unit_in: unit };
  };
  optional('Speed', COLUMNS.Speed, 'm/h (divisor 1000)');
  optional('Grade', COLUMNS.Grade, '% x10 (divisor 10)');
  optional('SpO2', COLUMNS.SpO2, '%');
  optional('Load', COLUMNS.Load, 'W');
  if (channels.Speed && channels.Load) {
    // On the treadmill Last is not measured: it moves in step with Geschw. (87 W at 7.2 km/h,
    // 277 W at 18.7 km/h in the real file), so it is the cart's estimate, never a mechanical power.
    delete channels.Load;
    absent.Load = "treadmill test: the cart's Last (W) is an estimate from speed, not a measured power";
    flags.push({ code: 'load_not_measured', detail: 'Last (W) is non-zero on a treadmill test (Geschw. recorded); it was not used as Load' });
  }
  return { channels, absent };
}

/** `[Start]` phase starts in seconds (`Rest=0`, `Warmup=59`, `Load=59`, `Recovery=3002`); `BeginRest` is a wall clock and skipped. */
function phaseStarts(lines: string[], section: Section | undefined): { phase: PhaseName; t_s: number }[] | undefined {
  if (!section) return undefined;
  const starts: { phase: PhaseName; t_s: number }[] = [];
  for (const text of lines.slice(section.from, section.to)) {
    const m = /^\s*(\w+)\s*=\s*(.*)$/.exec(text);
    if (!m || !(m[1] in PHASE_KEYS)) continue;
    const t = parseNumber(m[2]);
    if (t !== null) starts.push({ phase: PHASE_KEYS[m[1]], t_s: t });
  }
  return starts.length ? starts : undefined;
}

/** `[person]`: keeps sex, height and body mass; name, vorname, geburtstag and idnr are not read. */
function subject(lines: string[], section: Section | undefined): Subject {
  const out: Subject = {};
  if (!section) return out;
  for (const text of lines.slice(section.from, section.to)) {
    const m = /^\s*(\w+)\s*=\s*(.*)$/.exec(text);
    if (!m) continue;
    const value = m[2].trim();
    if (m[1] === 'geschlecht') out.sex = /^m/i.test(value) ? 'male' : /^[wf]/i.test(value) ? 'female' : null;
    if (m[1] === 'groesse') out.height_cm = parseNumber(value);
    if (m[1] === 'gewicht') out.body_mass_kg = parseNumber(value);
  }
  return out;
}
