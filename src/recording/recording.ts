/**
 * The canonical Recording: what every format plugin produces and every analysis and metric reads.
 * Units live in the channel table (`CHANNELS`), never in comments alone.
 */

/** Canonical channel names, in the order the summary lists them. */
export const CHANNEL_NAMES = ['VO2', 'VCO2', 'VE', 'RF', 'VT', 'PetO2', 'PetCO2', 'HR', 'Load', 'Speed', 'Grade', 'RER', 'SpO2'] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** The unit each canonical channel is stored in, after normalisation. */
export const CHANNEL_UNITS: Readonly<Record<ChannelName, string>> = {
  VO2: 'mL/min',
  VCO2: 'mL/min',
  VE: 'L/min',
  RF: 'breaths/min',
  VT: 'L',
  PetO2: 'mmHg',
  PetCO2: 'mmHg',
  HR: 'beats/min',
  Load: 'W',
  Speed: 'km/h',
  Grade: '%',
  RER: 'ratio',
  SpO2: '%',
};

/** One channel's samples, aligned index for index with `Recording.t_s`; null marks a missing sample. */
export interface ChannelData {
  values: (number | null)[];
  /** The unit the file stated (or that was inferred, with a parser flag), before conversion. */
  unit_in: string;
}

export type PhaseName = 'rest' | 'warmup' | 'exercise' | 'recovery';

/** A phase as the file states it (or as inferred, with `source: 'inferred'`). */
export interface PhaseSpan {
  phase: PhaseName;
  t_start_s: number;
  t_end_s: number;
  source: 'file' | 'inferred';
}

export type SamplingMethod = 'breath_by_breath' | 'averaged' | 'unknown';

export interface Sampling {
  method: SamplingMethod;
  /** Median interval between samples in the file, in seconds; null when it cannot be told. */
  raw_interval_s: number | null;
  /** Whether the interval comes from the file's own timing (true) or was assumed (false). */
  interval_known: boolean;
  /** Averaging window the file states or implies (e.g. 10 for 10-s averages), when averaged. */
  averaging_s?: number | null;
}

export interface ParserFlag {
  code: string;
  detail: string;
}

/** A threshold the cart operator stored in the file; reported in the summary, never model input. */
export interface EmbeddedThreshold {
  name: 'VT1' | 'VT2';
  /** The label the file uses (AT, RC, LT, RCP, VT1, VT2, ...). */
  label: string;
  time_s?: number | null;
  vo2_ml_min?: number | null;
}

export interface Subject {
  body_mass_kg?: number | null;
  age_years?: number | null;
  sex?: 'male' | 'female' | null;
  height_cm?: number | null;
}

/** How the time axis was read and repaired; feeds the `clock_integrity` metric. */
export interface ClockInfo {
  /** Span of the time axis exactly as the file wrote it (last minus first readable stamp), in s. */
  raw_span_s: number;
  /** Span after repair (equals raw_span_s when no repair was needed), in s. */
  repaired_span_s: number;
  /** Rows dropped while repairing (unreadable stamps, duplicates, backwards steps). */
  samples_dropped: number;
  /** What was done, e.g. 'phase clock resets joined into one axis'; null when nothing was needed. */
  repair_applied: string | null;
  monotonic_as_read: boolean;
}

export interface Recording {
  /**
   * Seconds on the file's own clock (its zero is the start of the recording as the cart counts it),
   * strictly increasing after repair; a file that starts negative is shifted to start at 0.
   */
  t_s: number[];
  channels: Partial<Record<ChannelName, ChannelData>>;
  /** Why each absent channel is absent (absent from the file, or present but reading zero). */
  absent: Partial<Record<ChannelName, string>>;
  sampling: Sampling;
  phases: PhaseSpan[];
  subject: Subject;
  embedded_thresholds: EmbeddedThreshold[];
  flags: ParserFlag[];
  clock: ClockInfo;
  /** Format id of the plugin that read the file. */
  format: string;
}

/** A channel's values when present, else undefined. */
export function channel(rec: Recording, name: ChannelName): (number | null)[] | undefined {
  return rec.channels[name]?.values;
}

/** Fraction of samples of a channel that hold a finite number (0 when absent). */
export function coverage(rec: Recording, name: ChannelName): number {
  const values = rec.channels[name]?.values;
  if (!values || values.length === 0) return 0;
  let n = 0;
  for (const v of values) if (v !== null && Number.isFinite(v)) n++;
  return n / values.length;
}

/** Recording duration in seconds (last minus first time stamp). */
export function durationS(rec: Recording): number {
  const n = rec.t_s.length;
  return n < 2 ? 0 : rec.t_s[n - 1] - rec.t_s[0];
}

/** The channel names a recording holds, in canonical order. */
export function presentChannels(rec: Recording): ChannelName[] {
  return CHANNEL_NAMES.filter((name) => rec.channels[name] !== undefined);
}
