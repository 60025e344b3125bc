import type { DetectResult, FileView } from 'cpet-analysis-service/plugin';
import { cellText, parvoHead } from './grid.js';

/** Rows of the head that detection reads: the header block is 23 lines, the column header ends at 29. */
const HEAD_ROWS = 40;

/** What the rules look at: the head as rows of cells, where the column header opens, the first line. */
interface Head {
  rows: readonly (readonly unknown[])[];
  first: string[];
  open: number;
  text: boolean;
  firstLine: string;
  extension: string;
}

/** Ordered rules, each with its weight; the two marker lines around the column header carry most. */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  // `"=========="` opens the column header and `"----------"` closes it four lines later.
  { name: '"==========" and "----------" around a four-line column header', weight: 0.4, test: (h) => h.open >= 0 && h.first[h.open + 5] === '----------' },
  // The names line: `"TIME ", "HR  ", "VO2/kg  ", "VO2   "` (padded names, time first).
  { name: 'column names TIME ... VO2', weight: 0.2, test: (h) => h.open >= 0 && h.first[h.open + 2] === 'TIME' && (h.rows[h.open + 2] ?? []).some((c) => cellText(c) === 'VO2') },
  // The qualifier line: `"STPD  "`, `"BTPS  "` under the gas columns.
  { name: 'STPD/BTPS qualifier line', weight: 0.1, test: (h) => h.open >= 0 && (h.rows[h.open + 3] ?? []).some((c) => /^(STPD|BTPS)$/.test(cellText(c))) },
  // Header block sections: "Patient Information", "Base Values for Sampling", "STPD to BTPS".
  {
    name: 'TrueOne header block sections',
    weight: 0.15,
    test: (h) => h.rows.some((r) => r.some((c) => ['Patient Information', 'Base Values for Sampling', 'STPD to BTPS'].includes(cellText(c)))),
  },
  // Short breath-by-breath exports keep only `"University ...", "", ..., "(20190902T)"` above the header.
  {
    name: 'quoted ", "-separated first line ending in a build stamp',
    weight: 0.1,
    test: (h) => h.text && /^"[^"]*"(, "[^"]*")*$/.test(h.firstLine) && /"\(\d{8}T\)"$/.test(h.firstLine),
  },
  // The extension is one small clue.
  { name: 'extension .csv, .xlsx or .xls', weight: 0.05, test: (h) => ['csv', 'xlsx', 'xls'].includes(h.extension) },
];

/** Scores the file by the rules above over its first rows (CSV lines or the first sheet); never throws. */
export function detect(file: FileView): DetectResult {
  let rows: readonly (readonly unknown[])[] | null;
  try {
    rows = parvoHead(file, HEAD_ROWS);
  } catch (err) {
    return { score: 0, reasons: [`unreadable: ${(err as Error).message}`] };
  }
  if (!rows || rows.length === 0) return { score: 0, reasons: ['neither text nor a workbook'] };
  const first = rows.map((r) => cellText(r[0]));
  const text = file.container === 'text';
  const head: Head = { rows, first, open: first.indexOf('=========='), text, firstLine: text ? (file.head(1)[0] ?? '') : '', extension: file.extension };
  const passed = RULES.filter((rule) => rule.test(head));
  return {
    score: Math.min(
      1,
      passed.reduce((sum, rule) => sum + rule.weight, 0),
    ),
    reasons: passed.map((rule) => rule.name),
  };
}
