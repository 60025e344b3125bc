/**
 * Cortex MetaSoft layouts generated from the two real exports (German): the xlsx and the
 * SpreadsheetML with and without the metadata blocks above the data table, both in English, the
 * SpreadsheetML's rows as an xlsx, and the xlsx re-saved as .xls.
 */
import { readSpreadsheetMl } from '../../../src/formats/safe-xml.js';
import { fixtureInput } from '../summary-snapshot.js';
import { readWorkbook, renamed, xlsOf, xlsxOf, type SheetGrid } from './grids.js';
import type { Variant } from './variant.js';

const FAMILY = 'cortex-metasoft';
const XML = 'xml2003-de';
const XLSX = 'xlsx-de-anonymised';

/** MetaSoft German to English, as peer readers document its English exports (no English file was seen). */
const EN: Record<string, string> = {
  Stammdaten: 'Administrative Data',
  Geschlecht: 'Sex',
  männlich: 'male',
  Größe: 'Height',
  Gewicht: 'Weight',
  HF: 'HR',
  AF: 'BF',
  P: 'WR',
  R: 'RER',
  FETT: 'FAT',
  Fett: 'Fat',
  Ruhe: 'Rest',
  Erwärmung: 'Warm-up',
};

function xml(): string {
  return fixtureInput(FAMILY, XML).bytes.toString('utf8');
}

/** Every `<Row>` of the SpreadsheetML from the data table's header on; the metadata and summary rows above it are dropped. */
function xmlDataTableOnly(): string {
  const text = xml();
  const rows = [...text.matchAll(/<Row(?:\/>|>[\s\S]*?<\/Row>)/g)];
  const header = rows.findIndex((m) => /<Data[^>]*>t<\/Data>[\s\S]*<Data[^>]*>Phase<\/Data>/.test(m[0]));
  const first = rows[0].index as number;
  const from = rows[header].index as number;
  return text.slice(0, first) + text.slice(from);
}

function xmlEnglish(): string {
  let text = xml();
  for (const [de, en] of Object.entries(EN)) text = text.split(`>${de}</Data>`).join(`>${en}</Data>`);
  return text;
}

function workbook(): SheetGrid[] {
  return readWorkbook(fixtureInput(FAMILY, XLSX).bytes);
}

/** The xlsx from its header row (`t`, `VT`, `AF` ...) down. */
function xlsxDataTableOnly(): SheetGrid[] {
  const [sheet] = workbook();
  const header = sheet.data.findIndex((r) => r[0] === 't');
  return [{ name: sheet.name, data: sheet.data.slice(header) }];
}

const variant = (name: string, filename: string, original: string, bytes: () => Buffer): Variant => ({ family: FAMILY, name, filename, bytes, original, format: FAMILY, time: 'same' });

export const CORTEX_VARIANTS: readonly Variant[] = [
  variant('xml-data-table-only', 'metasoft-table.xml', XML, () => Buffer.from(xmlDataTableOnly(), 'utf8')),
  variant('xml-en', 'metasoft-en.xml', XML, () => Buffer.from(xmlEnglish(), 'utf8')),
  variant('xml-as-xlsx', 'metasoft-from-xml.xlsx', XML, () => xlsxOf([{ name: 'MetasoftStudio', data: readSpreadsheetMl(xml())[0].rows }])),
  variant('xlsx-data-table-only', 'metasoft-table.xlsx', XLSX, () => xlsxOf(xlsxDataTableOnly())),
  variant('xlsx-en', 'metasoft-en.xlsx', XLSX, () => xlsxOf(workbook().map((s) => ({ name: s.name, data: renamed(s.data, EN) })))),
  variant('xlsx-data-table-only-en', 'metasoft-table-en.xlsx', XLSX, () => xlsxOf(xlsxDataTableOnly().map((s) => ({ name: s.name, data: renamed(s.data, EN) })))),
  variant('xlsx-as-xls', 'metasoft.xls', XLSX, () => xlsOf(workbook())),
];
