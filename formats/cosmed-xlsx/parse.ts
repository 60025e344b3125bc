/**
 * Reads a COSMED Omnia or PFT Suite workbook into a Recording: data table from the `t` column
 * (row 1 names, row 2 units, data from row 4), subject from the metadata block in columns A-H,
 * thresholds from the Omnia Results sheet.
 */
import { parserError } from '../../src/errors.js';
import { findColumn, normaliseHeader } from '../../src/formats/columns.js';
import { decideUnit } from '../../src/formats/decide-unit.js';
import type { FileView, Sheet } from '../../src/formats/file-view.js';
import { buildRecording } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, EmbeddedThreshold, ParserFlag, PhaseName, Recording, Subject } from '../../src/recording/recording.js';
import { excelDayFractionToSeconds, gasFlowFactorToMl, parseClock, parseNumber, scale } from '../../src/recording/units.js';
import { METADATA_COLUMNS, metadataLabel, timeColumn } from './sheet-layout.js';

/** COSMED column names, Omnia German and English and PFT Suite, first match wins. */
const COLUMNS = {
  VO2: ['VO2'],
  VCO2: ['VCO2'],
  VE: ['VE'],
  RF: ['Rf', 'Af', 'BF'],
  VT: ['VT'],
  // End-tidal: PFT Suite and Omnia English write PetO2/PetCO2, Omnia German PeO2/PeCO2. Never P(a-et)CO2.
  PetO2: ['PetO2', 'PeO2'],
  PetCO2: ['PetCO2', 'PeCO2'],
  HR: ['HR', 'HF', 'FC'],
  Load: ['Power', 'Load1', 'Load', 'Leistung'],
  Speed: ['Speed', 'Geschwindigkeit'],
  Grade: ['Grade', 'Steigung'],
  RER: ['R', 'RQ', 'RER'],
  SpO2: ['SpO2'],
} as const satisfies Partial<Record<ChannelName, readonly string[]>>;
const PHASE_COLUMN = ['Phase'];

/** Phase labels as COSMED writes them (`WARMUP`, `EXERCISE`, also in German exports). */
const PHASES: Readonly<Record<string, PhaseName>> = {
  rest: 'rest',
  ruhe: 'rest',
  baseline: 'rest',
  warmup: 'warmup',
  'warm up': 'warmup',
  'warm-up': 'warmup',
  aufwärmen: 'warmup',
  exercise: 'exercise',
  belastung: 'exercise',
  recovery: 'recovery',
  erholung: 'recovery',
};

/** Metadata labels (column A, D or G, value to the right) for the subject fields kept. */
const SUBJECT_LABELS = {
  sex: ['geschlecht', 'sex', 'gender'],
  age_years: ['alter', 'age'],
  height_cm: ['größe (cm)', 'height (cm)', 'height'],
  body_mass_kg: ['gewicht (kg)', 'weight (kg)', 'weight'],
} as const;

/** Threshold column names in the Omnia Results sheet: German VT1/VT2, English AT/RC. */
const THRESHOLD_COLUMNS: readonly [string, 'VT1' | 'VT2'][] = [
  ['VT1', 'VT1'],
  ['AT', 'VT1'],
  ['VT2', 'VT2'],
  ['RC', 'VT2'],
];

const FORMAT = 'cosmed-xlsx';

/** Reads the workbook; throws PARSER_ERROR naming sheet, row and column where it cannot. */
export function parse(file: FileView): Recording {
  const sheets = file.sheets();
  if (!sheets || sheets.length === 0) throw parserError('the file is not a readable workbook');
  const sheet = sheets.find((s) => timeColumn(s) >= 0);
  if (!sheet) throw parserError('no sheet has a data table headed "t" in row 1', { sheet: sheets[0].name, row: 1 });
  const t = timeColumn(sheet);
  const names = (sheet.rows[0] ?? []).map((c, i) => (i < t ? '' : c));
  const units = sheet.rows[1] ?? [];
  const flags: ParserFlag[] = [];

  // Data from row 4 to the last row with a time; trailing empty rows are formatting.
  let end = sheet.rows.length;
  while (end > 3 && isBlank(sheet.rows[end - 1]?.[t])) end--;
  const data = sheet.rows.slice(3, end);
  if (data.length === 0) throw parserError('no data rows under the header', { sheet: sheet.name, row: 4 });

  const time_s = readTimes(data.map((r) => r[t]), flags);
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  const taken = new Set<number>([t]);
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
    const values = scale(raw, decided.factor);
    const zeroReason = implausibleZeros(name, values, flags);
    if (zeroReason) {
      absent[name] = zeroReason;
      continue;
    }
    channels[name] = { values, unit_in: decided.unit_in };
  }

  const phaseCol = findColumn(names, PHASE_COLUMN);
  const phase_per_row = phaseCol >= 0 ? data.map((r) => PHASES[normaliseHeader(r[phaseCol])] ?? null) : undefined;

  return buildRecording({
    format: FORMAT,
    time_s,
    channels,
    absent,
    phase_per_row,
    subject: readSubject(sheet),
    embedded_thresholds: readThresholds(sheets.filter((s) => s !== sheet), flags),
    flags,
  });
}

function isBlank(cell: unknown): boolean {
  return cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === '');
}

/**
 * Omnia stores `t` as an Excel time (a fraction of a day, shown mm:ss) under a unit cell that says
 * `s`; PFT Suite writes text `hh:mm:ss`. Numbers of a day or more are read as seconds.
 */
function readTimes(cells: unknown[], flags: ParserFlag[]): (number | null)[] {
  const numbers = cells.filter((c): c is number => typeof c === 'number');
  const dayFractions = numbers.length > 0 && numbers.every((v) => v >= 0 && v < 1);
  if (dayFractions) flags.push({ code: 'time_excel_day_fraction', detail: 't is stored as an Excel time (fraction of a day) although its unit cell says s; converted to seconds' });
  return cells.map((c) => {
    if (typeof c === 'number') return dayFractions ? excelDayFractionToSeconds(c) : c;
    return typeof c === 'string' ? parseClock(c) : null;
  });
}



/**
 * SpO2 of 0 % and a load of 0 W for a whole test are what COSMED writes when no oximeter or
 * ergometer is connected: absent, not measured zeros. Single zero SpO2 readings become missing.
 */
function implausibleZeros(name: ChannelName, values: (number | null)[], flags: ParserFlag[]): string | null {
  if (name !== 'SpO2' && name !== 'Load') return null;
  const finite = values.filter((v): v is number => v !== null);
  if (finite.length > 0 && finite.every((v) => v === 0)) {
    flags.push({ code: 'zero_column_absent', detail: `${name} reads 0 in every row; read as not connected` });
    return 'column present in the file but reading zero throughout (not recorded)';
  }
  if (name === 'SpO2') for (let i = 0; i < values.length; i++) if (values[i] === 0) values[i] = null;
  return null;
}

/** Sex, age, height and body mass from the label/value pairs in columns A-H; names, ids and dates are not read. */
function readSubject(sheet: Sheet): Subject {
  const subject: Subject = {};
  for (const row of sheet.rows.slice(0, 40)) {
    for (let c = 0; c < METADATA_COLUMNS; c++) {
      const label = metadataLabel(row[c]);
      if (!label) continue;
      const value = [row[c + 1], row[c + 2]].find((v) => !isBlank(v)) ?? null;
      if (value === null) continue;
      if ((SUBJECT_LABELS.sex as readonly string[]).includes(label)) {
        const s = String(value).trim().toLowerCase();
        subject.sex = /^(m|male|männlich|mann)$/.test(s) ? 'male' : /^(f|w|female|weiblich|frau)$/.test(s) ? 'female' : null;
      } else if ((SUBJECT_LABELS.age_years as readonly string[]).includes(label)) {
        subject.age_years = positive(value);
      } else if ((SUBJECT_LABELS.height_cm as readonly string[]).includes(label)) {
        subject.height_cm = positive(value);
      } else if ((SUBJECT_LABELS.body_mass_kg as readonly string[]).includes(label)) {
        subject.body_mass_kg = positive(value);
      }
    }
  }
  return subject;
}

function positive(cell: unknown): number | null {
  const v = parseNumber(cell);
  return v !== null && v > 0 ? v : null;
}

/**
 * Omnia's Results sheet has tables headed `Parameter | Einheit | ... | VT1 | VT2 | Max` (English:
 * AT, RC); the `t` and `VO2` rows under them give each threshold's time and VO2 when filled.
 */
function readThresholds(others: Sheet[], flags: ParserFlag[]): EmbeddedThreshold[] {
  const found = new Map<string, EmbeddedThreshold>();
  for (const sheet of others) {
    let columns: { col: number; label: string; name: 'VT1' | 'VT2' }[] = [];
    sheet.rows.forEach((row, r) => {
      const first = normaliseHeader(row[0]);
      if (first === 'parameter') {
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
