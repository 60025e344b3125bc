import type { FormatMeta } from '../../src/formats/format-plugin.js';

/** Vyaire Vyntus CPX / SentrySuite tab-separated text export. */
export const meta = {
  id: 'vyntus-sentrysuite-txt',
  label: 'Vyaire Vyntus CPX / SentrySuite text export (tab separated)',
  vendor: 'Vyaire Medical (formerly CareFusion / Jaeger)',
  software: 'SentrySuite',
  extensions: ['txt'],
  media_types: ['text/plain', 'text/tab-separated-values'],
  detection:
    'An `ID-nummer:` (or ID-number/ID-Nummer/N° ID) line in the first five lines, a tab-separated header whose first cell is the time (Tid/Time/Zeit/Temps) and which holds V\'O2, and a units row under it; the .txt extension is a small extra clue.',
  example_files: 1,
  notes:
    "Built on one real file (spiro's vyntus.txt: 7 one-minute averages). Its headers (ID-nummer, Tid, HF, BF, Last, g/dag) are Scandinavian, most likely Norwegian, although spiro labels the file German. " +
    'The English, German and French header names in the alias table come from general vendor conventions, not from a real file. ' +
    'Body mass is not in the export; when V\'O2 and V\'O2/kg are both present it is derived from their ratio and flagged.',
} as const satisfies FormatMeta;
