import type { FormatMeta } from 'cpet-analysis-service/plugin';

/** The JSON the Exercise Thresholds app (Oxynet project) reads and writes. */
export const meta = {
  id: 'exercise-threshold-app-json',
  label: "Exercise Thresholds app JSON (Oxynet project): breath-by-breath data with the operator's LT and RCP",
  vendor: 'Oxynet project (A. Zignoli)',
  software: 'Exercise Thresholds app',
  extensions: ['json'],
  media_types: ['application/json'],
  detection:
    'JSON text (an array of tests or one test object) whose test has a `data` array of objects starting with `"t"`, with `VO2`/`VCO2` per breath and `LT`/`RCP`/`VO2max` keys. Detected from the text of the head, so a cut file is still recognised (and then refused as unreadable).',
  example_files: 1,
  notes:
    "Built on one real file (pyoxynet's exercise_threshold_app_test.json: one test, 394 breaths, t from -240 s). Only the first test of an array is read (flagged when there are more). " +
    'LT and RCP (VO2 in mL/min) become embedded thresholds VT1/VT2, never channels; VO2max and the per-breath VE/VO2 and VE/VCO2 are not read (ratios are computed downstream).',
  variants: [
    { name: 'pyoxynet-app-test', description: 'one test object in an array, t from -240 s', evidence: 'real_file' },
    { name: 'array-of-two-tests', description: 'the real breaths split into two tests', evidence: 'generated_from_real_file' },
    { name: 'single-object-litres-kpa', description: 'a single test object with VO2 in L/min and end-tidal kPa', evidence: 'synthetic' },
  ],
} as const satisfies FormatMeta;
