import type { FormatMeta } from 'cpet-analysis-service/plugin';

/** pyoxynet's 1-Hz interpolated CSV (the Oxynet project's test-data shape). */
export const meta = {
  id: 'pyoxynet-csv',
  label: 'pyoxynet 1-Hz CSV (Oxynet project; columns with an _I suffix, already interpolated)',
  vendor: 'Oxynet project (A. Zignoli)',
  software: 'pyoxynet',
  extensions: ['csv'],
  media_types: ['text/csv'],
  detection:
    'A comma-separated header with interpolated columns `VO2_I`, `VCO2_I`, `VE_I` (and usually `PetO2_I`, `PetCO2_I`, `VEVO2_I`, `domain`), often led by an unnamed pandas index column and `time`. The .csv extension is a small extra clue.',
  example_files: 1,
  notes:
    "Built on one real file (pyoxynet's data_test.csv: one test, 775 rows at 1 Hz). The data were interpolated to 1 Hz upstream, so breath timing is lost: sampling is reported as 1-s averaged, flagged. " +
    'VEVO2_I/VEVCO2_I (stored as fractions) are not imported (ratios are computed downstream); the `domain` label column is evaluation ground truth and is never read into the recording; `gender` is not read (its -1/1 coding is undocumented).',
  variants: [
    { name: 'pyoxynet-data-test', description: 'comma-separated, pandas index column, 1 Hz', evidence: 'real_file' },
    { name: 'semicolon-decimal-comma', description: 'its first 60 rows re-saved with semicolons and decimal commas', evidence: 'generated_from_real_file' },
  ],
} as const satisfies FormatMeta;
