/**
 * Reads a COSMED Omnia or PFT Suite export into a Recording. The data table (row 1 names, row 2
 * units, data under them) is read by the shared table layer, from a workbook beside the metadata
 * block or from a data-table-only CSV or workbook. What is COSMED's own: the subject in the
 * metadata block, the barometric pressure, the thresholds on Omnia's results sheet, and the zeros it
 * writes for an oximeter or ergometer that is not connected.
 */
import {
  buildRecording,
  excelDayFractionToSeconds,
  gasFlowFactorToMl,
  normaliseHeader,
  parseClock,
  parseNumber,
  parserError,
  readTable,
  type ChannelData,
  type ChannelName,
  type EmbeddedThreshold,
  type FileView,
  type ParserFlag,
  type Recording,
  type Sheet,
  type Subject,
} from 'cpet-analysis-service/plugin';
import { findCosmedTable, METADATA_COLUMNS, metadataLabel } from './sheet-layout.js';

/** Metadata labels (column A, D or G, value to the right) for the subject fields kept: German, English, Italian. */
const SUBJECT_LABELS = {
  sex: ['geschlecht', 'sex', 'gender', 'sesso'],
  age_years: ['alter', 'age', 'età'],
  height_cm: ['größe (cm)', 'height (cm)', 'height', 'altezza (cm)'],
  body_mass_kg: ['gewicht (kg)', 'weight (kg)', 'weight', 'peso (kg)'],
  barometric_mmhg: ['barometrischer druck (mmhg)', 'barometric press. (mmhg)', 'barometric pressure (mmhg)', 'pressione barometrica (mmhg)'],
} as const;

/** Threshold column names in the Omnia results sheet: German VT1/VT2, English and Italian AT/RC. */
const THRESHOLD_COLUMNS: readonly [string, 'VT1' | 'VT2'][] = [
  ['VT1', 'VT1'],
  ['AT', 'VT1'],
  ['VT2', 'VT2'],
  ['RC', 'VT2'],
];
/** The first cell of a results table's header row: `Parameter` (German, English), `Parametro` (Italian). */
const RESULTS_HEADER = new Set(['parameter', 'parametro']);

const FORMAT = 'cosmed-xlsx';

/** Reads the export; throws PARSER_ERROR naming sheet, row and column where it cannot. */
export function parse(file: FileView): Recording {
  const found = findCosmedTable(file);
  if (!found) throw parserError('no data table headed "t" with VO2/VCO2/VE in the first rows', file.sheets()?.[0] ? { sheet: file.sheets()?.[0]?.name, row: 1 } : { line: 1 });
  const metadata = found.layout.first_column >= METADATA_COLUMNS - 1 ? readMetadata(found.rows) : { subject: {}, barometric_mmhg: null };
  const table = readTable(found.source, found.layout, { barometric_mmhg: metadata.barometric_mmhg });
  const flags: ParserFlag[] = [...table.flags];
  const channels: Partial<Record<ChannelName, ChannelData>> = { ...table.channels };
  const absent = { ...table.absent };
  for (const name of ['SpO2', 'Load'] as const) {
    const reason = implausibleZeros(name, channels[name], flags);
    if (reason) {
      delete channels[name];
      absent[name] = reason;
    }
  }
  const others = file.sheets()?.filter((s) => s !== found.sheet) ?? [];
  return buildRecording({
    format: FORMAT,
    time_s: table.time_s,
    channels,
    absent,
    phase_per_row: table.phase_per_row,
    subject: metadata.subject,
    embedded_thresholds: readThresholds(others, flags),
    flags,
  });
}

function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/**
 * SpO2 of 0 % and a load of 0 W for a whole test are what COSMED writes when no oximeter or
 * ergometer is connected: absent, not measured zeros. Single zero SpO2 readings become missing.
 */
function implausibleZeros(name: 'SpO2' | 'Load', data: ChannelData | undefined, flags: ParserFlag[]): string | null {
  if (!data) return null;
  const values = data.values;
  const finite = values.filter((v): v is number => v !== null);
  if (finite.length > 0 && finite.every((v) => v === 0)) {
    flags.push({ code: 'zero_column_absent', detail: `${name} reads 0 in every row; read as not connected` });
    return 'column present in the file but reading zero throughout (not recorded)';
  }
  if (name === 'SpO2') for (let i = 0; i < values.length; i++) if (values[i] === 0) values[i] = null;
  return null;
}

/** Sex, age, height, body mass and barometric pressure from the label/value pairs in columns A-H; names, ids and dates are not read. */
function readMetadata(rows: readonly (readonly unknown[])[]): { subject: Subject; barometric_mmhg: number | null } {
  const subject: Subject = {};
  let barometric_mmhg: number | null = null;
  const is = (k: keyof typeof SUBJECT_LABELS, label: string) => (SUBJECT_LABELS[k] as readonly string[]).includes(label);
  for (const row of rows.slice(0, 40)) {
    for (let c = 0; c < METADATA_COLUMNS; c++) {
      const label = metadataLabel(row[c]);
      if (!label) continue;
      const value = [row[c + 1], row[c + 2]].find((v) => !isBlank(v)) ?? null;
      if (value === null) continue;
      if (is('sex', label)) {
        const s = String(value).trim().toLowerCase();
        subject.sex = /^(m|male|männlich|mann|maschio)$/.test(s) ? 'male' : /^(f|w|female|weiblich|frau|femmina)$/.test(s) ? 'female' : null;
      } else if (is('age_years', label)) subject.age_years = positive(value);
      else if (is('height_cm', label)) subject.height_cm = positive(value);
      else if (is('body_mass_kg', label)) subject.body_mass_kg = positive(value);
      else if (is('barometric_mmhg', label)) barometric_mmhg = positive(value);
    }
  }
  return { subject, barometric_mmhg };
}

function positive(cell: unknown): number | null {
  const v = parseNumber(cell);
  return v !== null && v > 0 ? v : null;
}

/**
 * Omnia's results sheet has tables headed `Parameter | Einheit | ... | VT1 | VT2 | Max` (English:
 * AT, RC); the `t` and `VO2` rows under them give each threshold's time and VO2 when filled.
 */
function readThresholds(others: Sheet[], flags: ParserFlag[]): EmbeddedThreshold[] {
  const found = new Map<string, EmbeddedThreshold>();
  for (const sheet of others) {
    let columns: { col: number; label: string; name: 'VT1' | 'VT2' }[] = [];
    sheet.rows.forEach((row, r) => {
      const first = normaliseHeader(row[0]);
      if (RESULTS_HEADER.has(first)) {
        columns = [];
        for (const [label, name] of THRESHOLD_COLUMNS) {
          const col = row.findIndex((c) => normaliseHeader(c) === label.toLowerCase());
          if (col >= 0) columns.push({ col, label, name });
        }
        return;
      }
      if (first !== 't' && first !== 'vo2') return;
      for (const { col, label, name } of columns) {
        const cell = row[col];
        if (isBlank(cell)) continue;
        const entry = found.get(label) ?? { name, label };
        if (first === 't') {
          entry.time_s = typeof cell === 'number' ? (cell < 1 ? excelDayFractionToSeconds(cell) : cell) : parseClock(String(cell));
        } else {
          const factor = gasFlowFactorToMl(String(row[1] ?? ''));
          const v = parseNumber(cell);
          if (factor === null) flags.push({ code: 'threshold_unit_unknown', detail: `${label} VO2 in ${sheet.name} row ${r + 1} has no recognised unit; read as mL/min` });
          entry.vo2_ml_min = v === null ? null : v * (factor ?? 1);
        }
        found.set(label, entry);
      }
    });
  }
  return [...found.values()];
}
