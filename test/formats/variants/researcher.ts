/**
 * Tables a lab keeps after one pass through R or a spreadsheet, generated from the real MGC
 * Breeze-style export: lower-case or snake_case names, readr's renamed duplicates (`VO2...4`),
 * times as m:ss, hh:mm:ss, decimal minutes or from exercise start (negative in rest), a European
 * re-save, workbooks with Excel times or with m:ss typed in and stored as h:mm. No vendor format
 * claims them; the generic table reads them.
 */
import { parseClock, parseNumber } from '../../../src/recording/units.js';
import { fixtureInput } from '../summary-snapshot.js';
import { hhmmss, mss, tabRows, textOf, xlsxOf, type Grid } from './grids.js';
import type { Variant } from './variant.js';

const REAL = 'gasexchanger-aaron';
/** Columns of the real file: Time, Ex Time, Time (Clock), Speed, Grade, VO2, VO2, VCO2, RER, RR, Vt BTPS, VE BTPS, BR, PETO2, PETCO2, HR. */
const KEPT = [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15];
/** 1 mph in km/h: a speed column with no unit is read as km/h, so it holds the original's value / 1.609344. */
const MPH = 1.609344;
const SPEED_UNSTATED = { Speed: { factor: 1 / MPH, why: 'speed has no unit in the table: read as km/h (flagged), the cart wrote mph' } };

function real(): string[][] {
  return tabRows(fixtureInput('mgc-breeze-txt', REAL).bytes.toString('latin1'));
}

/** The kept columns, with their time cell rewritten by `time` and their other cells as `cell` makes them. */
function table(names: string[], time: (seconds: number, row: string[]) => unknown, cell: (text: string) => unknown = (t) => t.trim()): Grid {
  const [, ...rows] = real();
  return [names, ...rows.map((r) => KEPT.map((c) => (c === 0 ? time(parseClock(r[0]) as number, r) : cell(r[c]))))];
}

/** The first time (s) at which `Ex Time` has a value: the start of exercise. */
function exerciseStart(): number {
  const row = real()
    .slice(1)
    .find((r) => r[1].trim() !== '');
  return parseClock((row as string[])[0]) as number;
}

const SNAKE = ['time', 'speed', 'grade', 'vo2', 'vo2_abs', 'vco2', 'rer', 'rr', 'vt.btps', 've.btps', 'peto2', 'petco2', 'hr'];

const variant = (name: string, filename: string, bytes: () => Buffer, extra: Partial<Variant> = {}): Variant => ({
  family: 'generic-table',
  name,
  filename,
  bytes,
  original: REAL,
  format: 'generic-table',
  time: 'same',
  ...extra,
});

export const RESEARCHER_VARIANTS: readonly Variant[] = [
  variant('lower-snake-case-csv', 'aaron_clean.csv', () => textOf(table(SNAKE, (_s, r) => r[0].trim())), { scaled: SPEED_UNSTATED }),
  // readr names the repeated VO2 by position (`VO2...4`, `VO2...5` once the clock columns are dropped).
  variant(
    'readr-renamed-duplicates-csv',
    'aaron_readr.csv',
    () => textOf(table(['time', 'speed', 'grade', 'VO2...4', 'VO2...5', 'vco2', 'rer', 'rr', 'vt.btps', 've.btps', 'peto2', 'petco2', 'hr'], (s) => hhmmss(s))),
    { scaled: SPEED_UNSTATED },
  ),
  variant('decimal-minutes-csv', 'aaron_minutes.csv', () => textOf(table(['time', 'speed_mph', 'grade', 'vo2_rel', 'vo2', 'vco2', 'rer', 'rr', 'vt', 've', 'peto2', 'petco2', 'hr'], (s) => s / 60)), {
    time: 'close',
  }),
  variant('negative-rest-times-csv', 'aaron_from_exercise.csv', () => textOf(table(SNAKE, (s) => mss(s - exerciseStart()))), { time: 'shifted', scaled: SPEED_UNSTATED }),
  variant(
    'semicolon-decimal-comma-csv',
    'aaron_eu.csv',
    () =>
      textOf(
        table(SNAKE, (_s, r) => r[0].trim(), parseNumber),
        { delimiter: ';', decimal_comma: true },
      ),
    {
      scaled: SPEED_UNSTATED,
    },
  ),
  variant('excel-times-xlsx', 'aaron.xlsx', () =>
    xlsxOf([
      {
        name: 'Aaron',
        data: table(
          ['Time', 'Speed (mph)', 'Grade (%)', 'VO2 (mL/kg/min)', 'VO2 (mL/min)', 'VCO2 (mL/min)', 'RER', 'RR (/min)', 'VT (mL)', 'VE (L/min)', 'PetO2 (mmHg)', 'PetCO2 (mmHg)', 'HR (bpm)'],
          (s) => s / 86400,
          parseNumber,
        ),
      },
    ]),
  ),
  variant('excel-m-ss-as-h-mm-xlsx', 'aaron_typed.xlsx', () =>
    xlsxOf([{ name: 'Aaron', data: table(['Time', 'Speed (mph)', 'Grade', 'VO2/kg', 'VO2', 'VCO2', 'RER', 'RF', 'VT', 'VE', 'PETO2', 'PETCO2', 'HR'], (s) => s / 1440, parseNumber) }]),
  ),
];
