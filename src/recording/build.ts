/**
 * Turns the columns a parser read into a canonical Recording: one monotonic clock, coverage,
 * sampling, absent-channel reasons and phase spans. Every parser ends here, so every repair is
 * made and flagged the same way whatever the vendor.
 */
import { parserError } from '../errors.js';
import { intervalMedian } from './interval-median.js';
import { checkRecordingLimits } from './limits.js';
import {
  CHANNEL_NAMES,
  type ChannelData,
  type ChannelName,
  type ClockInfo,
  type EmbeddedThreshold,
  type ParserFlag,
  type PhaseName,
  type PhaseSpan,
  type Recording,
  type SamplingMethod,
  type Subject,
} from './recording.js';

export interface RawColumns {
  format: string;
  /** Time stamps as read, in seconds; may reset at each phase; null where unreadable. */
  time_s: (number | null)[];
  /** Channel values already converted to canonical units, row for row with time_s. */
  channels: Partial<Record<ChannelName, ChannelData>>;
  /** Reasons for channels the parser knows are absent (e.g. 'no PetCO2 column in this export'). */
  absent?: Partial<Record<ChannelName, string>>;
  /** Phase of each row as the file labels it, when it does. */
  phase_per_row?: (PhaseName | null)[];
  /** Phase start times the file states (e.g. ZAN `[Start]`), in the file's time axis. */
  phase_starts?: { phase: PhaseName; t_s: number }[];
  /** What the file says about its sampling, when it says anything. */
  sampling_hint?: { method?: SamplingMethod; averaging_s?: number | null };
  subject?: Subject;
  embedded_thresholds?: EmbeddedThreshold[];
  flags?: ParserFlag[];
}

/** A backwards jump larger than this (s) that lands near zero is read as a phase clock reset. */
const RESET_MIN_JUMP_S = 5;
/** Channels for which a reading of exactly zero means "not recorded" rather than a measurement. */
const ZERO_MEANS_MISSING: readonly ChannelName[] = ['HR', 'VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'RF', 'VT'];
/** Breath-by-breath intervals vary; averaged exports are regular to within this coefficient of variation. */
const REGULAR_INTERVAL_CV = 0.05;

/** Builds a Recording; throws PARSER_ERROR when fewer than two rows have a readable time. */
export function buildRecording(raw: RawColumns): Recording {
  const flags: ParserFlag[] = [...(raw.flags ?? [])];
  const nRows = raw.time_s.length;
  for (const [name, data] of Object.entries(raw.channels)) {
    if (data && data.values.length !== nRows) {
      throw parserError(`column ${name} has ${data.values.length} values for ${nRows} time stamps`);
    }
  }

  const { keep, t_s, clock, offsets } = repairClock(raw.time_s, flags);
  if (t_s.length < 2) {
    throw parserError('fewer than two rows with a readable time stamp');
  }
  checkRecordingLimits(t_s.length, t_s[t_s.length - 1] - t_s[0]);

  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  const absent: Partial<Record<ChannelName, string>> = { ...(raw.absent ?? {}) };
  for (const name of CHANNEL_NAMES) {
    const data = raw.channels[name];
    if (!data) continue;
    // One loop per channel (no callback per row): every parse runs it once per channel and row.
    const source = data.values;
    const values: (number | null)[] = [];
    let finite = 0;
    let zeros = 0;
    for (let i = 0; i < keep.length; i++) {
      const v = clean(source[keep[i]]);
      values.push(v);
      if (v === null) continue;
      finite++;
      if (v === 0) zeros++;
    }
    if (finite === 0) {
      absent[name] = 'column present in the file but empty';
      continue;
    }
    if (ZERO_MEANS_MISSING.includes(name)) {
      if (zeros === finite) {
        absent[name] = 'column present in the file but reading zero throughout (not recorded)';
        continue;
      }
      if (zeros > 0) {
        for (let i = 0; i < values.length; i++) if (values[i] === 0) values[i] = null;
        flags.push({ code: 'zero_read_as_missing', detail: `${zeros} zero readings of ${name} treated as not recorded` });
      }
    }
    channels[name] = { values, unit_in: data.unit_in };
  }
  for (const name of CHANNEL_NAMES) {
    if (!channels[name] && !absent[name]) absent[name] = 'not in the file';
  }

  const sampling = inferSampling(t_s, raw.sampling_hint);
  const phases = buildPhases(t_s, keep, raw.phase_per_row, raw.phase_starts, offsets);

  return {
    t_s,
    channels,
    absent,
    sampling,
    phases,
    subject: raw.subject ?? {},
    embedded_thresholds: raw.embedded_thresholds ?? [],
    flags,
    clock,
    format: raw.format,
  };
}

function clean(v: number | null | undefined): number | null {
  return v === null || v === undefined || !Number.isFinite(v) ? null : v;
}

/**
 * Repairs the clock: drops unreadable stamps, joins phase clocks that restart near zero into one
 * axis, drops duplicate or backwards stamps, and shifts a negative start (pre-test rest) to zero.
 */
function repairClock(time: (number | null)[], flags: ParserFlag[]): { keep: number[]; t_s: number[]; clock: ClockInfo; offsets: number[] } {
  const readable: number[] = [];
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    if (t !== null && Number.isFinite(t)) readable.push(i);
  }
  const unreadable = time.length - readable.length;
  if (unreadable > 0) flags.push({ code: 'rows_without_time_dropped', detail: `${unreadable} rows had no readable time and were dropped` });

  const stamps = readable.map((i) => time[i] as number);
  let monotonic = true;
  for (let i = 1; i < stamps.length; i++) if (stamps[i] <= stamps[i - 1]) monotonic = false;
  const [lo, hi] = extent(stamps);
  const rawSpan = stamps.length > 1 ? hi - lo : 0;

  const steps: number[] = [];
  for (let i = 1; i < stamps.length; i++) {
    const d = stamps[i] - stamps[i - 1];
    if (d > 0) steps.push(d);
  }
  const typicalStep = steps.length ? intervalMedian(steps) : 1;

  const keep: number[] = [];
  const t_s: number[] = [];
  const offsets: number[] = [];
  let offset = 0;
  let resets = 0;
  let dropped = 0;
  for (let k = 0; k < stamps.length; k++) {
    const stamp = stamps[k];
    if (t_s.length > 0) {
      const prevRaw = t_s[t_s.length - 1] - offset;
      const jump = prevRaw - stamp;
      if (jump > RESET_MIN_JUMP_S && stamp <= Math.max(RESET_MIN_JUMP_S, typicalStep * 2)) {
        offset += prevRaw - stamp + typicalStep;
        resets++;
      }
    }
    const t = stamp + offset;
    if (t_s.length > 0 && t <= t_s[t_s.length - 1]) {
      dropped++;
      continue;
    }
    keep.push(readable[k]);
    t_s.push(t);
    offsets.push(offset);
  }
  const repairs: string[] = [];
  if (resets > 0) {
    repairs.push(`${resets} clock resets joined into one monotonic axis`);
    flags.push({ code: 'clock_reset_repaired', detail: `the clock restarted ${resets} times (once per phase); later phases were shifted to follow the earlier ones` });
  }
  if (dropped > 0) {
    repairs.push(`${dropped} duplicate or backwards time stamps dropped`);
    flags.push({ code: 'duplicate_times_dropped', detail: `${dropped} rows whose time did not advance were dropped` });
  }
  if (t_s.length > 0 && t_s[0] < 0) {
    const shift = -t_s[0];
    for (let i = 0; i < t_s.length; i++) t_s[i] += shift;
    for (let i = 0; i < offsets.length; i++) offsets[i] += shift;
    repairs.push(`negative start shifted by ${round3(shift)} s to zero`);
    flags.push({ code: 'time_origin_shifted', detail: `the file's time starts at ${round3(-shift)} s; every time was shifted by ${round3(shift)} s so the recording starts at 0` });
  }
  const repairedSpan = t_s.length > 1 ? t_s[t_s.length - 1] - t_s[0] : 0;
  return {
    keep,
    t_s,
    offsets,
    clock: {
      raw_span_s: round3(rawSpan),
      repaired_span_s: round3(repairedSpan),
      samples_dropped: unreadable + dropped,
      repair_applied: repairs.length ? repairs.join('; ') : null,
      monotonic_as_read: monotonic && unreadable === 0,
    },
  };
}

/** Shortest bin of an averaged export recognised by its empty bins, s (breath times rounded to 1 s are not bins). */
const MIN_BIN_S = 2;
/** Share of intervals that must be whole multiples of the bin, and share that must be one bin. */
const BIN_MULTIPLE_SHARE = 0.9;
const ONE_BIN_SHARE = 0.6;

/**
 * An averaged export whose empty bins were left out: its intervals are irregular only because some are
 * two or more bins long. Breath-by-breath intervals vary continuously, so few of them are whole
 * multiples of their median (issue 24: such exports were taken for breath-by-breath).
 */
function emptyBins(dts: number[], bin: number): boolean {
  if (!(bin >= MIN_BIN_S) || dts.length === 0) return false;
  let multiples = 0;
  let single = 0;
  for (const dt of dts) {
    const k = Math.round(dt / bin);
    if (k >= 1 && Math.abs(dt - k * bin) <= 0.02 * bin) {
      multiples++;
      if (k === 1) single++;
    }
  }
  return multiples >= BIN_MULTIPLE_SHARE * dts.length && single >= ONE_BIN_SHARE * dts.length;
}

function inferSampling(t_s: number[], hint: RawColumns['sampling_hint']): Recording['sampling'] {
  const dts: number[] = [];
  for (let i = 1; i < t_s.length; i++) dts.push(t_s[i] - t_s[i - 1]);
  const med = intervalMedian(dts);
  const mean = dts.reduce((a, b) => a + b, 0) / dts.length;
  const sd = Math.sqrt(dts.reduce((a, b) => a + (b - mean) ** 2, 0) / dts.length);
  const cv = mean > 0 ? sd / mean : 0;
  const inferred: SamplingMethod = cv <= REGULAR_INTERVAL_CV || emptyBins(dts, med) ? 'averaged' : 'breath_by_breath';
  const method = hint?.method ?? inferred;
  return {
    method,
    raw_interval_s: Number.isFinite(med) ? round3(med) : null,
    interval_known: Number.isFinite(med),
    averaging_s: method === 'averaged' ? (hint?.averaging_s ?? round3(med)) : null,
  };
}

function buildPhases(t_s: number[], keep: number[], perRow: RawColumns['phase_per_row'], starts: RawColumns['phase_starts'], offsets: number[]): PhaseSpan[] {
  const end = t_s[t_s.length - 1];
  if (perRow?.some((p) => p)) {
    const spans: PhaseSpan[] = [];
    for (let i = 0; i < keep.length; i++) {
      const phase = perRow[keep[i]];
      if (!phase) continue;
      const last = spans[spans.length - 1];
      if (last && last.phase === phase) {
        last.t_end_s = t_s[i];
      } else {
        if (last) last.t_end_s = t_s[i];
        spans.push({ phase, t_start_s: t_s[i], t_end_s: t_s[i], source: 'file' });
      }
    }
    if (spans.length) spans[spans.length - 1].t_end_s = end;
    return spans;
  }
  if (starts?.length) {
    const shift = offsets.length ? offsets[0] : 0;
    const sorted = [...starts].sort((a, b) => a.t_s - b.t_s);
    // Spans are clipped to the recording: a stated start after the last sample opens nothing.
    return sorted
      .map((s, i) => ({
        phase: s.phase,
        t_start_s: Math.max(t_s[0], s.t_s + shift),
        t_end_s: Math.min(end, i + 1 < sorted.length ? sorted[i + 1].t_s + shift : end),
        source: 'file' as const,
      }))
      .filter((s) => s.t_end_s > s.t_start_s);
  }
  return [];
}

/**
 * Smallest and largest of the numbers, nulls skipped ([Infinity, -Infinity] when there are none). A
 * loop, not Math.min(...values): spreading a long column overflows the call stack before the sample
 * limit can refuse it.
 */
export function extent(values: Iterable<number | null>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

/** Median of a list of finite numbers (NaN for an empty list). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
