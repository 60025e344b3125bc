import { locateTable, textHead, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';

/** Lines the detector reads; the header sits on line 3 in the real file. */
const HEAD_LINES = 12;

/** What the rules look at: the head's lines and cells, where its table header is, the extension. */
interface Head {
  lines: string[];
  header: string[] | null;
  units: string[] | null;
  extension: string;
}

/**
 * Ordered rules over the first lines, each with its weight; quoted from the real file.
 * The identifier line carries most: the header and units rows alone are any lab's table.
 */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  // Line 1: `ID-nummer:<TAB>BT2096` (spiro's rule: "ID-nummer:" in the first 5 lines); the other languages' spellings assumed.
  {
    name: 'an "ID-nummer:" line in the first five lines',
    weight: 0.45,
    test: (h) => h.lines.slice(0, 5).some((l) => /^\s*(ID-nummer|ID-number|ID-Nummer|N° ID|No ID|ID-numero|Nº ID)\s*:/i.test(l)),
  },
  // Line 3: `Tid<TAB>Last<TAB>RPM<TAB>HF<TAB>V'O2/kg<TAB>V'O2 ...`: the primed V'O2 is SentrySuite's (and Cortex's) spelling.
  { name: "a tab-separated table header starting with the time and holding V'O2", weight: 0.3, test: (h) => h.header?.some((c) => c.trim() === "V'O2") === true },
  { name: 'a tab-separated table header with a plain VO2', weight: 0.1, test: (h) => h.header !== null && !h.header.some((c) => c.trim() === "V'O2") },
  // Line 4: `min<TAB>W<TAB>1/min<TAB>1/min<TAB>(mL/min)/kg<TAB>mL/min ...`.
  { name: 'a units row under the header (mL/min, L/min)', weight: 0.2, test: (h) => h.units?.some((c) => /^\(?m?l\/min\)?$/i.test(c.trim())) === true },
  // The extension is one small clue.
  { name: 'extension .txt', weight: 0.05, test: (h) => h.extension === 'txt' },
];

/** Scores the file by the rules above over its first lines; never throws. */
export function detect(file: FileView): DetectResult {
  const text = textHead(file, HEAD_LINES);
  if (text?.delimiter !== '\t') return { score: 0, reasons: ['not tab-separated text'] };
  const layout = locateTable(text.rows, { max_rows: HEAD_LINES, from_time_column: true });
  const timeFirst = layout !== null && layout.first_column === 0;
  const head: Head = {
    lines: file.head(HEAD_LINES),
    header: timeFirst ? text.rows[layout.header_row] : null,
    units: timeFirst && layout.units_row !== null ? text.rows[layout.units_row] : null,
    extension: file.extension,
  };
  const passed = RULES.filter((rule) => rule.test(head));
  return {
    score: Math.min(
      1,
      passed.reduce((sum, rule) => sum + rule.weight, 0),
    ),
    reasons: passed.map((rule) => rule.name),
  };
}
