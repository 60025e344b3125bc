/**
 * One averaging specification for the peak-type metrics and the export: what researchers state in a
 * paper's methods (Robergs, Dwyer & Astorino, Sports Med 2010: VO2max moves by several percent with
 * the averaging chosen). The default is the one the service always used: a trailing 30-s time mean.
 */

export type AveragingStatistic = 'mean' | 'median';
export type AveragingAlignment = 'centred' | 'trailing';

export type AveragingSpec =
  /** Non-overlapping bins of fixed length from the first sample (spiro's and whippr's "bin" average). */
  | { kind: 'time_bins'; window_s: number; statistic: AveragingStatistic }
  /** A window of fixed duration at each sample (whippr's "rolling", gasExchangeR's "time/rolling"). */
  | { kind: 'rolling_time'; window_s: number; alignment: AveragingAlignment; statistic: AveragingStatistic }
  /** A window of a fixed number of breaths at each breath (spiro's breath-count, gasExchangeR's "breath/rolling"). */
  | { kind: 'rolling_breaths'; breaths: number; alignment: AveragingAlignment; statistic: AveragingStatistic }
  /** Zero-lag Butterworth low-pass on a 1-Hz grid (spiro_smooth's "fz" filters). */
  | { kind: 'low_pass'; cutoff_hz: number; order: number };

export type AveragingKind = AveragingSpec['kind'];

/** The service's definition of a peak: the highest trailing 30-s mean (ATS/ACCP 2003; design section 7). */
export const DEFAULT_AVERAGING: Readonly<Extract<AveragingSpec, { kind: 'rolling_time' }>> = Object.freeze({ kind: 'rolling_time', window_s: 30, alignment: 'trailing', statistic: 'mean' });

/** Limits that keep every averaging meaningful on a CPET record (a window longer than a test averages nothing out). */
export const AVERAGING_LIMITS = {
  window_s: { min: 1, max: 300 },
  breaths: { min: 2, max: 60 },
  /** On the 1-Hz grid the Nyquist frequency is 0.5 Hz. */
  cutoff_hz: { min: 0.001, max: 0.45 },
  order: { min: 1, max: 4 },
} as const;

/** One problem with a requested averaging, located like a validation issue of the API. */
export interface AveragingIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
}

const KINDS: readonly AveragingKind[] = ['time_bins', 'rolling_time', 'rolling_breaths', 'low_pass'];
const FIELDS: Record<AveragingKind, readonly string[]> = {
  time_bins: ['kind', 'window_s', 'statistic'],
  rolling_time: ['kind', 'window_s', 'alignment', 'statistic'],
  rolling_breaths: ['kind', 'breaths', 'alignment', 'statistic'],
  low_pass: ['kind', 'cutoff_hz', 'order'],
};

/**
 * Reads a requested averaging (omitted fields take their defaults: mean, trailing, order 2) or lists
 * every problem with it; `loc` is relative to the averaging object, the caller prefixes where it sat.
 */
export function parseAveraging(input: unknown): { ok: true; spec: AveragingSpec } | { ok: false; issues: AveragingIssue[] } {
  if (input === undefined || input === null) return { ok: true, spec: { ...DEFAULT_AVERAGING } };
  if (typeof input !== 'object' || Array.isArray(input)) return fail([], 'must be an object with a kind', 'type_error', input);
  const o = input as Record<string, unknown>;
  const kind = o.kind as AveragingKind;
  if (!KINDS.includes(kind)) return fail(['kind'], `must be one of ${KINDS.join(', ')}`, 'enum', o.kind);
  const issues: AveragingIssue[] = [];
  for (const k of Object.keys(o))
    if (!FIELDS[kind].includes(k)) issues.push({ loc: [k], msg: `is not a field of a ${kind} averaging (fields: ${FIELDS[kind].join(', ')})`, type: 'extra_forbidden', input: o[k] });
  const num = (name: keyof typeof AVERAGING_LIMITS, integer: boolean, fallback?: number): number => {
    const v = o[name] ?? fallback;
    const { min, max } = AVERAGING_LIMITS[name];
    if (typeof v !== 'number' || !Number.isFinite(v) || (integer && !Number.isInteger(v)) || v < min || v > max) {
      issues.push({ loc: [name], msg: `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, type: 'range', input: v });
      return Number.NaN;
    }
    return v;
  };
  const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const v = o[name] ?? fallback;
    if (!allowed.includes(v as T)) issues.push({ loc: [name], msg: `must be one of ${allowed.join(', ')}`, type: 'enum', input: v });
    return v as T;
  };
  let spec: AveragingSpec;
  switch (kind) {
    case 'time_bins':
      spec = { kind, window_s: num('window_s', false), statistic: choice('statistic', ['mean', 'median'], 'mean') };
      break;
    case 'rolling_time':
      spec = { kind, window_s: num('window_s', false), alignment: choice('alignment', ['centred', 'trailing'], 'trailing'), statistic: choice('statistic', ['mean', 'median'], 'mean') };
      break;
    case 'rolling_breaths':
      spec = { kind, breaths: num('breaths', true), alignment: choice('alignment', ['centred', 'trailing'], 'trailing'), statistic: choice('statistic', ['mean', 'median'], 'mean') };
      break;
    case 'low_pass':
      spec = { kind, cutoff_hz: num('cutoff_hz', false), order: num('order', true, 2) };
      break;
  }
  return issues.length ? { ok: false, issues } : { ok: true, spec };
}

function fail(loc: (string | number)[], msg: string, type: string, input: unknown): { ok: false; issues: AveragingIssue[] } {
  return { ok: false, issues: [{ loc, msg, type, input }] };
}

/** Whether a spec is the service's default (so results say "default" rather than only repeating it). */
export function isDefaultAveraging(spec: AveragingSpec): boolean {
  return spec.kind === 'rolling_time' && spec.window_s === DEFAULT_AVERAGING.window_s && spec.alignment === 'trailing' && spec.statistic === 'mean';
}

/** A short label for tables and CSV headers, e.g. "rolling 30 s trailing mean". */
export function averagingLabel(spec: AveragingSpec): string {
  switch (spec.kind) {
    case 'time_bins':
      return `${spec.window_s}-s bins, ${spec.statistic}`;
    case 'rolling_time':
      return `rolling ${spec.window_s} s, ${spec.alignment}, ${spec.statistic}`;
    case 'rolling_breaths':
      return `rolling ${spec.breaths} breaths, ${spec.alignment}, ${spec.statistic}`;
    case 'low_pass':
      return `Butterworth low-pass ${spec.cutoff_hz} Hz, order ${spec.order}, zero-lag`;
  }
}
