import { isUnitsRow, nameKey, textHead, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';

/** What the rules look at: the first line's names (as keys), the first data line's cells, the extension. */
interface Head {
  names: string[];
  firstData: string[];
  extension: string;
}

/**
 * Ordered rules over the first lines, each with its weight. Quoted from the real file's line 1:
 * `Time<TAB>Ex Time<TAB>Time (Clock)<TAB>Speed<TAB>Grade<TAB>VO2<TAB>VO2<TAB>VCO2<TAB>RER<TAB>RR<TAB>Vt BTPS<TAB>VE BTPS<TAB>BR<TAB>PETO2<TAB>PETCO2<TAB>HR`.
 */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  // Breeze's three clocks side by side.
  { name: '"Time", "Ex Time" and "Time (Clock)" columns', weight: 0.4, test: (h) => ['time', 'ex time', 'time (clock)'].every((n) => h.names.includes(n)) },
  // VO2 per kg, then absolute, under one name.
  { name: 'two columns named "VO2"', weight: 0.2, test: (h) => h.names.filter((n) => n === 'vo2').length === 2 },
  { name: '"Vt BTPS" / "VE BTPS" columns', weight: 0.15, test: (h) => h.names.includes('vt btps') || h.names.includes('ve btps') },
  { name: '"PETO2" and "PETCO2" columns', weight: 0.1, test: (h) => h.names.includes('peto2') && h.names.includes('petco2') },
  // The first data line (after a units row when there is one) starts with an m:ss time.
  { name: 'data rows start with an m:ss time', weight: 0.1, test: (h) => /^\d{1,3}:\d{2}$/.test(h.firstData[0]?.trim() ?? '') },
  // The extension is one small clue.
  { name: 'extension .txt', weight: 0.05, test: (h) => h.extension === 'txt' },
];

/** Scores the file by the rules above over its first three lines; never throws. */
export function detect(file: FileView): DetectResult {
  const text = textHead(file, 3);
  const header = text?.rows[0] ?? [];
  if (text?.delimiter !== '\t' || header.length < 4) return { score: 0, reasons: ['first line is not a tab-separated header'] };
  const head: Head = { names: header.map(nameKey), firstData: text.rows[isUnitsRow(text.rows[1]) ? 2 : 1] ?? [], extension: file.extension };
  const passed = RULES.filter((rule) => rule.test(head));
  return {
    score: Math.min(
      1,
      passed.reduce((sum, rule) => sum + rule.weight, 0),
    ),
    reasons: passed.map((rule) => rule.name),
  };
}
