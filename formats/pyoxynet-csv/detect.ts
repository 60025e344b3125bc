import type { DetectResult } from '../../src/formats/format-plugin.js';
import type { FileView } from '../../src/formats/file-view.js';
import { delimiterOf } from './parse.js';

/** Interpolated gas columns pyoxynet writes; the `_I` suffix is its mark. */
const GAS_COLUMNS = ['vo2_i', 'vco2_i', 've_i'];

/**
 * Ordered rules over the first lines; weights add up to 1. Quoted from the real file's line 1:
 * `,time,VO2_I,VCO2_I,VE_I,HR_I,RF_I,PetO2_I,PetCO2_I,VEVO2_I,VEVCO2_I,age,height,weight,gender,domain,age_group,fitness_group`.
 * 1. `VO2_I`, `VCO2_I` and `VE_I` in a comma-separated (or, re-saved in Europe, semicolon-separated) header.
 * 2. Other pyoxynet columns: `PetO2_I`, `PetCO2_I`, `VEVO2_I`, `domain`.
 * 3. An unnamed first column (the pandas index) followed by `time`.
 * 4. The second line is all numbers.
 * 5. The extension `.csv`.
 */
export function detect(file: FileView): DetectResult {
  const head = file.head(3);
  const delimiter = delimiterOf(head[0] ?? '');
  const headers = (head[0] ?? '').split(delimiter).map((h) => h.trim().toLowerCase());
  const reasons: string[] = [];
  let score = 0;
  if (headers.length < 4) return { score: 0, reasons: ['first line is not a comma- or semicolon-separated header'] };
  if (GAS_COLUMNS.every((c) => headers.includes(c))) {
    score += 0.5;
    reasons.push('VO2_I, VCO2_I and VE_I columns');
  }
  const others = ['peto2_i', 'petco2_i', 'vevo2_i', 'domain'].filter((c) => headers.includes(c));
  if (others.length >= 2) {
    score += 0.15;
    reasons.push(`pyoxynet columns ${others.join(', ')}`);
  }
  if (headers[0] === '' && headers[1] === 'time') {
    score += 0.1;
    reasons.push('an unnamed index column followed by "time"');
  }
  const cells = (head[1] ?? '').split(delimiter);
  if (cells.length === headers.length && cells.every((c) => /^\s*-?\d+([.,]\d+)?([eE][-+]?\d+)?\s*$/.test(c))) {
    score += 0.15;
    reasons.push('the first data row is all numbers');
  }
  if (file.extension === 'csv') {
    score += 0.05;
    reasons.push('extension .csv');
  }
  return { score, reasons };
}
