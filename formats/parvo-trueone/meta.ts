import type { FormatMeta } from 'cpet-analysis-service/plugin';

export const meta = {
  id: 'parvo-trueone',
  label: 'Parvo Medics TrueOne 2400 export (CSV, breath by breath or binned; xlsx re-save of the Excel export)',
  vendor: 'Parvo Medics',
  software: 'TrueOne 2400 (OUSW)',
  extensions: ['csv', 'xlsx', 'xls'],
  media_types: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel'],
  detection:
    'A header block with "Patient Information" and "Base Values for Sampling", then a "==========" line, four header lines (markers, names, STPD/BTPS qualifiers, units) and a "----------" line; CSV cells are ", "-separated and quoted, space-padded.',
  example_files: 3,
  notes:
    'Built on three files from one lab (two CSVs, binned and breath by breath, and one xlsx re-saved from the Excel export). The original .XLS (BIFF) export was not seen; it is read through the same sheet reader when its layout matches (a BIFF8 re-save of the xlsx is tested). VE written STPD is converted to BTPS with the file\'s own "STPD to BTPS" factor. Event labels only set phase starts (Warm Up, Start Exercise, Stop Exercise, Recovery); their free text is dropped, as are name, file number and test date.',
  variants: [
    { name: 'csv-binned', description: 'CSV, full header block, binned (about 15 s)', evidence: 'real_file' },
    { name: 'csv-breath-by-breath', description: 'CSV, full header block, breath by breath', evidence: 'real_file' },
    { name: 'xlsx-30s-bins', description: 'xlsx re-save of the Excel export, 30-s bins, m:ss TIME', evidence: 'real_file' },
    { name: 'csv-fewer-metadata-lines', description: 'the CSV without the patient, protocol and base-value lines', evidence: 'generated_from_real_file' },
    { name: 'csv-more-metadata-lines', description: 'the CSV with extra header lines (address, diagnosis, medications, comments)', evidence: 'generated_from_real_file' },
    { name: 'csv-as-xlsx', description: "the CSV's cells in an xlsx", evidence: 'generated_from_real_file' },
    { name: 'xlsx-as-csv', description: 'the xlsx saved as a plain CSV (no padding, quotes only where needed)', evidence: 'generated_from_real_file' },
    { name: 'xlsx-as-xls', description: 'the xlsx re-saved as BIFF8 .xls', evidence: 'generated_from_real_file' },
  ],
} as const satisfies FormatMeta;
