import { delimitedRows } from '../../src/formats/delimited-rows.js';
import { parserError } from '../../src/errors.js';
import { findAllColumns, findColumn } from '../../src/formats/columns.js';
import type { FileView } from '../../src/formats/file-view.js';
import { buildRecording, median } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, ParserFlag, PhaseName, Recording } from '../../src/recording/recording.js';
import { inferGasFlowFactor, inferPressureFactor, parseClock, parseNumber, scale } from '../../src/recording/units.js';

/** Header aliases, first match wins; all as written in the one real file (English). */
export const COLUMNS = {
  time: ['Time'],
  exercise_time: ['Ex Time'],
  VO2: ['VO2'],
  VCO2: ['VCO2'],
  VE: ['VE BTPS', 'VE'],
  VT: ['Vt BTPS', 'Vt', 'VT BTPS'],
  RF: ['RR', 'RF', 'BF'],
  PetO2: ['PETO2', 'PetO2'],
  PetCO2: ['PETCO2', 'PetCO2'],
  HR: ['HR'],
  RER: ['RER', 'RQ'],
  Speed: ['Speed'],
  Grade: ['Grade'],
  Load: ['Work', 'Watts', 'Load'],
  SpO2: ['SpO2'],
} as const;

const FORMAT_ID = 'mgc-breeze-txt';
/** 1 mile per hour in km/h (international mile, 1959). */
const KMH_PER_MPH = 1.609344;

/** Reads an MGC Breeze-style tab-separated export into a Recording. */
export function parse(file: FileView): Recording {
  const lines = file.lines();
  const flags: ParserFlag[] = [];
  // 1. One header row, no units row; data from line 2.
  const headers = (lines[0] ?? '').split('\t');
  const timeAt = findColumn(headers, COLUMNS.time);
  if (timeAt < 0) throw parserError('no "Time" column in the header', { line: 1 });
  const { rows } = delimitedRows(lines, 1, '\t', headers.length, file.text(), flags);
  if (rows.length === 0) throw parserError('the header is followed by no data rows', { line: 2 });
  // The real files end with a line break; one that does not may have lost the end of its last row.
  if (!/[\r\n]$/.test(file.text() ?? '') && !flags.some((f) => f.code === 'truncated_row_dropped')) {
    flags.push({ code: 'last_row_unterminated', detail: `the file does not end with a line break; its last row (line ${lines.length}) was kept but may be cut short` });
  }
  if (rows.some((r) => r.some((c) => /^\s*[-+]?\d+,\d+\s*$/.test(c)))) flags.push({ code: 'decimal_comma', detail: 'numbers use a decimal comma' });
  const read = (at: number) => rows.map((r) => (at < 0 ? null : parseNumber(r[at])));

  // 2. Time is m:ss from the start; `Time (Clock)` (wall clock) is not read.
  const time_s = rows.map((r, k) => {
    const cell = r[timeAt] ?? '';
    const t = parseClock(cell);
    if (t === null && cell.trim() !== '') throw parserError(`time "${cell.trim()}" is not m:ss`, { line: k + 2, column: 'Time' });
    return t;
  });

  // 3. Channels through the one function that decides units.
  const { channels, absent, body_mass_kg } = toCanonical(headers, read, flags);

  // 4. `Ex Time` is blank before the exercise starts (rest) and, if ever, after it (recovery).
  const exAt = findColumn(headers, COLUMNS.exercise_time);
  const phase_per_row = exAt < 0 ? undefined : phases(rows.map((r) => (r[exAt] ?? '').trim() !== ''));

  return buildRecording({
    format: FORMAT_ID,
    time_s,
    channels,
    absent,
    phase_per_row,
    sampling_hint: { method: 'breath_by_breath' },
    subject: body_mass_kg !== null ? { body_mass_kg } : {},
    flags,
  });
}


/**
 * The one function that decides units. There is no units row, so each unit comes from the layout
 * and the magnitude, with a flag: the two `VO2` columns (the larger is mL/min, the other
 * mL/kg/min), Vt BTPS in mL, end-tidal pressures in mmHg, speed in mph (converted to km/h).
 */
function toCanonical(
  headers: string[],
  read: (at: number) => (number | null)[],
  flags: ParserFlag[],
): { channels: Partial<Record<ChannelName, ChannelData>>; absent: Partial<Record<ChannelName, string>>; body_mass_kg: number | null } {
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  const col = (aliases: readonly string[]) => findColumn(headers, aliases);
  let body_mass_kg: number | null = null;

  // VO2 twice: order says per-kg first, magnitude confirms (13.2 against 985 in row 1).
  const vo2Cols = findAllColumns(headers, 'VO2');
  if (vo2Cols.length === 0) throw parserError('no VO2 column', { line: 1 });
  const byMedian = vo2Cols.map((at) => ({ at, values: read(at), med: median(read(at).filter((v): v is number => v !== null)) })).sort((a, b) => b.med - a.med);
  const absolute = byMedian[0];
  const vo2 = gasFlow('VO2', absolute.values, flags);
  channels.VO2 = vo2;
  if (byMedian.length > 1) {
    const perKg = byMedian[1].values;
    const ratios = absolute.values.map((v, i) => (v !== null && perKg[i] ? v / (perKg[i] as number) : null)).filter((x): x is number => x !== null && Number.isFinite(x));
    if (ratios.length > 0) {
      body_mass_kg = Math.round(median(ratios) * 10) / 10;
      flags.push({ code: 'two_vo2_columns', detail: `two columns named VO2: column ${absolute.at + 1} (larger) read as mL/min, column ${byMedian[1].at + 1} as mL/kg/min` });
      flags.push({ code: 'body_mass_derived', detail: `body mass ${body_mass_kg} kg is the median ratio of the two VO2 columns over ${ratios.length} rows; the export does not state it` });
    }
  }
  const vco2At = col(COLUMNS.VCO2);
  if (vco2At >= 0) channels.VCO2 = gasFlow('VCO2', read(vco2At), flags);

  const vtAt = col(COLUMNS.VT);
  if (vtAt >= 0) {
    const vt = read(vtAt);
    const peak = Math.max(...vt.filter((v): v is number => v !== null));
    const inMl = peak > 10;
    channels.VT = { values: inMl ? scale(vt, 0.001) : vt, unit_in: inMl ? 'mL' : 'L' };
    flags.push({ code: 'unit_inferred', detail: `${headers[vtAt]} has no unit; read as ${inMl ? 'mL' : 'L'} from its magnitude (peak ${peak})` });
  }
  for (const name of ['PetO2', 'PetCO2'] as const) {
    const at = col(COLUMNS[name]);
    if (at < 0) {
      absent[name] = `no ${name.toUpperCase()} column in this export`;
      continue;
    }
    const guess = inferPressureFactor(read(at));
    if (!guess) continue;
    channels[name] = { values: scale(read(at), guess.factor), unit_in: guess.inferred };
    flags.push({ code: 'unit_inferred', detail: `${headers[at]} has no unit; read as ${guess.inferred} from its magnitude` });
  }
  const speedAt = col(COLUMNS.Speed);
  if (speedAt >= 0) {
    channels.Speed = { values: scale(read(speedAt), KMH_PER_MPH), unit_in: 'mph' };
    // ACSM running equation (ACSM's Guidelines, 2006): 10 mph at 1 % needs ~60 mL/kg/min, 10 km/h ~38;
    // the real file's VO2 near 10 on the Speed column is ~52, which only mph can supply.
    flags.push({ code: 'unit_assumed', detail: 'Speed has no unit; read as mph (a US cart; VO2 at each speed fits the ACSM running equation only in mph) and converted to km/h' });
  }
  const plain: [ChannelName, readonly string[], string][] = [
    ['VE', COLUMNS.VE, 'L/min'],
    ['RF', COLUMNS.RF, '1/min'],
    ['HR', COLUMNS.HR, '1/min'],
    ['RER', COLUMNS.RER, ''],
    ['Grade', COLUMNS.Grade, '%'],
    ['Load', COLUMNS.Load, 'W'],
    ['SpO2', COLUMNS.SpO2, '%'],
  ];
  for (const [name, aliases, unit] of plain) {
    const at = col(aliases);
    if (at >= 0) channels[name] = { values: read(at), unit_in: unit };
  }
  if (!channels.Load) absent.Load = 'treadmill export: no work-rate column';
  return { channels, absent, body_mass_kg };
}

function gasFlow(name: string, values: (number | null)[], flags: ParserFlag[]): ChannelData {
  const guess = inferGasFlowFactor(values);
  if (!guess) throw parserError(`${name} magnitude tells neither mL/min nor L/min`, { column: name });
  flags.push({ code: 'unit_inferred', detail: `${name} has no unit; read as ${guess.inferred} from its magnitude` });
  return { values: scale(values, guess.factor), unit_in: guess.inferred };
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
