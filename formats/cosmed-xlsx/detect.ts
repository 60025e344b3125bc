import type { DetectResult } from '../../src/formats/format-plugin.js';
import type { FileView, Sheet } from '../../src/formats/file-view.js';
import { normaliseHeader } from '../../src/formats/columns.js';
import { metadataLabel, timeColumn } from './sheet-layout.js';

/** Rows of the first sheet that detection reads: the metadata block and the top of the data table. */
const HEAD_ROWS = 10;
/** COSMED data column names of which at least three follow `t` in row 1. */
const COSMED_NAMES = new Set(['vo2', 'vco2', 've', 'rf', 'af', 'r', 'rq', 'vt', 'vo2/kg', 'hr', 'hf', 'peto2', 'petco2', 'peo2', 'peco2']);

/** Ordered rules over the first sheet's first rows; the A1 label and the `t` table decide. */
export function detect(file: FileView): DetectResult {
  if (file.container !== 'zip' && file.container !== 'ole') return { score: 0, reasons: ['not a workbook'] };
  let sheets: Sheet[] | null;
  try {
    sheets = file.sheets();
  } catch (err) {
    return { score: 0, reasons: [`workbook unreadable: ${(err as Error).message}`] };
  }
  const sheet = sheets?.[0];
  if (!sheet) return { score: 0, reasons: ['no sheet'] };
  const head = { name: sheet.name, rows: sheet.rows.slice(0, HEAD_ROWS) };
  const reasons: string[] = [];
  let score = 0;

  // 1. A1: Omnia writes "ID1", PFT Suite "ID code:".
  const a1 = metadataLabel(head.rows[0]?.[0]);
  if (a1 === 'id1' || a1 === 'id code') {
    score += 0.35;
    reasons.push(`A1 is "${String(head.rows[0][0])}"`);
  }
  // 2. Row 1 from the `t` column on: "t", "Rf"/"Af", "VT", "VE", "VO2", "VCO2", "R" ...
  const t = timeColumn(head);
  const names = t >= 0 ? head.rows[0].slice(t, t + 30).map(normaliseHeader) : [];
  if (t >= 0 && names.filter((n) => COSMED_NAMES.has(n)).length >= 3) {
    score += 0.25;
    reasons.push('data table headed "t" with COSMED column names');
    // 3. Row 2 holds units ("s" or "hh:mm:ss" under t) and row 3 is empty in the data columns.
    const unit = normaliseHeader(head.rows[1]?.[t]);
    const row3 = head.rows[2]?.slice(t, t + 10) ?? [];
    if ((unit === 's' || unit === 'hh:mm:ss') && row3.every((c) => c === null || c === '')) {
      score += 0.1;
      reasons.push('units row under t, row 3 empty');
    }
  }
  // 4. Metadata labels in column A: "Nachname", "Last name:", "Last Name".
  const labels = head.rows.map((r) => metadataLabel(r[0]));
  if (labels.some((l) => l === 'nachname' || l === 'last name')) {
    score += 0.1;
    reasons.push('metadata labels in column A');
  }
  // 5. Omnia sheet names: "Daten"/"Ergebnisse" (German) or "Data"/"Results" (English).
  const names2 = (sheets ?? []).map((s) => s.name.toLowerCase());
  if ((names2.includes('daten') && names2.includes('ergebnisse')) || (names2.includes('data') && names2.includes('results'))) {
    score += 0.15;
    reasons.push('Omnia sheet names');
  }
  // 6. The extension is one small clue.
  if (file.extension === 'xlsx' || file.extension === 'xls') {
    score += 0.05;
    reasons.push(`extension .${file.extension}`);
  }
  return { score, reasons };
}
