import { textHead, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';

/** Interpolated gas columns pyoxynet writes; the `_I` suffix is its mark. */
const GAS_COLUMNS = ['vo2_i', 'vco2_i', 've_i'];
const NUMBER = /^\s*-?\d+([.,]\d+)?([eE][-+]?\d+)?\s*$/;

/** What the rules look at: the first line's names (lower case), the second line's cells, the extension. */
interface Head {
  names: string[];
  second: string[];
  extension: string;
}

/**
 * Ordered rules over the first lines, each with its weight. Quoted from the real file's line 1:
 * `,time,VO2_I,VCO2_I,VE_I,HR_I,RF_I,PetO2_I,PetCO2_I,VEVO2_I,VEVCO2_I,age,height,weight,gender,domain,age_group,fitness_group`
 * (re-saved in Europe it is semicolon-separated).
 */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  { name: 'VO2_I, VCO2_I and VE_I columns', weight: 0.5, test: (h) => GAS_COLUMNS.every((c) => h.names.includes(c)) },
  { name: 'other pyoxynet columns (PetO2_I, PetCO2_I, VEVO2_I, domain)', weight: 0.15, test: (h) => ['peto2_i', 'petco2_i', 'vevo2_i', 'domain'].filter((c) => h.names.includes(c)).length >= 2 },
  // The pandas index: an unnamed first column.
  { name: 'an unnamed index column followed by "time"', weight: 0.1, test: (h) => h.names[0] === '' && h.names[1] === 'time' },
  { name: 'the first data row is all numbers', weight: 0.15, test: (h) => h.second.length === h.names.length && h.second.every((c) => NUMBER.test(c)) },
  { name: 'extension .csv', weight: 0.05, test: (h) => h.extension === 'csv' },
];

/** Scores the file by the rules above over its first lines; never throws. */
export function detect(file: FileView): DetectResult {
  const text = textHead(file, 3);
  const header = text?.rows[0] ?? [];
  if (!text || text.delimiter === '\t' || header.length < 4) return { score: 0, reasons: ['first line is not a comma- or semicolon-separated header'] };
  const head: Head = { names: header.map((h) => h.trim().toLowerCase()), second: text.rows[1] ?? [], extension: file.extension };
  const passed = RULES.filter((rule) => rule.test(head));
  return {
    score: Math.min(
      1,
      passed.reduce((sum, rule) => sum + rule.weight, 0),
    ),
    reasons: passed.map((rule) => rule.name),
  };
}
