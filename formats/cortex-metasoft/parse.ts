/**
 * Reads a MetaSoft Studio export (xlsx, xls or SpreadsheetML) into a Recording. The data table
 * (header row starting `t`, units row starting `h:mm:ss` or `hh:mm:ss.z`) is found and read by the
 * shared table layer, with or without the metadata blocks above it. What is MetaSoft's own: the
 * subject in the label | value rows, the thresholds in the summary table's VT1/VT2 columns, the
 * `W` column that is energy and not load, and the SpreadsheetML container.
 */
import {
  buildRecording,
  excelDayFractionToSeconds,
  gasFlowFactorToMl,
  locateTable,
  normaliseHeader,
  parseClock,
  parseNumber,
  parserError,
  readTable,
  sheetSource,
  type EmbeddedThreshold,
  type FileView,
  type ParserFlag,
  type Recording,
  type Subject,
} from 'cpet-analysis-service/plugin';
import { cortexSheet } from './grid.js';

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
  const layout = locateTable(rows, { from_time_column: true });
  if (!layout) throw parserError("no data table: no row with t, V'O2, V'CO2 or V'E in the first 80 rows", { sheet: sheet.name });
  const table = readTable(sheetSource(sheet), layout);
  const flags: ParserFlag[] = [...table.flags];
  const absent = { ...table.absent };
  // SpreadsheetML ends with </Workbook>; rows read from a file without it may stop early.
  if (file.container === 'text' && !/<\/Workbook>\s*$/.test(file.text() ?? '')) {
    flags.push({ code: 'document_cut_short', detail: 'the XML ends before </Workbook>; the rows up to the cut were read' });
  }
  // MetaSoft's `W` is cumulative energy in kcal: never a work rate.
  const w = table.column((n) => n.header === 'W');
  const wUnit = layout.units_row === null || w < 0 ? '' : String(rows[layout.units_row][w] ?? '').trim();
  if (!table.channels.Load && w >= 0 && !/^w(att)?$/i.test(wUnit)) {
    absent.Load = `no work-rate column; W is in ${wUnit || 'no unit'} (cumulative energy), not watts`;
    flags.push({ code: 'w_column_not_load', detail: `column W (${wUnit}) is energy, not work rate; not read as load` });
  }

  const header = rows.slice(0, layout.header_row);
  return buildRecording({
    format: FORMAT,
    time_s: table.time_s,
    channels: table.channels,
    absent,
    phase_per_row: table.phase_per_row,
    subject: readSubject(header, flags),
    embedded_thresholds: readThresholds(header, flags),
    flags,
  });
}

function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/** The first non-blank cell right of the label (SpreadsheetML merges the label over two columns). */
function valueRightOfLabel(row: unknown[]): unknown {
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
    const value = valueRightOfLabel(row);
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
