import { delimitedRows } from '../../src/formats/delimited-rows.js';
import { parserError } from '../../src/errors.js';
import { findColumn } from '../../src/formats/columns.js';
import type { FileView } from '../../src/formats/file-view.js';
import { buildRecording } from '../../src/recording/build.js';
import type { ChannelData, ChannelName, ParserFlag, Recording, Subject } from '../../src/recording/recording.js';
import { inferGasFlowFactor, inferPressureFactor, parseNumber, scale } from '../../src/recording/units.js';

/**
 * Header aliases, first match wins; all as written in the one real file. Deliberately absent:
 * `VEVO2_I`/`VEVCO2_I` (derived ratios, computed downstream), `domain` (evaluation ground truth),
 * `age_group`/`fitness_group` (labels), `gender` (its -1/1 coding is undocumented).
 */
export const COLUMNS = {
  time: ['time'],
  VO2: ['VO2_I'],
  VCO2: ['VCO2_I'],
  VE: ['VE_I'],
  HR: ['HR_I'],
  RF: ['RF_I'],
  PetO2: ['PetO2_I'],
  PetCO2: ['PetCO2_I'],
  age: ['age'],
  height: ['height'],
  weight: ['weight'],
} as const;

const FORMAT_ID = 'pyoxynet-csv';

/** The delimiter of a header line: `;` when it has more semicolons than commas (a European re-save), else `,`. */
export function delimiterOf(header: string): ',' | ';' {
  return (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ';' : ',';
}

/** Reads a pyoxynet CSV into a Recording. */
export function parse(file: FileView): Recording {
  const lines = file.lines();
  const flags: ParserFlag[] = [];
  const delimiter = delimiterOf(lines[0] ?? '');
  const headers = (lines[0] ?? '').split(delimiter).map((h) => h.trim());
  const col = (aliases: readonly string[]) => findColumn(headers, aliases);
  const timeAt = col(COLUMNS.time);
  if (timeAt < 0) throw parserError('no "time" column in the header', { line: 1 });

  // 1. Rows; a last row shorter than the header (a cut file) is dropped with a flag.
  const { rows, lines: rowLines } = delimitedRows(lines, 1, delimiter, headers.length, file.text(), flags);
  rows.forEach((cells, k) => {
    if (cells.length < headers.length) throw parserError(`line ${rowLines[k]} has ${cells.length} cells for ${headers.length} headers`, { line: rowLines[k] });
  });
  if (rows.length === 0) throw parserError('the header is followed by no data rows', { line: 2 });
  // The real files end with a line break; one that does not may have lost the end of its last row.
  if (!/[\r\n]$/.test(file.text() ?? '') && !flags.some((f) => f.code === 'truncated_row_dropped')) {
    flags.push({ code: 'last_row_unterminated', detail: `the file does not end with a line break; its last row (line ${lines.length}) was kept but may be cut short` });
  }
  if (delimiter === ';' && rows.some((r) => r.some((c) => /^\s*[-+]?\d+,\d+/.test(c)))) flags.push({ code: 'decimal_comma', detail: 'numbers use a decimal comma' });
  const read = (aliases: readonly string[]) => {
    const at = col(aliases);
    return at < 0 ? null : rows.map((r) => parseNumber(r[at]));
  };

  // 2. Already on a 1-s grid: interpolated upstream, so reported as 1-s averages.
  flags.push({ code: 'interpolated_upstream', detail: 'pyoxynet interpolated the breaths to 1 Hz before writing the file; breath timing and breath-to-breath noise are lost' });
  flags.push({ code: 'columns_not_read', detail: 'VEVO2_I/VEVCO2_I (ratios, computed downstream) and domain/age_group/fitness_group (labels) were not read' });

  return buildRecording({
    format: FORMAT_ID,
    time_s: read(COLUMNS.time) ?? [],
    channels: toCanonical(read, flags),
    sampling_hint: { method: 'averaged', averaging_s: 1 },
    subject: subject(read),
    flags,
  });
}


/**
 * The one function that decides units. No units row: VO2/VCO2 mL/min from magnitude, end-tidal
 * mmHg from magnitude (each flagged); VE L/min, HR and RF per minute as pyoxynet writes them.
 */
function toCanonical(read: (aliases: readonly string[]) => (number | null)[] | null, flags: ParserFlag[]): Partial<Record<ChannelName, ChannelData>> {
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  for (const name of ['VO2', 'VCO2'] as const) {
    const values = read(COLUMNS[name]);
    if (!values) continue;
    const guess = inferGasFlowFactor(values);
    if (!guess) throw parserError(`${name}_I magnitude tells neither mL/min nor L/min`, { column: `${name}_I` });
    channels[name] = { values: scale(values, guess.factor), unit_in: guess.inferred };
    flags.push({ code: 'unit_inferred', detail: `${name}_I has no unit; read as ${guess.inferred} from its magnitude` });
  }
  for (const name of ['PetO2', 'PetCO2'] as const) {
    const values = read(COLUMNS[name]);
    const guess = values && inferPressureFactor(values);
    if (!values || !guess) continue;
    channels[name] = { values: scale(values, guess.factor), unit_in: guess.inferred };
    flags.push({ code: 'unit_inferred', detail: `${name}_I has no unit; read as ${guess.inferred} from its magnitude` });
  }
  for (const [name, unit] of [['VE', 'L/min'], ['HR', '1/min'], ['RF', '1/min']] as const) {
    const values = read(COLUMNS[name]);
    if (values) channels[name] = { values, unit_in: unit };
  }
  return channels;
}

/** Age, height and weight repeat on every row; the first row's values are the subject's. Height in m (1.77) becomes cm. */
function subject(read: (aliases: readonly string[]) => (number | null)[] | null): Subject {
  const first = (aliases: readonly string[]) => read(aliases)?.find((v) => v !== null) ?? null;
  const height = first(COLUMNS.height);
  return {
    age_years: first(COLUMNS.age),
    height_cm: height === null ? null : height < 3 ? Math.round(height * 1000) / 10 : height,
    body_mass_kg: first(COLUMNS.weight),
  };
}
