/**
 * Reads a MetaSoft Studio export (xlsx or SpreadsheetML) into a Recording: subject from the
 * label | value metadata rows, thresholds from the summary table's VT1/VT2 columns, and the data
 * table found by its units row (first cell `h:mm:ss` or `hh:mm:ss.z`).
 */
import { parserError } from '../../src/errors.js';
import { findColumn, normaliseHeader } from '../../src/formats/columns.js';
import { decideUnit } from '../../src/formats/decide-unit.js';
import type { FileView } from '../../src/formats/file-view.js';
import { buildRecording } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, EmbeddedThreshold, ParserFlag, PhaseName, Recording, Subject } from '../../src/recording/recording.js';
import { excelDayFractionToSeconds, gasFlowFactorToMl, parseClock, parseNumber, scale } from '../../src/recording/units.js';
import { cortexSheet } from './grid.js';
import { headerRow } from './layout.js';

/** MetaSoft column names, German and English, first match wins. `W` (kcal) is deliberately not load. */
const COLUMNS = {
  VO2: ["V'O2", "V'O2 (STPD)", 'VO2'],
  VCO2: ["V'CO2", "V'CO2 (STPD)", 'VCO2'],
  VE: ["V'E", "V'E (BTPS)", 'VE'],
  RF: ['AF', 'BF', 'RR'],
  VT: ['VT', 'VT (BTPS)'],
  PetO2: ['PetO2', 'PETO2'],
  PetCO2: ['PetCO2', 'PETCO2'],
  HR: ['HF', 'HR'],
  Load: ['P', 'WR', 'Last', 'Load'],
  Speed: ['v', 'Geschwindigkeit', 'Speed'],
  Grade: ['Steigung', 'Grade', 'Elevation'],
  RER: ['RER', 'R', 'RQ'],
  SpO2: ['SpO2'],
} as const satisfies Partial<Record<ChannelName, readonly string[]>>;
const PHASE_COLUMN = ['Phase'];

/** Phase labels MetaSoft writes (German and English). */
const PHASES: Readonly<Record<string, PhaseName>> = {
  ruhe: 'rest',
  rest: 'rest',
  'unbelastetes treten': 'warmup',
  'unloaded pedalling': 'warmup',
  erwärmung: 'warmup',
  'warm-up': 'warmup',
  warmup: 'warmup',
  'warm up': 'warmup',
  belastung: 'exercise',
  exercise: 'exercise',
  load: 'exercise',
  erholung: 'recovery',
  recovery: 'recovery',
};

/** Metadata labels in column A (value further right, e.g. `Gewicht | 74,8kg`). */
const SUBJECT_LABELS = {
  sex: ['geschlecht', 'sex', 'gender'],
  age: ['alter', 'age'],
  height: ['größe', 'height', 'körpergröße'],
  weight: ['gewicht', 'weight', 'körpergewicht', 'body mass'],
  birth: ['geburtsdatum', 'date of birth', 'birth date'],
  test: ['startzeit', 'start time', 'testdatum', 'test date'],
} as const;

const FORMAT = 'cortex-metasoft';

/** Reads the file; throws PARSER_ERROR naming the row when the data table cannot be found. */
export function parse(file: FileView): Recording {
  const sheet = cortexSheet(file);
  if (!sheet) throw parserError('the file is neither a workbook nor an Excel 2003 XML spreadsheet');
  const rows = sheet.rows;
  const h = headerRow(rows);
  if (h < 0) throw parserError('no data table: no row starting "t" above a units row starting "h:mm:ss"', { sheet: sheet.name });
  const names = rows[h];
  const units = rows[h + 1];
  const flags: ParserFlag[] = [];
  // SpreadsheetML ends with </Workbook>; rows read from a file without it may stop early.
  if (file.container === 'text' && !/<\/Workbook>\s*$/.test(file.text() ?? '')) {
    flags.push({ code: 'document_cut_short', detail: 'the XML ends before </Workbook>; the rows up to the cut were read' });
  }

  const data: unknown[][] = [];
  for (let r = h + 2; r < rows.length; r++) {
    if (isBlank(rows[r]?.[0])) break;
    data.push(rows[r]);
  }
  if (data.length === 0) throw parserError('no data rows under the units row', { sheet: sheet.name, row: h + 3 });

  const time_s = readTimes(data.map((r) => r[0]), flags);
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  const taken = new Set<number>([0]);
  for (const [name, aliases] of Object.entries(COLUMNS) as [ChannelName, readonly string[]][]) {
    const col = findColumn(names, aliases, taken);
    if (col < 0) continue;
    taken.add(col);
    const raw = data.map((r) => parseNumber(r[col]));
    const decided = decideUnit(name, String(units[col] ?? ''), raw, flags);
    if ('reject' in decided) {
      absent[name] = decided.reject;
      continue;
    }
    channels[name] = { values: scale(raw, decided.factor), unit_in: decided.unit_in };
  }
  const w = findColumn(names, ['W']);
  if (!channels.Load && w >= 0 && !/^w(att)?$/i.test(String(units[w] ?? '').trim())) {
    absent.Load = `no work-rate column; W is in ${String(units[w] ?? 'no unit').trim() || 'no unit'} (cumulative energy), not watts`;
    flags.push({ code: 'w_column_not_load', detail: `column W (${String(units[w] ?? '').trim()}) is energy, not work rate; not read as load` });
  }

  const phaseCol = findColumn(names, PHASE_COLUMN);
  const phase_per_row = phaseCol >= 0 ? data.map((r) => PHASES[normaliseHeader(r[phaseCol])] ?? null) : undefined;

  return buildRecording({
    format: FORMAT,
    time_s,
    channels,
    absent,
    phase_per_row,
    subject: readSubject(rows.slice(0, h), flags),
    embedded_thresholds: readThresholds(rows.slice(0, h), flags),
    flags,
  });
}

function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/** Time is text `0:00:09` (XML) or `00:00:04,8` (xlsx, decimal comma tenths); an Excel time number is a day fraction. */
function readTimes(cells: unknown[], flags: ParserFlag[]): (number | null)[] {
  if (cells.some((c) => typeof c === 'string' && /,\d/.test(c))) flags.push({ code: 'time_decimal_comma', detail: 'time stamps use a decimal comma for tenths of a second (hh:mm:ss,z)' });
  return cells.map((c) => {
    if (typeof c === 'number') return c < 1 ? excelDayFractionToSeconds(c) : c;
    return typeof c === 'string' ? parseClock(c) : null;
  });
}



/** The first non-blank cell right of the label (SpreadsheetML merges the label over two columns). */
function valueOf(row: unknown[]): unknown {
  return row.slice(1, 6).find((c) => !isBlank(c)) ?? null;
}

/**
 * Sex, height, body mass, and age (stated, or whole years from birth date to test date); the
 * names, ids and dates themselves are not kept.
 */
function readSubject(header: unknown[][], flags: ParserFlag[]): Subject {
  const subject: Subject = {};
  let birth: Date | null = null;
  let test: Date | null = null;
  for (const row of header) {
    const label = normaliseHeader(row[0]).replace(/:$/, '');
    const value = valueOf(row);
    if (value === null) continue;
    const is = (k: keyof typeof SUBJECT_LABELS) => (SUBJECT_LABELS[k] as readonly string[]).includes(label);
    if (is('sex')) {
      const s = String(value).trim().toLowerCase();
      subject.sex = /^(m|male|männlich|mann)$/.test(s) ? 'male' : /^(f|w|female|weiblich|frau)$/.test(s) ? 'female' : null;
    } else if (is('age')) subject.age_years = positive(value);
    else if (is('height')) subject.height_cm = positive(value);
    else if (is('weight')) subject.body_mass_kg = positive(value);
    else if (is('birth')) birth = germanDate(value);
    else if (is('test')) test = germanDate(value);
  }
  if (subject.age_years == null && birth && test) {
    let age = test.getUTCFullYear() - birth.getUTCFullYear();
    if (test.getUTCMonth() < birth.getUTCMonth() || (test.getUTCMonth() === birth.getUTCMonth() && test.getUTCDate() < birth.getUTCDate())) age--;
    if (age > 0 && age < 120) {
      subject.age_years = age;
      flags.push({ code: 'age_from_birth_date', detail: 'age computed in whole years from the birth date and the test start date; neither date is kept' });
    }
  }
  return subject;
}

function positive(cell: unknown): number | null {
  const v = parseNumber(cell);
  return v !== null && v > 0 ? v : null;
}

/** `dd.mm.yyyy` (optionally followed by a clock time), as MetaSoft writes dates in German. */
function germanDate(cell: unknown): Date | null {
  const m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(String(cell).trim());
  return m ? new Date(Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]))) : null;
}

/**
 * The summary table `Kanal | Einheit | Ruhe | ... | VT1 | ... | VT2 | ...`: its `t` and `V'O2` rows
 * give each threshold's time and VO2 when the operator set them (`-` when not).
 */
function readThresholds(header: unknown[][], flags: ParserFlag[]): EmbeddedThreshold[] {
  const top = header.findIndex((r) => r.some((c) => normaliseHeader(c) === 'vt1') && r.some((c) => normaliseHeader(c) === 'vt2'));
  if (top < 0) return [];
  const cols = (['VT1', 'VT2'] as const).map((name) => ({ name, col: header[top].findIndex((c) => normaliseHeader(c) === name.toLowerCase()) }));
  const out: EmbeddedThreshold[] = [];
  for (const { name, col } of cols) {
    const entry: EmbeddedThreshold = { name, label: name };
    for (const row of header.slice(top + 1)) {
      if (isBlank(row[0])) break;
      const label = normaliseHeader(row[0]);
      const cell = row[col];
      if (isBlank(cell) || String(cell).trim() === '-') continue;
      if (label === 't') entry.time_s = typeof cell === 'number' ? excelDayFractionToSeconds(cell) : parseClock(String(cell));
      if (label === "v'o2" || label === "v'o2 (stpd)" || label === 'vo2') {
        const v = parseNumber(cell);
        const factor = gasFlowFactorToMl(String(row[1] ?? ''));
        if (factor === null) flags.push({ code: 'threshold_unit_unknown', detail: `${name} V'O2 has no recognised unit; read as L/min` });
        entry.vo2_ml_min = v === null ? null : v * (factor ?? 1000);
      }
    }
    if (entry.time_s != null || entry.vo2_ml_min != null) out.push(entry);
  }
  return out;
}
