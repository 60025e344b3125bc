import type { FormatMeta } from 'cpet-analysis-service/plugin';

/** ZAN (nSpire Health) breath-by-breath `.dat` INI-style text export. */
export const meta = {
  id: 'zan-dat',
  label: 'ZAN (nSpire) .dat breath-by-breath INI text export',
  vendor: 'ZAN Messgeräte (now nSpire Health)',
  software: 'unknown (ZAN GPI; no software name or version in the file)',
  extensions: ['dat'],
  media_types: ['text/plain'],
  detection:
    'The first line is `[person]`, followed by a `[parameter]` section of `P=<id>,<divisor>,<name>` lines and a `[Data]` section of `B<n>=` rows; the .dat extension (or none, as ZAN often writes `EXEDxxx`) is a small extra clue.',
  example_files: 1,
  notes:
    "Built on one real file (spiro's zan_gxt, a German treadmill test). VE, RF and VT are derived from the inspired volume and the breath times, as spiro does; the export has no PetO2/PetCO2. " +
    "On a treadmill test the cart's `Last` (W) column is not used as Load (see README).",
  variants: [
    { name: 'spiro-zan-gxt', description: 'German treadmill test, ISO-8859-1, CRLF', evidence: 'real_file' },
    { name: 'cycle-corrupt-tail', description: 'a cycle test with a corrupt tail', evidence: 'synthetic' },
  ],
} as const satisfies FormatMeta;
