import {
  buildRecording,
  extent,
  inferGasFlowFactor,
  inferPressureFactor,
  parseNumber,
  parserError,
  scale,
  type ChannelData,
  type ChannelName,
  type EmbeddedThreshold,
  type FileView,
  type ParserFlag,
  type Recording,
} from 'cpet-analysis-service/plugin';

/**
 * Per-breath keys, first match wins. Seen in the real file: t, VE, VO2, VCO2, R, PetO2, PetCO2;
 * RF and HR are documented for some exports (vendor-files README section 9), not seen.
 * `VE/VO2` and `VE/VCO2` are deliberately absent: derived ratios are computed, never trusted.
 */
export const COLUMNS = {
  time: ['t'],
  VO2: ['VO2'],
  VCO2: ['VCO2'],
  VE: ['VE'],
  RER: ['R', 'RER'],
  PetO2: ['PetO2'],
  PetCO2: ['PetCO2'],
  RF: ['RF', 'BF'],
  HR: ['HR'],
} as const;

const FORMAT_ID = 'exercise-threshold-app-json';

/** Reads the first test of an Exercise Thresholds app JSON file into a Recording. */
export function parse(file: FileView): Recording {
  const doc = file.json();
  if (doc === undefined) throw parserError('the file is not complete JSON (cut short or malformed)', { line: 1 });
  const flags: ParserFlag[] = [];
  // 1. An array of tests or one test object; only the first test is read.
  let test: unknown = doc;
  if (Array.isArray(doc)) {
    if (doc.length === 0) throw parserError('the array holds no test', { column: '/' });
    if (doc.length > 1) flags.push({ code: 'first_test_only', detail: `the file holds ${doc.length} tests; only the first was read` });
    test = doc[0];
  }
  if (!test || typeof test !== 'object' || Array.isArray(test)) throw parserError('the test is not a JSON object', { column: Array.isArray(doc) ? '/0' : '/' });
  const obj = test as Record<string, unknown>;
  const base = Array.isArray(doc) ? '/0' : '';
  if (!Array.isArray(obj.data) || obj.data.length === 0) throw parserError('the test has no "data" array of breaths', { column: `${base}/data` });

  // 2. Breaths: each an object; a breath that is not an object is a hard error naming it.
  const rows = obj.data.map((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row)) throw parserError(`breath ${i} is not an object`, { column: `${base}/data/${i}`, row: i + 1 });
    return row as Record<string, unknown>;
  });
  const read = (aliases: readonly string[]): (number | null)[] | null => {
    const key = aliases.find((a) => rows.some((r) => a in r));
    return key === undefined ? null : rows.map((r) => parseNumber(r[key]));
  };
  const time_s = read(COLUMNS.time);
  if (!time_s) throw parserError('no breath has a "t" (time) key', { column: `${base}/data/0/t` });

  const { channels, absent } = toCanonical(read, flags);
  // 3. The app counts t from the start of the test, so negative times are the rest before it.
  const [first, last] = extent(time_s);
  const phase_starts =
    first < 0 && last > 0
      ? [
          { phase: 'rest' as const, t_s: first },
          { phase: 'exercise' as const, t_s: 0 },
        ]
      : undefined;
  return buildRecording({
    format: FORMAT_ID,
    time_s,
    channels,
    absent,
    phase_starts,
    sampling_hint: { method: 'breath_by_breath' },
    embedded_thresholds: thresholds(obj),
    flags,
  });
}

/**
 * The one function that decides units. The JSON states none: VO2/VCO2 are told mL/min from L/min
 * by magnitude, end-tidal pressures mmHg from kPa by magnitude (each flagged); VE is L/min.
 */
function toCanonical(
  read: (aliases: readonly string[]) => (number | null)[] | null,
  flags: ParserFlag[],
): { channels: Partial<Record<ChannelName, ChannelData>>; absent: Partial<Record<ChannelName, string>> } {
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  for (const name of ['VO2', 'VCO2'] as const) {
    const values = read(COLUMNS[name]);
    if (!values) continue;
    const guess = inferGasFlowFactor(values);
    if (!guess) throw parserError(`${name} magnitude tells neither mL/min nor L/min`, { column: name });
    channels[name] = { values: scale(values, guess.factor), unit_in: guess.inferred };
    flags.push({ code: 'unit_inferred', detail: `${name} has no unit in the JSON; read as ${guess.inferred} from its magnitude` });
  }
  for (const name of ['PetO2', 'PetCO2'] as const) {
    const values = read(COLUMNS[name]);
    if (!values) {
      absent[name] = `no "${name}" key in the breaths`;
      continue;
    }
    const guess = inferPressureFactor(values);
    if (!guess) continue;
    channels[name] = { values: scale(values, guess.factor), unit_in: guess.inferred };
    flags.push({ code: 'unit_inferred', detail: `${name} has no unit in the JSON; read as ${guess.inferred} from its magnitude` });
  }
  for (const [name, unit] of [
    ['VE', 'L/min'],
    ['RER', ''],
    ['RF', '1/min'],
    ['HR', '1/min'],
  ] as const) {
    const values = read(COLUMNS[name]);
    if (values) channels[name] = { values, unit_in: unit };
  }
  return { channels, absent };
}

/** `LT` and `RCP` (VO2 at each; below 10 can only be L/min) become VT1 and VT2; `VO2max` is not read. */
function thresholds(obj: Record<string, unknown>): EmbeddedThreshold[] {
  const out: EmbeddedThreshold[] = [];
  for (const [key, name] of [
    ['LT', 'VT1'],
    ['RCP', 'VT2'],
  ] as const) {
    const v = parseNumber(obj[key]);
    if (v !== null && v > 0) out.push({ name, label: key, vo2_ml_min: v < 10 ? v * 1000 : v, time_s: null });
  }
  return out;
}
