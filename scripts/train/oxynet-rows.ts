/**
 * The rows of the Oxynet database summaries (scripts/train/oxynet-summaries/, pyoxynet, MIT): one
 * real test each, with its experts' VT1 and VT2, its length, whether it began with rest, its subject.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), 'oxynet-summaries');
const FILES = { resting: 'database_statistics_resting.csv', ramp: 'database_statistics_ramp.csv' } as const;

export type OxynetFile = keyof typeof FILES;

export interface OxynetRow {
  file: OxynetFile;
  /** Position in the file (0-based, data rows in file order). */
  row: number;
  /** The resting file's tests begin with rest; the ramp file's start at exercise. */
  rest: boolean;
  age_years: number;
  body_mass_kg: number;
  /** From the file's `gender` (1 female, -1 male: see oxynet-summaries/README.md). */
  sex: 'male' | 'female';
  vo2peak_ml_min: number;
  /** Recording length to the end of exercise, and the experts' thresholds, all s from the start. */
  duration_s: number;
  vt1_s: number;
  vt2_s: number;
}

/** Every row of one file. */
export function oxynetRows(file: OxynetFile): OxynetRow[] {
  const lines = readFileSync(join(DATA, FILES[file]), 'utf8').trim().split(/\r?\n/);
  const header = lines[0].split(',');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${FILES[file]}: no column ${name}`);
    return i;
  };
  const [age, weight, gender, peak, duration, vt1, vt2] = ['Age', 'weight', 'gender', 'VO2peak', 'duration', 'VT1', 'VT2'].map(col);
  return lines.slice(1).map((line, row) => {
    const v = line.split(',').map(Number);
    return {
      file,
      row,
      rest: file === 'resting',
      age_years: v[age],
      body_mass_kg: v[weight],
      sex: v[gender] === 1 ? 'female' : 'male',
      vo2peak_ml_min: v[peak],
      duration_s: v[duration],
      vt1_s: v[vt1],
      vt2_s: v[vt2],
    };
  });
}
