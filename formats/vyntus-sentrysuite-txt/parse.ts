import {
  bodyMassFromPerKg,
  buildRecording,
  locateTable,
  median,
  parserError,
  readTable,
  textSource,
  textTable,
  type FileView,
  type ParserFlag,
  type Recording,
  type SamplingMethod,
} from 'cpet-analysis-service/plugin';

const FORMAT_ID = 'vyntus-sentrysuite-txt';
/** SentrySuite puts an identifier line and a blank line above the header; 40 lines is ample. */
const HEADER_SEARCH_LINES = 40;

/**
 * Reads a SentrySuite text export: the header (line 3 in the real file) and its units row are
 * found and read by the shared table layer (names in every language the column dictionary holds);
 * what is SentrySuite's own is the missing end-tidal columns, the body mass from V'O2/kg and the
 * averaging read from the row timing.
 */
export function parse(file: FileView): Recording {
  const text = textTable(file, '\t');
  if (!text) throw parserError('the file is not text');
  const layout = locateTable(text.rows, { max_rows: HEADER_SEARCH_LINES });
  if (!layout) throw parserError('no tab-separated header with a time column and VO2/VCO2/VE in the first 40 lines', { line: 1 });
  const table = readTable(textSource(text), layout);
  const flags: ParserFlag[] = [...table.flags];
  const absent = { ...table.absent };
  if (!table.channels.PetO2 && !absent.PetO2) absent.PetO2 = 'no PETO2 column in this export';
  if (!table.channels.PetCO2 && !absent.PetCO2) absent.PetCO2 = 'no PETCO2 column in this export';

  // Body mass is not in the export; V'O2 / V'O2/kg gives it (spiro derives 68.1 the same way).
  const mass = table.vo2_per_kg && table.channels.VO2 ? bodyMassFromPerKg(table.channels.VO2.values, table.vo2_per_kg, 'mean') : null;
  const body_mass_kg = mass?.body_mass_kg ?? null;
  if (mass) flags.push({ code: 'body_mass_derived', detail: `body mass ${mass.body_mass_kg} kg is the mean of V'O2 / V'O2/kg over ${mass.rows} rows; the export does not state it` });

  return buildRecording({
    format: FORMAT_ID,
    time_s: table.time_s,
    channels: table.channels,
    absent,
    phase_per_row: table.phase_per_row,
    sampling_hint: samplingHint(table.time_s, flags),
    subject: body_mass_kg !== null ? { body_mass_kg } : {},
    flags,
  });
}

/**
 * SentrySuite writes either breaths or fixed averages. Rows on a regular grid of 5 s or more
 * (the real file: 00:56, then every full minute) are averages; otherwise the build infers it.
 */
function samplingHint(time_s: (number | null)[], flags: ParserFlag[]): { method?: SamplingMethod; averaging_s?: number | null } | undefined {
  const t = time_s.filter((x): x is number => x !== null);
  const steps = t.slice(1).map((x, i) => x - t[i]);
  if (steps.length < 2) return undefined;
  const step = median(steps);
  const onGrid = steps.filter((d) => Math.abs(d - step) <= 0.5).length / steps.length;
  if (step < 5 || onGrid < 0.8) return undefined;
  flags.push({ code: 'sampling_from_layout', detail: `rows every ${step} s (${Math.round(onGrid * 100)} % of intervals): read as ${step}-s averages` });
  return { method: 'averaged', averaging_s: step };
}
