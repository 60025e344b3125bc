import { nameKey, textHead, unitKey, type DetectResult, type FileView } from 'cpet-analysis-service/plugin';
import { metadataLabel, timeColumn } from './sheet-layout.js';

/** Rows of the first sheet (or lines of text) that detection reads: the metadata block and the top of the data table. */
const HEAD_ROWS = 10;
/** COSMED data column names of which at least three follow `t` in row 1 (German, English and Italian spellings). */
const COSMED_NAMES = new Set(['vo2', 'vco2', 've', 'rf', 'af', 'fr', 'r', 'rq', 'qr', 'vt', 'vo2/kg', 'hr', 'hf', 'fc', 'peto2', 'petco2', 'peo2', 'peco2']);
/** Names only COSMED writes, in every export seen: energy columns, the relative clock, the log of VE, expired gas volumes. */
const COSMED_OWN = new Set(['eekc', 'eeh', 'eem', 'nprq', 't rel', 'logve', 'gps dist', 'o2exp', 'co2exp', 'iv', 'phase time', 'phasenzeit']);
/** Unit spellings of COSMED's units row: `L(btps)`, `---`, `b/min`, `Kmh`, `mL/min/Kg`. */
const COSMED_UNITS = new Set(['l(btps)', '---', 'b/min', 'kmh', 'kmh*10', 'ml/min/kg']);

/** What the rules look at: the first rows, every sheet name, the extension. */
interface Head {
  rows: unknown[][];
  sheetNames: string[];
  extension: string;
}

/** The data table's row-1 names (as dictionary keys) from the `t` column on, or [] when there is no `t` header. */
function tableNames(head: Head): string[] {
  const t = timeColumn(head.rows[0]);
  return t >= 0 ? head.rows[0].slice(t, t + 130).map(nameKey) : [];
}

function tableUnits(head: Head): string[] {
  const t = timeColumn(head.rows[0]);
  return t >= 0
    ? (head.rows[1] ?? []).slice(t, t + 130).map((c) =>
        String(c ?? '')
          .trim()
          .toLowerCase(),
      )
    : [];
}

/** Ordered rules, each with its weight; the vendor's literal text is quoted in the comments. */
const RULES: readonly { name: string; weight: number; test: (head: Head) => boolean }[] = [
  // A1: Omnia writes "ID1", PFT Suite "ID code:".
  { name: 'A1 is "ID1" or "ID code:"', weight: 0.35, test: (h) => ['id1', 'id code'].includes(metadataLabel(h.rows[0]?.[0])) },
  // Row 1 from the `t` column on: "t", "Rf"/"Af", "VT", "VE", "VO2", "VCO2", "R" ...
  { name: 'data table headed "t" with COSMED column names', weight: 0.25, test: (h) => tableNames(h).filter((n) => COSMED_NAMES.has(n)).length >= 3 },
  // Row 1 holds names no other vendor writes: "EEkc", "npRQ", "t Rel", "LogVE" (Omnia, PFT Suite), "IV", "O2exp" (PFT Suite, K5).
  { name: "COSMED's own column names (EEkc, npRQ, t Rel, LogVE, IV, O2exp)", weight: 0.2, test: (h) => tableNames(h).filter((n) => COSMED_OWN.has(n)).length >= 2 },
  // Row 2 holds units with COSMED's spellings: "s" or "hh:mm:ss" under t, "L(btps)", "---", "b/min", "Kmh".
  {
    name: "a units row in COSMED's spellings under t",
    weight: 0.15,
    test: (h) => {
      const units = tableUnits(h);
      return (units[0] === 's' || units[0] === 'hh:mm:ss') && units.some((u) => COSMED_UNITS.has(u) || COSMED_UNITS.has(unitKey(u)));
    },
  },
  // Metadata labels in column A: "Nachname", "Last name:", "Last Name", "Cognome".
  { name: 'metadata labels in column A', weight: 0.1, test: (h) => h.rows.some((r) => ['nachname', 'last name', 'cognome'].includes(metadataLabel(r[0]))) },
  // Omnia sheet names: "Daten"/"Ergebnisse" (German), "Data"/"Results" (English), "Dati"/"Risultati" (Italian).
  {
    name: 'Omnia sheet names',
    weight: 0.15,
    test: (h) =>
      [
        ['daten', 'ergebnisse'],
        ['data', 'results'],
        ['dati', 'risultati'],
      ].some(([a, b]) => h.sheetNames.includes(a) && h.sheetNames.includes(b)),
  },
  // The extension is one small clue.
  { name: 'extension .xlsx, .xls or .csv', weight: 0.05, test: (h) => ['xlsx', 'xls', 'csv'].includes(h.extension) },
];

/** Scores a workbook (first sheet) or delimited text by the rules above over its first rows; never throws. */
export function detect(file: FileView): DetectResult {
  const head: Head = { rows: [], sheetNames: [], extension: file.extension };
  if (file.container === 'zip' || file.container === 'ole') {
    try {
      const sheets = file.sheetHeads();
      if (!sheets?.[0]) return { score: 0, reasons: ['no sheet'] };
      head.rows = sheets[0].rows.slice(0, HEAD_ROWS);
      head.sheetNames = sheets.map((s) => s.name.toLowerCase());
    } catch (err) {
      return { score: 0, reasons: [`workbook unreadable: ${(err as Error).message}`] };
    }
  } else {
    const text = textHead(file, HEAD_ROWS);
    if (!text) return { score: 0, reasons: ['neither a workbook nor text'] };
    head.rows = text.rows;
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
