import type { FormatMeta } from '../../src/formats/format-plugin.js';

export const meta = {
  id: 'cosmed-xlsx',
  label: 'COSMED Omnia or PFT Suite spreadsheet export (xlsx or xls; breath by breath or averaged)',
  vendor: 'COSMED',
  software: 'Omnia; PFT Suite (K4b2/Quark generation)',
  extensions: ['xlsx', 'xls'],
  media_types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/vnd.ms-excel'],
  detection:
    'A workbook whose first sheet starts with the metadata label "ID1" (Omnia) or "ID code:" (PFT Suite) in A1, with a data table whose row-1 header is "t" followed by COSMED column names (VO2, VCO2, VE, Rf/Af, R/RQ), a units row under it and an empty row 3; Omnia sheet names Daten/Ergebnisse or Data/Results add evidence.',
  example_files: 2,
  notes:
    'Built on two files: an Omnia export in German (10-s averages, truncated by its publisher) and a PFT Suite export in English (breath by breath, metadata blanked). The software is inferred from the layout: neither file names it. Omnia English names (Power, RQ, AT/RC in Results) come from a description of a file that could not be copied, not from a file the tests read. The .xls (BIFF) export is read through the same sheet reader; no vendor .xls was seen (a BIFF8 re-save of the Omnia file is tested). PFT Suite LT/RC metadata cells are empty in the only example and are not read.',
} as const satisfies FormatMeta;
