import type { DetectResult, FileView } from 'cpet-analysis-service/plugin';

/** The real file has 13 lines before its first `P=` row and ~110 before `[Data]`. */
const HEAD_LINES = 160;

/**
 * Ordered rules over the head; weights add up to 1.
 * 1. Line 1 is `[person]` (spiro: "files from ZAN devices usually start with a line "[person]"").
 * 2. A `[parameter]` section.
 * 3. Column definitions `P=340,1000.000000,Zeit` (id, divisor, name).
 * 4. A `[Data]` section or `B1=1,3435,0,...` rows.
 * 5. The extension `.dat`, or none (ZAN names files `EXEDxxx`).
 */
export function detect(file: FileView): DetectResult {
  const head = file.head(HEAD_LINES).map((l) => l.trim());
  const reasons: string[] = [];
  let score = 0;
  if (head[0] === '[person]') {
    score += 0.45;
    reasons.push('line 1 is "[person]"');
  }
  if (head.includes('[parameter]')) {
    score += 0.15;
    reasons.push('a "[parameter]" section');
  }
  const defs = head.filter((l) => /^P=\d+,\d+(\.\d+)?,/.test(l)).length;
  if (defs >= 3) {
    score += 0.2;
    reasons.push(`${defs} column definitions "P=<id>,<divisor>,<name>"`);
  }
  if (head.includes('[Data]') || head.some((l) => /^B\d+=/.test(l))) {
    score += 0.1;
    reasons.push('a "[Data]" section or "B<n>=" rows');
  }
  if (file.extension === 'dat' || file.extension === '') {
    score += 0.1;
    reasons.push(file.extension ? 'extension .dat' : 'no extension (ZAN writes EXEDxxx)');
  }
  return { score, reasons };
}
