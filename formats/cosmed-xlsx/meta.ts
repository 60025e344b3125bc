import type { FormatMeta } from 'cpet-analysis-service/plugin';

export const meta = {
  id: 'cosmed-xlsx',
  label: 'COSMED Omnia or PFT Suite export (xlsx, xls or CSV; with its metadata block or the data table only; breath by breath or averaged)',
  vendor: 'COSMED',
  software: 'Omnia; PFT Suite (K4b2/Quark generation); the CSV OMNIA writes for K5 and Quark',
  extensions: ['xlsx', 'xls', 'csv'],
  media_types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel', 'text/csv'],
  detection:
    'A data table whose row-1 header is "t" followed by COSMED column names (VO2, VCO2, VE, Rf/Af/FR, R/RQ/QR), names only COSMED writes (EEkc, npRQ, t Rel, LogVE, IV, O2exp) and a units row in its spellings (s or hh:mm:ss under t, L(btps), ---, b/min, Kmh); the metadata label "ID1" (Omnia) or "ID code:" (PFT Suite) in A1 and Omnia sheet names (Daten/Ergebnisse, Data/Results, Dati/Risultati) add evidence.',
  example_files: 2,
  notes:
    'Built on two files: an Omnia export in German (10-s averages, truncated by its publisher) and a PFT Suite export in English (breath by breath, metadata blanked). The software is inferred from the layout: neither file names it. ' +
    'English and Italian names, the data table without its metadata block (xlsx and CSV, as OMNIA writes it for K5/Quark) and a BIFF8 .xls are read from layouts the tests generate from those two files; no vendor file in those layouts was seen. ' +
    'PFT Suite LT/RC metadata cells are empty in the only example and are not read.',
  variants: [
    { name: 'omnia-de-10s-averages', description: 'Omnia, German, metadata block beside the data table, xlsx, 10-s averages', evidence: 'real_file' },
    { name: 'pft-suite-en-breath-by-breath', description: 'PFT Suite, English, metadata block beside the data table, xlsx, breath by breath', evidence: 'real_file' },
    { name: 'omnia-en-xlsx', description: 'Omnia in English (Data/Results, Rf, HR, RQ, PetO2, AT/RC)', evidence: 'generated_from_real_file' },
    { name: 'omnia-it-xlsx', description: 'Omnia in Italian (Dati/Risultati, FR, FC, QR, Velocità, Pendenza, Fase)', evidence: 'generated_from_real_file' },
    { name: 'omnia-de-xls', description: 'Omnia re-saved as BIFF8 .xls', evidence: 'generated_from_real_file' },
    { name: 'omnia-de-data-table-only-xlsx', description: 'the data table alone (no metadata block), xlsx', evidence: 'generated_from_real_file' },
    { name: 'omnia-de-data-table-only-csv', description: 'the data table alone as CSV, t in seconds', evidence: 'generated_from_real_file' },
    {
      name: 'pft-en-data-table-only-csv',
      description: 'the data table alone as COSMED writes it to CSV from OMNIA/K5/Quark: t, Rf, VT, VE, IV, VO2, VCO2, RQ, O2exp over s, 1/min, L(btps), L/min, mL',
      evidence: 'generated_from_real_file',
    },
    { name: 'pft-en-data-table-only-xlsx', description: 'the data table alone, xlsx, t as hh:mm:ss text', evidence: 'generated_from_real_file' },
    { name: 'pft-de-data-table-only-semicolon-csv', description: 'the data table alone in German (Af, HF, PeO2), semicolons and decimal commas', evidence: 'generated_from_real_file' },
  ],
} as const satisfies FormatMeta;
