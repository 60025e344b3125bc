import type { DetectResult } from '../../src/formats/format-plugin.js';
import { READ_LIMITS, type FileView } from '../../src/formats/file-view.js';
import { normaliseHeader } from '../../src/formats/columns.js';
import { firstSheet, isSpreadsheetMl } from './grid.js';
import { headerRow } from './layout.js';

/**
 * Rows of the first sheet detection reads. MetaSoft puts about 50 rows of metadata and summary
 * above the data table, so the head is longer than for other vendors, but still bounded.
 */
const HEAD_ROWS = 80;
const HEAD_COLUMNS = 40;
/** Metadata block titles: German MetaSoft Studio, English, and MetaSoft Performance. */
const BLOCK_TITLES = /^(stammdaten|administrative data|patientendaten|patient data|proband|subject)$/;
/** Cortex column names carry a prime: V'O2, V'CO2, V'E (with (STPD)/(BTPS) in some exports). */
const PRIMED = /^v'(o2|co2|e)( \((stpd|btps)\))?$/;

/** Ordered rules; the table shape and the primed names decide, container markers add evidence. */
export function detect(file: FileView): DetectResult {
  const reasons: string[] = [];
  let score = 0;
  let rows: unknown[][] = [];
  if (file.container === 'zip' || file.container === 'ole') {
    const sheet = firstSheet(file);
    if ('error' in sheet) return { score: 0, reasons: [sheet.error] };
    rows = sheet.rows.slice(0, HEAD_ROWS).map((r) => r.slice(0, HEAD_COLUMNS));
  } else if (file.container === 'text') {
    const head = (file.text() ?? '').slice(0, READ_LIMITS.head_bytes);
    // 1. SpreadsheetML: `<?mso-application progid="Excel.Sheet"?>`, `urn:schemas-microsoft-com:office:spreadsheet`.
    if (!isSpreadsheetMl(head)) return { score: 0, reasons: ['text that is not an Excel 2003 XML spreadsheet'] };
    score += 0.1;
    reasons.push('Excel 2003 XML spreadsheet');
    // 2. The worksheet MetaSoft names after itself: `<Worksheet ss:Name="MetasoftStudio">`.
    if (/<Worksheet ss:Name="Meta ?soft ?Studio"/i.test(head)) {
      score += 0.3;
      reasons.push('worksheet "MetasoftStudio"');
    }
    // 3. The device line: `Spiroergometrie-Gerät | MetaLyzer 3B-R3` (or MetaMax).
    if (/>(MetaLyzer|MetaMax)[^<]*</.test(head)) {
      score += 0.15;
      reasons.push('Cortex device name');
    }
    // Cells of the head as rows, only for the shared rules below; no entity is ever expanded.
    rows = [...head.matchAll(/<Row[^>]*>([\s\S]*?)<\/Row>/g)].map((m) => [...m[1].matchAll(/<Data[^>]*>([^<]*)<\/Data>/g)].map((d) => d[1]));
  } else {
    return { score: 0, reasons: ['binary content'] };
  }

  // 4. Metadata block title in column A: "Stammdaten" (spiro's rule) or "Administrative Data".
  if (rows.slice(0, 20).some((r) => BLOCK_TITLES.test(normaliseHeader(r[0])))) {
    score += 0.2;
    reasons.push('MetaSoft metadata block title');
  }
  // 5. Data table: header "t" over a units row starting "h:mm:ss" / "hh:mm:ss.z".
  const h = headerRow(rows);
  if (h >= 0) {
    score += 0.3;
    reasons.push('t header above a time-format units row');
    const names = rows[h].map(normaliseHeader);
    // 6. Primed gas names (V'O2, V'E) with HF/AF or BF.
    if (names.filter((n) => PRIMED.test(n)).length >= 2 && names.some((n) => n === 'hf' || n === 'af' || n === 'bf')) {
      score += 0.3;
      reasons.push("Cortex column names (V'O2, V'E, HF, AF)");
    }
  }
  // 7. The extension is one small clue.
  if (['xlsx', 'xls', 'xml'].includes(file.extension)) {
    score += 0.05;
    reasons.push(`extension .${file.extension}`);
  }
  return { score: Math.min(1, score), reasons };
}
