/**
 * The metric registry behind GET /v1/metrics and POST /v1/cpet/{id}/compute (spec 2.3). It checks
 * each entry's preconditions itself, so an entry never runs on a recording that lacks what it
 * declared, and it turns an unexpected failure into `unavailable` instead of a crashed request.
 */
import type { ChannelName, Recording } from '../recording/recording.js';
import { coverage, durationS } from '../recording/recording.js';
import { BUILTIN_METRICS } from './entries/index.js';
import { DEFAULT_METRIC_OPTIONS, type MetricEntry, type MetricOptions, type MetricResult } from './metric-entry.js';
import { round, unavailable } from './result.js';

/** Metric names in the order spec section 2.3 lists them, then the service's research extensions; others follow in the order added. */
export const SPEC_METRIC_ORDER = [
  'vo2max',
  'vemax',
  'rermax',
  'o2_pulse',
  've_vco2_slope',
  'phases',
  'landmarks',
  'substrate_summary',
  'gas_quality',
  'sampling_adequacy',
  'clock_integrity',
  'vo2max_relative',
  'vo2_plateau',
] as const;

/** What GET /v1/metrics lists for one entry. */
export interface MetricDescription {
  name: string;
  returns: string;
  unit: string | null;
  requires: ChannelName[];
  min_duration_s: number;
  notes: string;
}

export interface MetricRegistry {
  /** Every entry, in the spec's order. */
  list(): MetricEntry[];
  get(name: string): MetricEntry | undefined;
  has(name: string): boolean;
  /** The registry as GET /v1/metrics returns it. */
  describe(): MetricDescription[];
  /** Runs the named metrics (all must exist: check `has` first) on the full-resolution recording. */
  compute(rec: Recording, names: readonly string[], options?: Partial<MetricOptions>): Record<string, MetricResult>;
}

/** Thrown at start-up for a registry that cannot be built (duplicate or malformed entries). */
export class MetricRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MetricRegistryError';
  }
}

/** Builds the registry from the built-in entries plus `extra` (e.g. an analysis plugin's `metrics`). */
export function createMetricRegistry(extra: readonly MetricEntry[] = []): MetricRegistry {
  const all = [...BUILTIN_METRICS, ...extra];
  const byName = new Map<string, MetricEntry>();
  for (const e of all) {
    if (!e || typeof e.name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(e.name) || typeof e.compute !== 'function') {
      throw new MetricRegistryError(`metric entry ${JSON.stringify(e?.name)} must have a snake_case name and a compute function`);
    }
    if (byName.has(e.name)) throw new MetricRegistryError(`metric ${e.name} is defined twice`);
    byName.set(e.name, e);
  }
  const rank = (name: string) => {
    const i = (SPEC_METRIC_ORDER as readonly string[]).indexOf(name);
    return i >= 0 ? i : SPEC_METRIC_ORDER.length + all.findIndex((e) => e.name === name);
  };
  const ordered = Object.freeze([...byName.values()].sort((a, b) => rank(a.name) - rank(b.name)));
  return Object.freeze({
    list: () => [...ordered],
    get: (name: string) => byName.get(name),
    has: (name: string) => byName.has(name),
    describe: () => ordered.map((e) => ({ name: e.name, returns: e.returns, unit: e.unit, requires: [...e.requires], min_duration_s: e.min_duration_s, notes: e.notes })),
    compute(rec: Recording, names: readonly string[], options: Partial<MetricOptions> = {}) {
      const full: MetricOptions = { ...DEFAULT_METRIC_OPTIONS, ...options };
      const out: Record<string, MetricResult> = {};
      for (const name of names) {
        const entry = byName.get(name);
        if (!entry) throw new MetricRegistryError(`unknown metric ${name}: check has() before compute()`);
        out[name] = runEntry(entry, rec, full);
      }
      return out;
    },
  });
}

/** Preconditions, then the entry; an exception becomes INSUFFICIENT_SIGNAL with its message. */
function runEntry(entry: MetricEntry, rec: Recording, options: MetricOptions): MetricResult {
  const missing = entry.requires.filter((c) => coverage(rec, c) === 0);
  if (missing.length) {
    const why = missing.map((c) => (rec.absent[c] ? `${c} (${rec.absent[c]})` : c)).join(', ');
    return unavailable('MISSING_CHANNEL', `${entry.name} needs ${entry.requires.join(' and ')}; this recording has no usable ${why}.`, {
      required: [...entry.requires],
      missing,
    });
  }
  const actual = durationS(rec);
  if (actual < entry.min_duration_s) {
    return unavailable('INSUFFICIENT_DURATION', `${entry.name} needs at least ${entry.min_duration_s} s of recording; this one lasts ${round(actual, 1)} s.`, {
      required_s: entry.min_duration_s,
      actual_s: round(actual, 1),
    });
  }
  try {
    return entry.compute(rec, options);
  } catch (err) {
    return unavailable('INSUFFICIENT_SIGNAL', `${entry.name} could not be computed on this recording: ${(err as Error)?.message ?? String(err)}`, {
      reason: 'computation failed',
    });
  }
}
