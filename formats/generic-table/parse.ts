/**
 * Reads any table whose columns the column dictionary recognises: a lab's own CSV, a re-saved or
 * renamed export, a spreadsheet a researcher kept. Every column's fate and every unit decision go
 * into one `column_mapping` flag, so the user can check what was read as what.
 */
import { bodyMassFromPerKg, buildRecording, parserError, readTable, type FileView, type ParserFlag, type Recording, type TableColumn } from 'cpet-analysis-service/plugin';
import { findTable } from './find-table.js';

const FORMAT_ID = 'generic-table';

/** How each unit was decided, in words for the mapping flag. */
const SOURCES = {
  'units row': 'from the units row',
  header: 'from the header',
  vendor: 'by convention',
  values: 'from its values',
  assumed: 'assumed',
  canonical: 'the only unit in use',
} as const;

/** Reads the first recognised table of the file; throws PARSER_ERROR when there is none. */
export function parse(file: FileView): Recording {
  const found = findTable(file, false);
  if (!found) throw parserError('no table with a time column and VO2 with VCO2, or VE, in the first 80 rows');
  const table = readTable(found.source, found.layout);
  const flags: ParserFlag[] = [{ code: 'column_mapping', detail: `read as a generic table (header on ${found.where}); check each column: ${table.columns.map(describe).join('; ')}` }, ...table.flags];

  const mass = table.vo2_per_kg && table.channels.VO2 ? bodyMassFromPerKg(table.channels.VO2.values, table.vo2_per_kg, 'median') : null;
  const body_mass_kg = mass?.body_mass_kg ?? null;
  if (mass) flags.push({ code: 'body_mass_derived', detail: `body mass ${mass.body_mass_kg} kg is the median ratio of absolute to per-kg VO2 over ${mass.rows} rows; the table does not state it` });

  return buildRecording({
    format: FORMAT_ID,
    time_s: table.time_s,
    channels: table.channels,
    absent: table.absent,
    phase_per_row: table.phase_per_row,
    subject: body_mass_kg !== null ? { body_mass_kg } : {},
    flags,
  });
}

/** One column in the mapping flag: `VO2 → VO2 in mL/min (from its values)`, `BR → not read (breathing reserve)`. */
function describe(column: TableColumn): string {
  const name = column.header === '' ? `column ${column.index + 1}` : column.header;
  if (column.reads === 'time') return `${name} → time`;
  if (column.reads === 'VO2/kg') return `${name} → VO2 per kg (${column.note ?? 'by its name'})`;
  if (column.reads === 'phase') return `${name} → phase`;
  if (column.reads === null) return `${name} → not read (${column.note ?? 'not in the column dictionary'})`;
  const unit = column.unit ? ` in ${column.unit.unit_in} (${SOURCES[column.unit.source]})` : '';
  return `${name} → ${column.reads}${unit}`;
}
