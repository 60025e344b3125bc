import { normaliseHeader } from '../../src/formats/columns.js';
import type { FileView, Sheet } from '../../src/formats/file-view.js';
import type { DetectResult } from '../../src/formats/format-plugin.js';
import { metadataLabel, timeColumn } from './sheet-layout.js';

/** Rows of the first sheet that detection reads: the metadata block and the top of the data table. */
const HEAD_ROWS = 10;
/** COSMED data column names of which at least three follow `t` in row 1. */
const COSMED_NAMES = new Set(['vo2', 'vco2', 've', 'rf', 'af', 'r', 'rq', 'vt', 'vo2/kg', 'hr', 'hf', 'peto2', 'petco2', 'peo2', 'peco2']);

/** What the rules look at: the first sheet's first rows, every sheet name, the extension. */
interface Head {
  rows: unknown[][];
  sheetNames: string[];
  extension: string;
}

/** The data table's row-1 names from the `t` column on, or [] when there is no `t` header. */
function tableNames(head: Head): string[] {
  const t = timeColumn({ name: '', rows: head.rows });
  return t >= 0 ? head.rows[0].slice(t, t + 30).map(normaliseHeader) : [];
}

/** Ordered rules, each with its weight; the vendor's literal text is quoted in the comments. */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  // A1: Omnia writes "ID1", PFT Suite "ID code:".
  { name: 'A1 is "ID1" or "ID code:"', weight: 0.35, test: (h) => ['id1', 'id code'].includes(metadataLabel(h.rows[0]?.[0])) },
  // Row 1 from the `t` column on: "t", "Rf"/"Af", "VT", "VE", "VO2", "VCO2", "R" ...
  { name: 'data table headed "t" with COSMED column names', weight: 0.25, test: (h) => tableNames(h).filter((n) => COSMED_NAMES.has(n)).length >= 3 },
  // Row 2 holds units ("s" or "hh:mm:ss" under t) and row 3 is empty in the data columns.
  {
    name: 'units row under t, row 3 empty',
    weight: 0.1,
    test: (h) => {
      const t = timeColumn({ name: '', rows: h.rows });
      const unit = normaliseHeader(h.rows[1]?.[t]);
      return t >= 0 && (unit === 's' || unit === 'hh:mm:ss') && (h.rows[2]?.slice(t, t + 10) ?? []).every((c) => c === null || c === '');
    },
  },
  // Metadata labels in column A: "Nachname", "Last name:", "Last Name".
  { name: 'metadata labels in column A', weight: 0.1, test: (h) => h.rows.some((r) => ['nachname', 'last name'].includes(metadataLabel(r[0]))) },
  // Omnia sheet names: "Daten"/"Ergebnisse" (German) or "Data"/"Results" (English).
  {
    name: 'Omnia sheet names',
    weight: 0.15,
    test: (h) => (h.sheetNames.includes('daten') && h.sheetNames.includes('ergebnisse')) || (h.sheetNames.includes('data') && h.sheetNames.includes('results')),
  },
  // The extension is one small clue.
  { name: 'extension .xlsx or .xls', weight: 0.05, test: (h) => h.extension === 'xlsx' || h.extension === 'xls' },
];

/** Scores a workbook by the rules above over the first sheet's first rows; never throws. */
export function detect(file: FileView): DetectResult {
  if (file.container !== 'zip' && file.container !== 'ole') return { score: 0, reasons: ['not a workbook'] };
  let sheets: Sheet[] | null;
  try {
    sheets = file.sheets();
  } catch (err) {
    return { score: 0, reasons: [`workbook unreadable: ${(err as Error).message}`] };
  }
  if (!sheets?.[0]) return { score: 0, reasons: ['no sheet'] };
  const head: Head = { rows: sheets[0].rows.slice(0, HEAD_ROWS), sheetNames: sheets.map((s) => s.name.toLowerCase()), extension: file.extension };
  const passed = RULES.filter((rule) => rule.test(head));
  return { score: Math.min(1, passed.reduce((sum, rule) => sum + rule.weight, 0)), reasons: passed.map((rule) => rule.name) };
}
