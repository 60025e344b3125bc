/**
 * COSMED layouts generated from the two real exports: Omnia (German, beside its metadata block) in
 * English and Italian, as the data table only (xlsx and CSV), re-saved as .xls; PFT Suite (English)
 * as the data table only, as COSMED writes it from OMNIA/K5/Quark in CSV (the shape the issue saw
 * refused: `t, Rf, VT, VE, IV, VO2, VCO2, RQ, O2exp, ...` over `s, 1/min, L(btps), L/min, mL, ...`),
 * as a workbook, and in German as a semicolon, decimal-comma CSV.
 */
import { excelDayFractionToSeconds, parseClock } from '../../../src/recording/units.js';
import { fixtureInput } from '../summary-snapshot.js';
import { readWorkbook, renamed, textOf, xlsOf, xlsxOf, type Grid, type SheetGrid } from './grids.js';
import type { Variant } from './variant.js';

const FAMILY = 'cosmed-xlsx';
const OMNIA = 'omnia-de-10s-averages';
const PFT = 'pft-suite-en-breath-by-breath';
/** The data table starts in column J beside the metadata block. */
const TABLE_COLUMN = 9;

/** Omnia German to English, as Omnia writes its English exports. */
const OMNIA_EN: Record<string, string> = {
  Daten: 'Data',
  Ergebnisse: 'Results',
  Nachname: 'Last Name',
  Vorname: 'First Name',
  Geschlecht: 'Sex',
  Männlich: 'Male',
  Alter: 'Age',
  'Größe (cm)': 'Height (cm)',
  'Gewicht (kg)': 'Weight (kg)',
  Geburtsdatum: 'Date of Birth',
  'Test-Datum': 'Test Date',
  'Barometrischer Druck (mmHg)': 'Barometric Pressure (mmHg)',
  Af: 'Rf',
  HF: 'HR',
  R: 'RQ',
  PeO2: 'PetO2',
  PeCO2: 'PetCO2',
  'VO2/HF': 'VO2/HR',
  FETT: 'FAT',
  KH: 'CHO',
  Phasenzeit: 'Phase time',
  Einheit: 'Unit',
  VT1: 'AT',
  VT2: 'RC',
};

/** Omnia German to Italian: COSMED's own language (names as its Italian software labels them). */
const OMNIA_IT: Record<string, string> = {
  Daten: 'Dati',
  Ergebnisse: 'Risultati',
  Nachname: 'Cognome',
  Vorname: 'Nome',
  Geschlecht: 'Sesso',
  Männlich: 'Maschio',
  Alter: 'Età',
  'Größe (cm)': 'Altezza (cm)',
  'Gewicht (kg)': 'Peso (kg)',
  'Barometrischer Druck (mmHg)': 'Pressione barometrica (mmHg)',
  Af: 'FR',
  HF: 'FC',
  R: 'QR',
  PeO2: 'PetO2',
  PeCO2: 'PetCO2',
  'VO2/HF': 'VO2/FC',
  Grade: 'Pendenza',
  Speed: 'Velocità',
  Phase: 'Fase',
  Marker: 'Marcatore',
  WARMUP: 'RISCALDAMENTO',
  EXERCISE: 'ESERCIZIO',
  FETT: 'GRASSI',
  Parameter: 'Parametro',
  Einheit: 'Unità',
  VT1: 'AT',
  VT2: 'RC',
};

/** PFT Suite English to the German names of an Omnia German export. */
const PFT_DE: Record<string, string> = { Rf: 'Af', HR: 'HF', PetO2: 'PeO2', PetCO2: 'PeCO2', 'VO2/HR': 'VO2/HF', FAT: 'FETT' };

function workbook(name: string): SheetGrid[] {
  return readWorkbook(fixtureInput(FAMILY, name).bytes);
}

function translated(name: string, names: Record<string, string>): SheetGrid[] {
  return workbook(name).map((s) => ({ name: names[s.name] ?? s.name, data: renamed(s.data, names) }));
}

/** The data table alone: its columns from J, header and units rows, then the data (row 3, blank in the table, dropped). */
function dataTable(name: string): Grid {
  const rows = workbook(name)[0].data.map((r) => r.slice(TABLE_COLUMN));
  const body = rows.slice(3).filter((r) => r.some((c) => c !== null && c !== ''));
  return [rows[0], rows[1], ...body];
}

/** Omnia's Excel times as seconds, as a CSV holds them. */
function omniaSeconds(rows: Grid): Grid {
  return rows.map((r, i) => (i < 2 || typeof r[0] !== 'number' ? r : [excelDayFractionToSeconds(r[0]), ...r.slice(1)]));
}

/** The PFT Suite table as COSMED's CSV writes it: t in seconds under `s`, R as RQ, units spelt `1/min`, `L(btps)`, `L/min`, `mL/min`. */
function cosmedCsvShape(rows: Grid): Grid {
  const units: Record<string, string> = { t: 's', Rf: '1/min', VT: 'L(btps)', VE: 'L/min', VO2: 'mL/min', VCO2: 'mL/min', IV: 'mL', O2exp: 'mL', CO2exp: 'mL' };
  const header = rows[0].map((c) => (c === 'R' ? 'RQ' : c));
  const unitRow = rows[0].map((c, i) => units[String(c)] ?? rows[1][i]);
  const body = rows.slice(2).map((r) => [parseClock(String(r[0])), ...r.slice(1)]);
  return [header, unitRow, ...body];
}

const variant = (name: string, filename: string, original: string, bytes: () => Buffer): Variant => ({ family: FAMILY, name, filename, bytes, original, format: FAMILY, time: 'same' });

export const COSMED_VARIANTS: readonly Variant[] = [
  variant('omnia-en-xlsx', 'omnia-en.xlsx', OMNIA, () => xlsxOf(translated(OMNIA, OMNIA_EN))),
  variant('omnia-it-xlsx', 'omnia-it.xlsx', OMNIA, () => xlsxOf(translated(OMNIA, OMNIA_IT))),
  variant('omnia-de-xls', 'omnia-de.xls', OMNIA, () => xlsOf(workbook(OMNIA))),
  variant('omnia-de-data-table-only-xlsx', 'omnia-data.xlsx', OMNIA, () => xlsxOf([{ name: 'Daten', data: dataTable(OMNIA) }])),
  variant('omnia-de-data-table-only-csv', 'omnia-data.csv', OMNIA, () => textOf(omniaSeconds(dataTable(OMNIA)))),
  variant('pft-en-data-table-only-csv', 'k5-export.csv', PFT, () => textOf(cosmedCsvShape(dataTable(PFT)))),
  variant('pft-en-data-table-only-xlsx', 'pft-data.xlsx', PFT, () => xlsxOf([{ name: 'Data', data: dataTable(PFT) }])),
  variant('pft-de-data-table-only-semicolon-csv', 'pft-de.csv', PFT, () => textOf(renamed(dataTable(PFT), PFT_DE), { delimiter: ';', decimal_comma: true })),
];
