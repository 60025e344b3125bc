import type { FormatMeta } from 'cpet-analysis-service/plugin';

/** A tab-separated breath-by-breath export with MGC Diagnostics Breeze's column set. */
export const meta = {
  id: 'mgc-breeze-txt',
  label: 'MGC Diagnostics Breeze-style tab-separated text export (vendor inferred from the layout)',
  vendor: 'MGC Diagnostics (inferred)',
  software: 'Breeze (inferred; not named in the file)',
  extensions: ['txt'],
  media_types: ['text/plain', 'text/tab-separated-values'],
  detection:
    'A tab-separated first line with `Time`, `Ex Time` and `Time (Clock)`, two columns both named `VO2`, and `Vt BTPS`/`VE BTPS`, `PETO2`/`PETCO2`; data rows (after a units row when there is one) start with an m:ss time. The .txt extension is a small extra clue.',
  example_files: 1,
  notes:
    "Built on one real file (gasExchangeR's Aaron_VO2max.txt). The vendor is inferred from the layout (MGC Breeze's column set); the file names no vendor or software. " +
    'With a units row under the header (`(min) (min) (Clock) (MPH) (%) (mL/kg/min) (mL/min) ...`), units come from it; without one (the real file), from the layout and magnitude, each with a parser flag: VO2 (mL/kg/min then mL/min), Vt BTPS mL, speed mph (a US cart; the ACSM running equation only fits mph). Body mass is derived from the two VO2 columns.',
  variants: [
    { name: 'gasexchanger-aaron', description: 'one header row, no units row, two VO2 columns, treadmill', evidence: 'real_file' },
    { name: 'units-row-txt', description: 'the real file with a units row under the header ((min) (min) (Clock) (MPH) (%) (mL/kg/min) (mL/min) ...)', evidence: 'generated_from_real_file' },
    { name: 'recovery-decimal-comma', description: 'decimal commas, LF, a recovery phase after exercise', evidence: 'synthetic' },
  ],
} as const satisfies FormatMeta;
