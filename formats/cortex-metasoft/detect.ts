import { normaliseHeader, READ_LIMITS, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';
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

/** What the rules look at: the head as rows of cells, and for SpreadsheetML the head's text. */
interface Head {
  rows: unknown[][];
  /** The first 64 KB of a SpreadsheetML file; '' for workbooks. */
  xml: string;
  extension: string;
}

/** Ordered rules, each with its weight; the table shape and primed names decide, container markers add evidence. */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  // SpreadsheetML: `<?mso-application progid="Excel.Sheet"?>`, `urn:schemas-microsoft-com:office:spreadsheet`.
  { name: 'Excel 2003 XML spreadsheet', weight: 0.1, test: (h) => h.xml !== '' },
  // The worksheet MetaSoft names after itself: `<Worksheet ss:Name="MetasoftStudio">`.
  { name: 'worksheet "MetasoftStudio"', weight: 0.3, test: (h) => /<Worksheet ss:Name="Meta ?soft ?Studio"/i.test(h.xml) },
  // The device line: `Spiroergometrie-Gerät | MetaLyzer 3B-R3` (or MetaMax).
  { name: 'Cortex device name', weight: 0.15, test: (h) => />(MetaLyzer|MetaMax)[^<]*</.test(h.xml) },
  // Metadata block title in column A: "Stammdaten" (spiro's rule), "Administrative Data", "Proband".
  { name: 'MetaSoft metadata block title', weight: 0.2, test: (h) => h.rows.slice(0, 20).some((r) => BLOCK_TITLES.test(normaliseHeader(r[0]))) },
  // Data table: header "t" over a units row starting "h:mm:ss" (XML) or "hh:mm:ss.z" (xlsx).
  { name: 't header above a time-format units row', weight: 0.3, test: (h) => headerRow(h.rows) >= 0 },
  // Primed gas names (V'O2, V'E) with HF/AF or BF in that header.
  {
    name: "Cortex column names (V'O2, V'E, HF, AF)",
    weight: 0.3,
    test: (h) => {
      const r = headerRow(h.rows);
      const names = r >= 0 ? h.rows[r].map(normaliseHeader) : [];
      return names.filter((n) => PRIMED.test(n)).length >= 2 && names.some((n) => n === 'hf' || n === 'af' || n === 'bf');
    },
  },
  // The extension is one small clue.
  { name: 'extension .xlsx, .xls or .xml', weight: 0.05, test: (h) => ['xlsx', 'xls', 'xml'].includes(h.extension) },
];

/** Scores the file by the rules above over a bounded head; never throws, never expands an entity. */
export function detect(file: FileView): DetectResult {
  const head: Head = { rows: [], xml: '', extension: file.extension };
  if (file.container === 'zip' || file.container === 'ole') {
    const sheet = firstSheet(file);
    if ('error' in sheet) return { score: 0, reasons: [sheet.error] };
    head.rows = sheet.rows.slice(0, HEAD_ROWS).map((r) => r.slice(0, HEAD_COLUMNS));
  } else if (file.container === 'text') {
    const text = (file.text() ?? '').slice(0, READ_LIMITS.head_bytes);
    if (!isSpreadsheetMl(text)) return { score: 0, reasons: ['text that is not an Excel 2003 XML spreadsheet'] };
    head.xml = text;
    // The head's cells as rows, by a plain pattern: no XML parser, so no entity is ever expanded.
    head.rows = [...text.matchAll(/<Row[^>]*>([\s\S]*?)<\/Row>/g)].map((m) => [...m[1].matchAll(/<Data[^>]*>([^<]*)<\/Data>/g)].map((d) => d[1]));
  } else {
    return { score: 0, reasons: ['binary content'] };
  }
  const passed = RULES.filter((rule) => rule.test(head));
  return {
    score: Math.min(
      1,
      passed.reduce((sum, rule) => sum + rule.weight, 0),
    ),
    reasons: passed.map((rule) => rule.name),
  };
}
