/**
 * Parvo Medics TrueOne layouts generated from the three real exports: the binned CSV with fewer and
 * with more metadata lines above its column header, its cells as an xlsx; the xlsx saved as a plain
 * CSV (as Excel writes it: no padding, quotes only where needed) and re-saved as .xls.
 */
import { fixtureInput } from '../summary-snapshot.js';
import { readWorkbook, textOf, xlsOf, xlsxOf, type Grid } from './grids.js';
import { splitLines } from '../../../src/formats/table/delimited-text.js';
import type { Variant } from './variant.js';

const FAMILY = 'parvo-trueone';
const BINNED = 'csv-binned';
const XLSX = 'xlsx-30s-bins';

function csvLines(): string[] {
  return fixtureInput(FAMILY, BINNED).bytes.toString('latin1').split('\r\n');
}

/** The header block without the patient and protocol lines and the base values (the build stamp, lab, date and test environment stay). */
function fewerMetadataLines(): Buffer {
  const drop = new Set(['"Patient Information"', '"Test Protocol"', '"Base Values for Sampling"']);
  const lines = csvLines();
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    if (drop.has(line)) skipping = true;
    else if (line === '') skipping = false;
    if (!skipping) out.push(line);
  }
  return Buffer.from(out.join('\r\n'), 'latin1');
}

/** The header block with lines another lab's TrueOne adds: a second address line, diagnosis, medications, comments. */
function moreMetadataLines(): Buffer {
  const out: string[] = [];
  for (const line of csvLines()) {
    out.push(line);
    if (line.startsWith('"Environmental Physiology Lab')) out.push('"2329 West Mall, Vancouver BC"');
    if (line.startsWith('"Tech"')) out.push('"Diagnosis", "none"', '"Medications", "none", "Beta blockers", "no"', '"Comments", "interval session, 5 x 265 W"');
  }
  return Buffer.from(out.join('\r\n'), 'latin1');
}

/** The CSV's cells in a workbook: numbers as numbers, strings as written (padded). */
function csvAsWorkbook(): Buffer {
  const { rows } = splitLines(csvLines(), ',');
  const grid: Grid = rows.map((r) => r.map((c) => (c.trim() !== '' && Number.isFinite(Number(c)) ? Number(c) : c)));
  return xlsxOf([{ name: 'parvo_binned', data: grid }]);
}

const variant = (name: string, filename: string, original: string, bytes: () => Buffer): Variant => ({ family: FAMILY, name, filename, bytes, original, format: FAMILY, time: 'same' });

export const PARVO_VARIANTS: readonly Variant[] = [
  variant('csv-fewer-metadata-lines', 'parvo-short.csv', BINNED, fewerMetadataLines),
  variant('csv-more-metadata-lines', 'parvo-long.csv', BINNED, moreMetadataLines),
  variant('csv-as-xlsx', 'parvo-binned.xlsx', BINNED, csvAsWorkbook),
  variant('xlsx-as-csv', 'parvo-excel.csv', XLSX, () => textOf(readWorkbook(fixtureInput(FAMILY, XLSX).bytes)[0].data)),
  variant('xlsx-as-xls', 'parvo-excel.xls', XLSX, () => xlsOf(readWorkbook(fixtureInput(FAMILY, XLSX).bytes))),
];
