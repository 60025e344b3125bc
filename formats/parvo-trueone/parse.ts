/**
 * Reads a TrueOne 2400 export (CSV or workbook) into a Recording: header block (subject), the
 * four-line column header between "==========" and "----------", data rows, then the trailer
 * ("Max VO2", slopes, "Events", "Summary").
 */
import { parserError } from '../../src/errors.js';
import { findAllColumns, findColumn } from '../../src/formats/columns.js';
import { decideUnit } from '../../src/formats/decide-unit.js';
import type { FileView } from '../../src/formats/file-view.js';
import { buildRecording, median } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, ParserFlag, PhaseName, Recording, SamplingMethod, Subject } from '../../src/recording/recording.js';
import { decimalMinutesToSeconds, normaliseUnit, parseClock, parseNumber, scale } from '../../src/recording/units.js';
import { cellText, parvoGrid } from './grid.js';

/** Column names as TrueOne writes them (line 2 of the column header), first match wins. */
const COLUMNS = {
  VO2: ['VO2'],
  VCO2: ['VCO2'],
  VE: ['VE'],
  RF: ['RR'],
  VT: ['Vt'],
  PetO2: ['PetO2'],
  PetCO2: ['PetCO2'],
  HR: ['HR'],
  Load: ['WorkR', 'Work', 'WR'],
  Speed: ['Speed'],
  Grade: ['Grade'],
  RER: ['RER'],
  SpO2: ['SpO2'],
} as const satisfies Partial<Record<ChannelName, readonly string[]>>;
const TIME_COLUMN = ['TIME'];
const BREATH_COLUMN = ['Breath#'];

/** Event labels that start a phase; every other event label (RPE, cadence, stage names) is dropped. */
const EVENT_PHASES: readonly [RegExp, PhaseName][] = [
  [/^warm ?up$/i, 'warmup'],
  [/^start exercise$/i, 'exercise'],
  [/^(stop exercise|start recovery|recovery|cool ?down)$/i, 'recovery'],
  [/^(start )?rest$/i, 'rest'],
];

const FORMAT = 'parvo-trueone';

/** Reads the file; throws PARSER_ERROR naming the row when the column header or data cannot be found. */
export function parse(file: FileView): Recording {
  const rows = parvoGrid(file);
  const sheet = file.container === 'text' ? undefined : file.sheets()?.[0]?.name;
  if (!rows) throw parserError('the file is neither text nor a workbook');
  const first = rows.map((r) => cellText(r[0]));
  const open = first.indexOf('==========');
  if (open < 0) throw parserError('no "==========" line opening the column header', { sheet });
  if (first[open + 5] !== '----------') throw parserError('the column header is not closed by "----------" four lines later', { sheet, row: open + 6 });
  const names = (rows[open + 2] ?? []).map(cellText);
  const qualifiers = (rows[open + 3] ?? []).map(cellText);
  const units = (rows[open + 4] ?? []).map(cellText);
  const flags: ParserFlag[] = [];

  const timeCol = findColumn(names, TIME_COLUMN);
  if (timeCol < 0) throw parserError('no TIME column in the column header', { sheet, row: open + 3 });

  // Data rows run from after "----------" to the first empty row.
  const data: unknown[][] = [];
  let cut = 0;
  for (let r = open + 6; r < rows.length; r++) {
    const row = rows[r];
    if (row.every((c) => cellText(c) === '')) break;
    if (row.filter((c) => cellText(c) !== '').length < names.filter((n) => n !== '').length) {
      cut++;
      continue;
    }
    data.push(row);
  }
  if (cut > 0) flags.push({ code: 'short_rows_dropped', detail: `${cut} data rows had fewer cells than the header (a cut-off file) and were dropped` });
  if (data.length === 0) throw parserError('no data rows after the column header', { sheet, row: open + 7 });

  const time_s = data.map((row) => readTime(row[timeCol], units[timeCol], flags));
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  const taken = new Set<number>([timeCol]);
  for (const [name, aliases] of Object.entries(COLUMNS) as [ChannelName, readonly string[]][]) {
    const col = name === 'VE' ? pickVe(names, qualifiers) : findColumn(names, aliases, taken);
    if (col < 0) continue;
    taken.add(col);
    const raw = data.map((row) => parseNumber(row[col]));
    const decided = decideUnit(name, units[col], raw, flags);
    if ('reject' in decided) {
      absent[name] = decided.reject;
      continue;
    }
    let values = scale(raw, decided.factor);
    if (name === 'VE' && qualifiers[col] === 'STPD') values = veToBtps(rows.slice(0, open), values, flags);
    channels[name] = { values, unit_in: decided.unit_in };
  }

  const trailer = rows.slice(open + 6 + data.length + cut);
  if (!trailer.some((r) => cellText(r[0]) === 'Summary')) {
    flags.push({ code: 'trailer_missing', detail: 'the file ends before its "Summary" line; it may be cut short' });
  }
  return buildRecording({
    format: FORMAT,
    time_s,
    channels,
    absent,
    phase_starts: readEvents(trailer, flags),
    sampling_hint: samplingHint(names, data, time_s, flags),
    subject: readSubject(rows.slice(0, open), flags),
    embedded_thresholds: [],
    flags,
  });
}

/** TIME is decimal minutes in the CSV (0.301131) and m:ss text in the workbook (' 0:31'). */
function readTime(cell: unknown, unit: string, flags: ParserFlag[]): number | null {
  if (typeof cell === 'string' && cell.includes(':')) {
    if (!flags.some((f) => f.code === 'time_text_m_ss')) flags.push({ code: 'time_text_m_ss', detail: 'TIME is written as m:ss text although the unit row says min; read as minutes:seconds' });
    return parseClock(cell);
  }
  const v = parseNumber(cell);
  if (v === null) return null;
  return normaliseUnit(unit).startsWith('s') ? v : decimalMinutesToSeconds(v);
}

/** Of the columns named VE, the BTPS one (canonical VE is BTPS); else the first. */
function pickVe(names: string[], qualifiers: string[]): number {
  const all = findAllColumns(names, 'VE');
  return all.find((i) => qualifiers[i] === 'BTPS') ?? all[0] ?? -1;
}



/** VE written STPD is brought to BTPS with the file's own "STPD to BTPS" factor (header block). */
function veToBtps(header: unknown[][], values: (number | null)[], flags: ParserFlag[]): (number | null)[] {
  for (const row of header) {
    const i = row.findIndex((c) => cellText(c) === 'STPD to BTPS');
    const factor = i >= 0 ? parseNumber(row[i + 1]) : null;
    if (factor !== null && factor > 1 && factor < 1.5) {
      flags.push({ code: 've_stpd_to_btps', detail: `VE is written STPD; converted to BTPS with the file's STPD to BTPS factor ${factor}` });
      return scale(values, factor);
    }
  }
  flags.push({ code: 've_stpd_kept', detail: 'VE is written STPD and the file states no STPD to BTPS factor; kept as written' });
  return values;
}

/** Binned exports count breaths cumulatively in Breath# (4, 8, 11 ...); breath by breath counts 1, 2, 3. */
function samplingHint(names: string[], data: unknown[][], time_s: (number | null)[], flags: ParserFlag[]): { method: SamplingMethod; averaging_s: number | null } | undefined {
  const col = findColumn(names, BREATH_COLUMN);
  if (col < 0) return undefined;
  const breaths = data.map((row) => parseNumber(row[col]));
  const steps: number[] = [];
  for (let i = 1; i < breaths.length; i++) {
    const a = breaths[i - 1];
    const b = breaths[i];
    if (a !== null && b !== null) steps.push(b - a);
  }
  if (steps.length === 0) return undefined;
  if (steps.every((s) => s === 1)) return { method: 'breath_by_breath', averaging_s: null };
  const dts: number[] = [];
  for (let i = 1; i < time_s.length; i++) {
    const a = time_s[i - 1];
    const b = time_s[i];
    if (a !== null && b !== null && b > a) dts.push(b - a);
  }
  const bin = Math.round(median(dts));
  flags.push({ code: 'averaging_window_inferred', detail: `Breath# counts several breaths per row, so rows are bins; the file does not state the bin width, ${bin} s is the median interval` });
  return { method: 'averaged', averaging_s: Number.isFinite(bin) ? bin : null };
}

/** Phase starts from the Events block (`4.000000, "Start Exercise"`, time in minutes); other labels are dropped. */
function readEvents(trailer: unknown[][], flags: ParserFlag[]): { phase: PhaseName; t_s: number }[] {
  const start = trailer.findIndex((r) => cellText(r[0]) === 'Events');
  if (start < 0) {
    flags.push({ code: 'no_events_block', detail: 'no Events block after the data (the file may be cut short); no phases stated' });
    return [];
  }
  const out: { phase: PhaseName; t_s: number }[] = [];
  for (let r = start + 1; r < trailer.length; r++) {
    const minutes = parseNumber(trailer[r][0]);
    if (minutes === null) break;
    const label = cellText(trailer[r][1]);
    const match = EVENT_PHASES.find(([re]) => re.test(label));
    if (match) out.push({ phase: match[1], t_s: decimalMinutesToSeconds(minutes) });
  }
  if (trailer.some((r) => /^stop exercise$/i.test(cellText(r[1])))) flags.push({ code: 'stop_exercise_as_recovery', detail: 'a "Stop Exercise" event is read as the start of a recovery phase' });
  return out;
}

/** Age, sex, height (cm) and weight (kg) from the header block; the name, file number and date are not read. */
function readSubject(header: unknown[][], flags: ParserFlag[]): Subject {
  const subject: Subject = {};
  for (const row of header) {
    const cells = row.map(cellText);
    const label = cells[0];
    if (label === 'Age') {
      const age = parseNumber(row[1]);
      if (age !== null && age > 0) subject.age_years = age;
      else if (age === 0) flags.push({ code: 'age_zero_ignored', detail: 'Age is 0 in the header (not entered); age left unknown' });
      const sex = cells[cells.indexOf('Sex') + 1]?.toUpperCase();
      if (cells.includes('Sex') && sex) subject.sex = sex.startsWith('M') ? 'male' : sex.startsWith('F') ? 'female' : null;
    }
    if (label === 'Height') {
      const cm = cells.indexOf('cm');
      if (cm > 0) subject.height_cm = round(parseNumber(row[cm - 1]), 1);
      const kg = cells.indexOf('kg');
      if (kg > 0) subject.body_mass_kg = round(parseNumber(row[kg - 1]), 2);
    }
  }
  return subject;
}

function round(v: number | null, digits: number): number | null {
  if (v === null) return null;
  const p = 10 ** digits;
  return Math.round(v * p) / p;
}
