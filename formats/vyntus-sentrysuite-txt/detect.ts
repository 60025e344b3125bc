import type { DetectResult } from '../../src/formats/format-plugin.js';
import type { FileView } from '../../src/formats/file-view.js';
import { normaliseHeader } from '../../src/formats/columns.js';
import { COLUMNS, findHeaderLine } from './parse.js';

/** Lines the detector reads; the header sits on line 3 in the real file. */
const HEAD_LINES = 12;

/**
 * Ordered rules over the first lines; weights add up to 1.
 * 1. The identifier line. SentrySuite writes `ID-nummer:<TAB>BT2096` on line 1 (spiro's rule:
 *    "ID-nummer:" in the first 5 lines). Other languages are assumed to follow the same pattern.
 * 2. A tab-separated header whose first cell is the time (`Tid`) and which has `V'O2`.
 * 3. A units row under it (`min`, `mL/min`, `L/min`).
 * 4. The extension `.txt`.
 */
export function detect(file: FileView): DetectResult {
  const head = file.head(HEAD_LINES);
  const reasons: string[] = [];
  let score = 0;
  // 1. "ID-nummer:" (seen), "ID-number:", "ID-Nummer:", "N° ID:" (assumed translations).
  if (head.slice(0, 5).some((l) => /^\s*(ID-nummer|ID-number|ID-Nummer|N° ID|No ID)\s*:/i.test(l))) {
    score += 0.45;
    reasons.push('an "ID-nummer:" line in the first five lines');
  }
  // 2. Header such as "Tid<TAB>Last<TAB>RPM<TAB>HF<TAB>V'O2/kg<TAB>V'O2 ...".
  const headerAt = findHeaderLine(head);
  if (headerAt >= 0) {
    const cells = head[headerAt].split('\t').map(normaliseHeader);
    // The primed name V'O2 is SentrySuite's (and Cortex's) spelling; a plain VO2 is weaker evidence.
    if (cells.includes("v'o2")) {
      score += 0.3;
      reasons.push(`tab-separated header on line ${headerAt + 1} starting with a time column and holding V'O2`);
    } else if (COLUMNS.VO2.some((a) => cells.includes(normaliseHeader(a)))) {
      score += 0.1;
      reasons.push(`tab-separated header on line ${headerAt + 1} with a plain VO2 column`);
    }
    // 3. Units row: "min<TAB>W<TAB>1/min<TAB>1/min<TAB>(mL/min)/kg<TAB>mL/min ...".
    const units = head[headerAt + 1] ?? '';
    if (/(^|\t)\s*(m?l\/min|min|s)\s*(\t|$)/i.test(units) && /l\/min/i.test(units)) {
      score += 0.2;
      reasons.push('a units row under the header (mL/min, L/min)');
    }
  }
  // 4. The extension is one small clue only.
  if (file.extension === 'txt') {
    score += 0.05;
    reasons.push('extension .txt');
  }
  return { score, reasons };
}
