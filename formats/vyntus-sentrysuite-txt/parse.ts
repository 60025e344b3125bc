import { delimitedRows } from '../../src/formats/delimited-rows.js';
import { parserError } from '../../src/errors.js';
import { findColumn, normaliseHeader } from '../../src/formats/columns.js';
import type { FileView } from '../../src/formats/file-view.js';
import { buildRecording, median } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, ParserFlag, Recording, SamplingMethod } from '../../src/recording/recording.js';
import {
  gasFlowFactorToMl,
  inferGasFlowFactor,
  inferPressureFactor,
  normaliseUnit,
  parseClock,
  parseNumber,
  pressureFactorToMmhg,
  scale,
} from '../../src/recording/units.js';

/**
 * Header aliases, first match wins. Seen in the one real file (Scandinavian, labelled German by
 * spiro): Tid, Last, HF, V'O2/kg, V'O2, V'CO2, RER, V'E, BF, VTex. Everything else is from vendor
 * conventions in English, German and French, not from a real file.
 */
export const COLUMNS = {
  time: ['Tid', 'Time', 'Zeit', 'Temps', 't'],
  VO2: ["V'O2", 'VO2', "V'O2 (STPD)"],
  VO2_per_kg: ["V'O2/kg", 'VO2/kg', "V'O2/KG"],
  VCO2: ["V'CO2", 'VCO2'],
  VE: ["V'E", 'VE', "V'E (BTPS)"],
  RF: ['BF', 'AF', 'RF', 'FR', 'Bf', 'f'],
  VT: ['VTex', 'VT', 'VTin', 'Vt'],
  HR: ['HF', 'HR', 'FC', 'Puls', 'Pulse'],
  Load: ['Last', 'Load', 'Belastung', 'Belastning', 'Charge', 'WR'],
  RER: ['RER', 'RQ', 'QR', 'R'],
  PetO2: ['PETO2', 'PetO2', 'PET O2'],
  PetCO2: ['PETCO2', 'PetCO2', 'PET CO2'],
  SpO2: ['SpO2', 'SPO2'],
  Speed: ['Speed', 'Geschwindigkeit', 'Hastighet', 'Vitesse'],
  Grade: ['Grade', 'Steigung', 'Stigning', 'Pente', 'Incline'],
} as const;

const FORMAT_ID = 'vyntus-sentrysuite-txt';
/** Channels read as they stand (their units are the canonical ones in every export seen or documented). */
const PLAIN: readonly ChannelName[] = ['VE', 'RF', 'HR', 'Load', 'RER', 'SpO2', 'Speed', 'Grade'];

/** Index of the header line: tab-separated, first cell a time alias, at least four cells; -1 when none. */
export function findHeaderLine(lines: readonly string[]): number {
  const times = COLUMNS.time.map(normaliseHeader);
  return lines.findIndex((line) => {
    const cells = line.split('\t');
    return cells.length >= 4 && times.includes(normaliseHeader(cells[0]));
  });
}

/** Reads a SentrySuite text export into a Recording. */
export function parse(file: FileView): Recording {
  const lines = file.lines();
  const flags: ParserFlag[] = [];
  // 1. Header (line 3 in the real file) and, when the next line holds no number, its units row.
  const headerAt = findHeaderLine(lines.slice(0, 40));
  if (headerAt < 0) throw parserError('no tab-separated header starting with Tid/Time/Zeit/Temps in the first 40 lines', { line: 1 });
  const headers = lines[headerAt].split('\t');
  const unitCells = (lines[headerAt + 1] ?? '').split('\t');
  const hasUnits = unitCells.some((c) => /[a-z%]/i.test(c)) && !unitCells.some((c) => /^\s*[-+]?\d+([.,]\d+)?\s*$/.test(c));
  const units = hasUnits ? unitCells : [];
  const firstData = headerAt + (hasUnits ? 2 : 1);

  // 2. Rows: tab separated; blank, "-" or "---" cells are missing; a decimal comma is accepted.
  const { rows, lines: rowLines } = delimitedRows(lines, firstData, '\t', headers.length, file.text(), flags);
  if (rows.length === 0) throw parserError('the header is followed by no data rows', { line: firstData + 1 });
  // SentrySuite writes no final line break (the real file), so the last row's end cannot be checked.
  if (!/[\r\n]$/.test(file.text() ?? '') && !flags.some((f) => f.code === 'truncated_row_dropped')) {
    flags.push({ code: 'last_row_unterminated', detail: `the file does not end with a line break (as SentrySuite writes it); the last row (line ${lines.length}) was kept, but a cut inside its last cell could not be seen` });
  }
  if (rows.some((r) => r.some((c) => /^\s*[-+]?\d+,\d+\s*$/.test(c)))) {
    flags.push({ code: 'decimal_comma', detail: 'numbers use a decimal comma' });
  }

  const col = (aliases: readonly string[]) => findColumn(headers, aliases);
  const read = (index: number) => rows.map((r) => parseNumber(r[index]));
  const unitOf = (index: number) => units[index]?.trim() ?? '';

  // 3. Time: "Tid" is text such as " 00:56" (mm:ss) under the unit "min".
  const timeAt = col(COLUMNS.time);
  const time_s = rows.map((r, k) => readTime(r[timeAt] ?? '', unitOf(timeAt), rowLines[k], flags));

  // 4. Channels, converted by the one function that decides units.
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = {};
  for (const name of ['VO2', 'VCO2', 'VT', 'PetO2', 'PetCO2', ...PLAIN] as ChannelName[]) {
    const at = col(COLUMNS[name as keyof typeof COLUMNS]);
    if (at < 0) continue;
    channels[name] = toCanonical(name, read(at), unitOf(at), flags);
  }
  if (col(COLUMNS.PetO2) < 0) absent.PetO2 = 'no PETO2 column in this export';
  if (col(COLUMNS.PetCO2) < 0) absent.PetCO2 = 'no PETCO2 column in this export';

  // 5. Body mass: not in the export; V'O2 / V'O2/kg gives it (spiro derives 68.1 the same way).
  const perKgAt = col(COLUMNS.VO2_per_kg);
  let body_mass_kg: number | null = null;
  if (perKgAt >= 0 && channels.VO2) {
    const perKg = read(perKgAt);
    const ratios = channels.VO2.values
      .map((v, i) => (v !== null && perKg[i] ? v / (perKg[i] as number) : null))
      .filter((x): x is number => x !== null && Number.isFinite(x));
    if (ratios.length > 0) {
      body_mass_kg = Math.round((ratios.reduce((a, b) => a + b, 0) / ratios.length) * 10) / 10;
      flags.push({ code: 'body_mass_derived', detail: `body mass ${body_mass_kg} kg is the mean of V'O2 / V'O2/kg over ${ratios.length} rows; the export does not state it` });
    }
  }

  return buildRecording({
    format: FORMAT_ID,
    time_s,
    channels,
    absent,
    sampling_hint: samplingHint(time_s, flags),
    subject: body_mass_kg !== null ? { body_mass_kg } : {},
    flags,
  });
}


/**
 * Time of one row in seconds. Text with colons is a clock (mm:ss, h:mm:ss); a plain number is
 * decimal minutes under the unit "min", seconds under "s", and seconds (flagged) with no unit.
 */
function readTime(cell: string, unit: string, line: number, flags: ParserFlag[]): number | null {
  if (cell.includes(':')) {
    const t = parseClock(cell);
    if (t === null) throw parserError(`time "${cell.trim()}" is not a clock time`, { line, column: 1 });
    return t;
  }
  const v = parseNumber(cell);
  if (v === null) return null;
  const u = normaliseUnit(unit);
  if (u === 'min') return v * 60;
  if (u !== 's' && !flags.some((f) => f.code === 'time_unit_assumed')) {
    flags.push({ code: 'time_unit_assumed', detail: `the time column has no unit; plain numbers were read as seconds` });
  }
  return v;
}

/**
 * The one function that decides units: the units row when it says something, else magnitude
 * (with a flag). VO2/VCO2 to mL/min, VT to L, end-tidal pressures to mmHg.
 */
function toCanonical(name: ChannelName, values: (number | null)[], unit: string, flags: ParserFlag[]): ChannelData {
  const u = normaliseUnit(unit);
  if (name === 'VO2' || name === 'VCO2') {
    const factor = gasFlowFactorToMl(unit);
    if (factor !== null) return { values: scale(values, factor), unit_in: unit };
    const guess = inferGasFlowFactor(values);
    if (!guess) throw parserError(`${name} has no unit and its magnitude does not tell mL/min from L/min`, { column: name });
    flags.push({ code: 'unit_inferred', detail: `${name} had no unit; read as ${guess.inferred} from its magnitude` });
    return { values: scale(values, guess.factor), unit_in: guess.inferred };
  }
  if (name === 'PetO2' || name === 'PetCO2') {
    const factor = pressureFactorToMmhg(unit);
    if (factor !== null) return { values: scale(values, factor), unit_in: unit };
    const guess = inferPressureFactor(values);
    if (!guess) return { values, unit_in: unit };
    flags.push({ code: 'unit_inferred', detail: `${name} had no unit; read as ${guess.inferred} from its magnitude` });
    return { values: scale(values, guess.factor), unit_in: guess.inferred };
  }
  if (name === 'VT') {
    if (u === 'ml') return { values: scale(values, 0.001), unit_in: unit };
    if (u === 'l') return { values, unit_in: unit };
    const finite = values.filter((v): v is number => v !== null);
    const asMl = finite.length > 0 && Math.max(...finite) > 10;
    flags.push({ code: 'unit_inferred', detail: `VT had no unit; read as ${asMl ? 'mL' : 'L'} from its magnitude` });
    return { values: asMl ? scale(values, 0.001) : values, unit_in: asMl ? 'mL' : 'L' };
  }
  return { values, unit_in: unit };
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
