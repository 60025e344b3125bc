/**
 * Reads a TrueOne 2400 export (CSV or workbook) into a Recording. TrueOne's own: the header block
 * (subject, the STPD to BTPS factor), the four-line column header between "==========" and
 * "----------" (markers, names, qualifiers, units), the trailer ("Max VO2", slopes, "Events",
 * "Summary") and Breath# for the sampling. The data rows under the header are read by the shared
 * table layer.
 */
import {
  buildRecording,
  decimalMinutesToSeconds,
  median,
  nameKey,
  parseNumber,
  parserError,
  readTable,
  scale,
  type FileView,
  type ParserFlag,
  type PhaseName,
  type Recording,
  type SamplingMethod,
  type Subject,
  type TableRead,
} from 'cpet-analysis-service/plugin';
import { cellText, parvoSource } from './grid.js';

/** Event labels that start a phase; every other event label (RPE, cadence, stage names) is dropped. */
const EVENT_PHASES: readonly [RegExp, PhaseName][] = [
  [/^warm ?up$/i, 'warmup'],
  [/^start exercise$/i, 'exercise'],
  [/^(stop exercise|start recovery|recovery|cool ?down)$/i, 'recovery'],
  [/^(start )?rest$/i, 'rest'],
];

const FORMAT = 'parvo-trueone';

/** Reads the file; throws PARSER_ERROR naming the row when the column header or data cannot be found. */
export function parse(file: FileView): Recording {
  const source = parvoSource(file);
  if (!source) throw parserError('the file is neither text nor a workbook');
  const rows = source.rows;
  const sheet = file.container === 'text' ? undefined : file.sheets()?.[0]?.name;
  const first = rows.map((r) => cellText(r[0]));
  const open = first.indexOf('==========');
  if (open < 0) throw parserError('no "==========" line opening the column header', { sheet });
  if (first[open + 5] !== '----------') throw parserError('the column header is not closed by "----------" four lines later', { sheet, row: open + 6 });
  const qualifiers = (rows[open + 3] ?? []).map(cellText);
  // A name cut in two is finished on the qualifier line: "VE/" over "VO2" is VE/VO2.
  const names = (rows[open + 2] ?? []).map((cell, i) => {
    const name = cellText(cell);
    return name.endsWith('/') ? name + qualifiers[i] : name;
  });
  const units = (rows[open + 4] ?? []).map(cellText);

  const table = readTable(source, { header_row: open + 2, units_row: open + 4, first_column: 0, data_start: open + 6, names, units, qualifiers });
  const flags: ParserFlag[] = [...table.flags];
  const channels = { ...table.channels };
  const ve = table.columns.find((c) => c.reads === 'VE');
  if (ve && channels.VE && qualifiers[ve.index] === 'STPD') channels.VE = { ...channels.VE, values: veToBtps(rows.slice(0, open), channels.VE.values, flags) };

  const dataEnd = open + 6 + table.data.length;
  const trailer = rows.slice(dataEnd);
  if (!trailer.some((r) => cellText(r[0]) === 'Summary')) {
    flags.push({ code: 'trailer_missing', detail: 'the file ends before its "Summary" line; it may be cut short' });
  }
  return buildRecording({
    format: FORMAT,
    time_s: table.time_s,
    channels,
    absent: table.absent,
    phase_starts: readEvents(trailer, flags),
    sampling_hint: samplingHint(table, flags),
    subject: readSubject(rows.slice(0, open), flags),
    embedded_thresholds: [],
    flags,
  });
}

/** VE written STPD is brought to BTPS with the file's own "STPD to BTPS" factor (header block). */
function veToBtps(header: readonly (readonly unknown[])[], values: (number | null)[], flags: ParserFlag[]): (number | null)[] {
  for (const row of header) {
    const i = row.findIndex((c) => cellText(c) === 'STPD to BTPS');
    const factor = i >= 0 ? parseNumber(row[i + 1]) : null;
    if (factor !== null && factor > 1 && factor < 1.5) {
      flags.push({ code: 've_stpd_to_btps', detail: `VE is written STPD; converted to BTPS with the file's STPD to BTPS factor ${factor}` });
      return scale(values, factor);
    }
  }
  flags.push({ code: 've_stpd_kept', detail: 'VE is written STPD and the file states no STPD to BTPS factor; kept as written' });
  return values;
}

/** Binned exports count breaths cumulatively in Breath# (4, 8, 11 ...); breath by breath counts 1, 2, 3. */
function samplingHint(table: TableRead, flags: ParserFlag[]): { method: SamplingMethod; averaging_s: number | null } | undefined {
  const col = table.column((n) => nameKey(n.header) === 'breath#');
  if (col < 0) return undefined;
  const breaths = table.data.map((row) => parseNumber(row[col]));
  const steps: number[] = [];
  for (let i = 1; i < breaths.length; i++) {
    const a = breaths[i - 1];
    const b = breaths[i];
    if (a !== null && b !== null) steps.push(b - a);
  }
  if (steps.length === 0) return undefined;
  if (steps.every((s) => s === 1)) return { method: 'breath_by_breath', averaging_s: null };
  const dts: number[] = [];
  for (let i = 1; i < table.time_s.length; i++) {
    const a = table.time_s[i - 1];
    const b = table.time_s[i];
    if (a !== null && b !== null && b > a) dts.push(b - a);
  }
  const bin = Math.round(median(dts));
  flags.push({ code: 'averaging_window_inferred', detail: `Breath# counts several breaths per row, so rows are bins; the file does not state the bin width, ${bin} s is the median interval` });
  return { method: 'averaged', averaging_s: Number.isFinite(bin) ? bin : null };
}

/** Phase starts from the Events block (`4.000000, "Start Exercise"`, time in minutes); other labels are dropped. */
function readEvents(trailer: readonly (readonly unknown[])[], flags: ParserFlag[]): { phase: PhaseName; t_s: number }[] {
  const start = trailer.findIndex((r) => cellText(r[0]) === 'Events');
  if (start < 0) {
    flags.push({ code: 'no_events_block', detail: 'no Events block after the data (the file may be cut short); no phases stated' });
    return [];
  }
  const out: { phase: PhaseName; t_s: number }[] = [];
  for (let r = start + 1; r < trailer.length; r++) {
    const minutes = parseNumber(trailer[r][0]);
    if (minutes === null) break;
    const label = cellText(trailer[r][1]);
    const match = EVENT_PHASES.find(([re]) => re.test(label));
    if (match) out.push({ phase: match[1], t_s: decimalMinutesToSeconds(minutes) });
  }
  if (trailer.some((r) => /^stop exercise$/i.test(cellText(r[1])))) flags.push({ code: 'stop_exercise_as_recovery', detail: 'a "Stop Exercise" event is read as the start of a recovery phase' });
  return out;
}

/** Age, sex, height (cm) and weight (kg) from the header block; the name, file number and date are not read. */
function readSubject(header: readonly (readonly unknown[])[], flags: ParserFlag[]): Subject {
  const subject: Subject = {};
  for (const row of header) {
    const cells = row.map(cellText);
    const label = cells[0];
    if (label === 'Age') {
      const age = parseNumber(row[1]);
      if (age !== null && age > 0) subject.age_years = age;
      else if (age === 0) flags.push({ code: 'age_zero_ignored', detail: 'Age is 0 in the header (not entered); age left unknown' });
      const sex = cells[cells.indexOf('Sex') + 1]?.toUpperCase();
      if (cells.includes('Sex') && sex) subject.sex = sex.startsWith('M') ? 'male' : sex.startsWith('F') ? 'female' : null;
    }
    if (label === 'Height') {
      const cm = cells.indexOf('cm');
      if (cm > 0) subject.height_cm = round(parseNumber(row[cm - 1]), 1);
      const kg = cells.indexOf('kg');
      if (kg > 0) subject.body_mass_kg = round(parseNumber(row[kg - 1]), 2);
    }
  }
  return subject;
}

function round(v: number | null, digits: number): number | null {
  if (v === null) return null;
  const p = 10 ** digits;
  return Math.round(v * p) / p;
}
