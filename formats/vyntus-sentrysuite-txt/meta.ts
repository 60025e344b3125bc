import type { FormatMeta } from 'cpet-analysis-service/plugin';

/** Vyaire Vyntus CPX / SentrySuite tab-separated text export. */
export const meta = {
  id: 'vyntus-sentrysuite-txt',
  label: 'Vyaire Vyntus CPX / SentrySuite text export (tab separated)',
  vendor: 'Vyaire Medical (formerly CareFusion / Jaeger)',
  software: 'SentrySuite',
  extensions: ['txt'],
  media_types: ['text/plain', 'text/tab-separated-values'],
  detection:
    "An `ID-nummer:` (or ID-number/ID-Nummer/N° ID) line in the first five lines, a tab-separated header whose first cell is the time (Tid/Time/Zeit/Temps) and which holds V'O2, and a units row under it; the .txt extension is a small extra clue.",
  example_files: 1,
  notes:
    "Built on one real file (spiro's vyntus.txt: 7 one-minute averages). Its headers (ID-nummer, Tid, HF, BF, Last, g/dag) are Scandinavian, most likely Norwegian, although spiro labels the file German. " +
    'German, English and French labels are read from the real file with its labels translated by the tests (the words come from vendor conventions, not from a vendor file in those languages). ' +
    "Body mass is not in the export; when V'O2 and V'O2/kg are both present it is derived from their ratio and flagged.",
  variants: [
    { name: 'spiro-vyntus', description: 'Norwegian labels (ID-nummer, Tid, HF, BF), units row, 60-s averages', evidence: 'real_file' },
    { name: 'de-txt', description: 'the real file with German labels (ID-Nummer, Zeit, HF, AF)', evidence: 'generated_from_real_file' },
    { name: 'en-txt', description: 'the real file with English labels (ID-number, Time, Load, HR)', evidence: 'generated_from_real_file' },
    { name: 'fr-txt', description: 'the real file with French labels (N° ID, Temps, Charge, FC, FR, QR)', evidence: 'generated_from_real_file' },
    { name: 'decimal-comma', description: 'the real file with decimal commas', evidence: 'generated_from_real_file' },
    { name: 'utf16-crlf', description: 'the real file as UTF-16 LE with a BOM', evidence: 'generated_from_real_file' },
    { name: 'kpa-end-tidal', description: 'English labels, PETO2/PETCO2 in kPa, a load', evidence: 'synthetic' },
    { name: 'german-litres-cp1252', description: 'German labels, VO2 in L/min by the units row, cp1252, placeholder cells', evidence: 'synthetic' },
    { name: 'french-no-units-row', description: 'French labels, no units row (units from magnitude, flagged)', evidence: 'synthetic' },
  ],
} as const satisfies FormatMeta;
