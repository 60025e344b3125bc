import type { DetectResult } from '../../src/formats/format-plugin.js';
import type { FileView } from '../../src/formats/file-view.js';
import { findAllColumns, findColumn } from '../../src/formats/columns.js';

/**
 * Ordered rules over the first lines; weights add up to 1. Quoted from the real file's line 1:
 * `Time<TAB>Ex Time<TAB>Time (Clock)<TAB>Speed<TAB>Grade<TAB>VO2<TAB>VO2<TAB>VCO2<TAB>RER<TAB>RR<TAB>Vt BTPS<TAB>VE BTPS<TAB>BR<TAB>PETO2<TAB>PETCO2<TAB>HR`.
 * 1. `Time`, `Ex Time` and `Time (Clock)` side by side (Breeze's three clocks).
 * 2. `VO2` twice (per kg, then absolute).
 * 3. `Vt BTPS` or `VE BTPS`.
 * 4. `PETO2` and `PETCO2`.
 * 5. The second line starts with an m:ss time.
 * 6. The extension `.txt`.
 */
export function detect(file: FileView): DetectResult {
  const head = file.head(3);
  const headers = (head[0] ?? '').split('\t');
  const reasons: string[] = [];
  let score = 0;
  if (headers.length < 4) return { score: 0, reasons: ['first line is not a tab-separated header'] };
  if (findColumn(headers, ['Time']) >= 0 && findColumn(headers, ['Ex Time']) >= 0 && findColumn(headers, ['Time (Clock)']) >= 0) {
    score += 0.4;
    reasons.push('"Time", "Ex Time" and "Time (Clock)" columns');
  }
  if (findAllColumns(headers, 'VO2').length === 2) {
    score += 0.2;
    reasons.push('two columns named "VO2"');
  }
  if (findColumn(headers, ['Vt BTPS', 'VE BTPS']) >= 0) {
    score += 0.15;
    reasons.push('"Vt BTPS" / "VE BTPS" columns');
  }
  if (findColumn(headers, ['PETO2']) >= 0 && findColumn(headers, ['PETCO2']) >= 0) {
    score += 0.1;
    reasons.push('"PETO2" and "PETCO2" columns');
  }
  if (/^\d{1,3}:\d{2}\t/.test(head[1] ?? '')) {
    score += 0.1;
    reasons.push('data rows start with an m:ss time');
  }
  if (file.extension === 'txt') {
    score += 0.05;
    reasons.push('extension .txt');
  }
  return { score, reasons };
}
