import {
  bodyMassFromPerKg,
  buildRecording,
  locateTable,
  nameKey,
  parserError,
  readTable,
  textSource,
  textTable,
  type FileView,
  type ParserFlag,
  type PhaseName,
  type Recording,
} from 'cpet-analysis-service/plugin';

const FORMAT_ID = 'mgc-breeze-txt';

/**
 * The cart's convention for a column the file gives no unit: speed in mph. A US cart; the ACSM
 * running equation (ACSM's Guidelines, 2006) fits the real file's VO2 at each speed only in mph
 * (10 mph at 1 % needs ~60 mL/kg/min, 10 km/h ~38; the file shows ~52 near 10).
 */
const VENDOR_UNITS = {
  Speed: { unit: 'mph', reason: 'a US cart; VO2 at each speed fits the ACSM running equation only in mph' },
};

/**
 * Reads an MGC Breeze-style tab-separated export: one header row, with or without a units row
 * under it (`(min) (min) (Clock) (MPH) ...`), read by the shared table layer. What is Breeze's own:
 * speed in mph when no unit is written, phases from `Ex Time`, and the body mass from the two VO2
 * columns (per kg and absolute).
 */
export function parse(file: FileView): Recording {
  const text = textTable(file, '\t');
  if (!text) throw parserError('the file is not text');
  const layout = locateTable(text.rows, { max_rows: 5 });
  if (!layout) throw parserError('no header with Time and VO2/VCO2/VE on the first lines', { line: 1 });
  const table = readTable(textSource(text), layout, { units: VENDOR_UNITS });
  const flags: ParserFlag[] = [...table.flags];
  const absent = { ...table.absent };
  if (!table.channels.Load && !absent.Load) absent.Load = 'treadmill export: no work-rate column';

  // Body mass: the median ratio of absolute to per-kg VO2 (the export does not state it).
  const mass = table.vo2_per_kg && table.channels.VO2 ? bodyMassFromPerKg(table.channels.VO2.values, table.vo2_per_kg, 'median') : null;
  const body_mass_kg = mass?.body_mass_kg ?? null;
  if (mass) flags.push({ code: 'body_mass_derived', detail: `body mass ${mass.body_mass_kg} kg is the median ratio of the two VO2 columns over ${mass.rows} rows; the export does not state it` });

  // `Ex Time` is blank before the exercise starts (rest) and, if ever, after it (recovery).
  const exAt = table.column((n) => nameKey(n.header) === 'ex time');
  const phase_per_row = exAt < 0 ? undefined : phases(table.data.map((r) => String(r[exAt] ?? '').trim() !== ''));

  return buildRecording({
    format: FORMAT_ID,
    time_s: table.time_s,
    channels: table.channels,
    absent,
    phase_per_row,
    sampling_hint: { method: 'breath_by_breath' },
    subject: body_mass_kg !== null ? { body_mass_kg } : {},
    flags,
  });
}

/** Rest until `Ex Time` first has a value, exercise while it has, recovery when it is blank again. */
function phases(hasExTime: boolean[]): (PhaseName | null)[] {
  let started = false;
  return hasExTime.map((ex) => {
    if (ex) {
      started = true;
      return 'exercise';
    }
    return started ? 'recovery' : 'rest';
  });
}
