import type { DetectResult } from '../../src/formats/format-plugin.js';
import type { FileView } from '../../src/formats/file-view.js';
import { cellText, parvoGrid } from './grid.js';

/** Rows of the head that detection reads: the header block is 23 lines, the column header ends at 29. */
const HEAD_ROWS = 40;

/** Ordered rules; the two marker lines around the column header carry most of the weight. */
export function detect(file: FileView): DetectResult {
  let rows: unknown[][] | null;
  try {
    rows = parvoGrid(file, HEAD_ROWS);
  } catch (err) {
    return { score: 0, reasons: [`unreadable: ${(err as Error).message}`] };
  }
  if (!rows || rows.length === 0) return { score: 0, reasons: ['neither text nor a workbook'] };
  const first = rows.map((r) => cellText(r[0]));
  const flat = new Set(rows.flatMap((r) => r.map(cellText)));
  const reasons: string[] = [];
  let score = 0;

  // 1. `"=========="` opens the column header and `"----------"` closes it four lines later.
  const open = first.indexOf('==========');
  if (open >= 0 && first[open + 5] === '----------') {
    score += 0.4;
    reasons.push('"==========" and "----------" around a four-line column header');
  }
  // 2. The names line: `"TIME ", "HR  ", "VO2/kg  ", "VO2   "` (padded names, time first).
  if (open >= 0 && first[open + 2] === 'TIME' && rows[open + 2]?.some((c) => cellText(c) === 'VO2')) {
    score += 0.2;
    reasons.push('column names TIME ... VO2');
  }
  // 3. The qualifier line: `"STPD  "`, `"BTPS  "` under the gas columns.
  if (open >= 0 && rows[open + 3]?.some((c) => /^(STPD|BTPS)$/.test(cellText(c)))) {
    score += 0.1;
    reasons.push('STPD/BTPS qualifier line');
  }
  // 4. Header block sections: "Patient Information", "Base Values for Sampling", "STPD to BTPS".
  if (flat.has('Patient Information') || flat.has('Base Values for Sampling') || flat.has('STPD to BTPS')) {
    score += 0.15;
    reasons.push('TrueOne header block sections');
  } else if (file.container === 'text' && /^"[^"]*"(, "[^"]*")*$/.test(file.head(1)[0] ?? '')) {
    // Short exports keep only the institution line, e.g. `"University ...", "", ..., "(20190902T)"`.
    score += 0.1;
    reasons.push('quoted ", "-separated first line');
  }
  // 5. The extension is one small clue.
  if (['csv', 'xlsx', 'xls'].includes(file.extension)) {
    score += 0.05;
    reasons.push(`extension .${file.extension}`);
  }
  return { score, reasons };
}
