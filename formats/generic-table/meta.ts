import type { FormatMeta } from 'cpet-analysis-service/plugin';

/** Any CSV, TSV or spreadsheet table whose columns the column dictionary recognises. */
export const meta = {
  id: 'generic-table',
  label: 'Any CSV, TSV or spreadsheet table whose columns the column dictionary recognises (last resort)',
  vendor: 'none',
  software: "any (a lab's own table, a re-saved or renamed export)",
  extensions: ['csv', 'tsv', 'txt', 'xlsx', 'xls'],
  media_types: ['text/csv', 'text/tab-separated-values', 'text/plain', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel'],
  detection:
    'Consulted only when no vendor format reaches 0.5: a header row within the first 80 rows (of the text, or of a sheet) that names a time column and VO2 with VCO2, or VE, in English, German, Italian, French, Spanish, Dutch or a Nordic language. It scores 0.5 at most, below any vendor match.',
  example_files: 0,
  notes:
    'A last resort: format_confidence is "last_resort" and the column_mapping parser flag lists what each column was read as and how each unit was decided (units row, header text, or the values\' range). ' +
    'Speed without a unit is assumed km/h (flagged): mph cannot be told from the values. Columns the dictionary does not know are named in a flag. Built and tested on tables the tests generate from a real MGC Breeze-style export, not on a real lab table.',
  last_resort: true,
  variants: [
    { name: 'lower-snake-case-csv', description: 'lower-case and snake_case names (time, vo2, vo2_abs, vt.btps, ve.btps, peto2), times as m:ss', evidence: 'generated_from_real_file' },
    { name: 'readr-renamed-duplicates-csv', description: "readr's renamed duplicates (VO2...4, VO2...5), times as hh:mm:ss", evidence: 'generated_from_real_file' },
    { name: 'decimal-minutes-csv', description: 'times as decimal minutes with no unit, speed_mph with the unit in its name', evidence: 'generated_from_real_file' },
    { name: 'negative-rest-times-csv', description: 'times from the start of exercise, negative in rest', evidence: 'generated_from_real_file' },
    { name: 'semicolon-decimal-comma-csv', description: 'a European re-save: semicolons, decimal commas', evidence: 'generated_from_real_file' },
    { name: 'excel-times-xlsx', description: 'a workbook with times as Excel times (fractions of a day)', evidence: 'generated_from_real_file' },
    { name: 'excel-m-ss-as-h-mm-xlsx', description: 'a workbook where m:ss was typed into Excel and stored as h:mm', evidence: 'generated_from_real_file' },
  ],
} as const satisfies FormatMeta;
