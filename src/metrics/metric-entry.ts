/**
 * A metric registry entry (spec 2.3): what it returns, its unit, the channels and duration it needs,
 * reading notes, and the function. Unmet preconditions give `unavailable` with a reason, never null.
 */
import type { ChannelName, Recording } from '../recording/recording.js';
import type { ProtocolInput } from '../signal/protocol.js';
import { DEFAULT_AVERAGING, type AveragingSpec } from '../signal/averaging/index.js';

export type MetricUnavailableCode = 'MISSING_CHANNEL' | 'INSUFFICIENT_DURATION' | 'INSUFFICIENT_SIGNAL';

export type MetricResult =
  /**
   * `value` is the metric's shape as its entry's `returns` states; `detail`, when present, says
   * where the value came from (e.g. the window and time of a peak) without changing that shape.
   */
  { status: 'ok'; value: unknown; detail?: Record<string, unknown> } | { status: 'unavailable'; error: MetricUnavailableCode; message: string; context: Record<string, unknown> };

/** What a compute request may add to the metric names; every field has a default, so an entry always gets all of them. */
export interface MetricOptions {
  /** The averaging of the peak-type metrics (default: trailing 30-s mean). */
  averaging: AveragingSpec;
  /** Body mass for relative values when the file has none (or to override it), kg. */
  body_mass_kg: number | null;
  /** The caller's protocol, overriding the one read from the recording. */
  protocol: ProtocolInput | null;
}

/** The options of a compute request that names metrics only. */
export const DEFAULT_METRIC_OPTIONS: Readonly<MetricOptions> = Object.freeze({ averaging: DEFAULT_AVERAGING, body_mass_kg: null, protocol: null });

export interface MetricEntry {
  name: string;
  /** What the value is, in one sentence. */
  returns: string;
  /** Unit of the headline number (null for structured values without one unit). */
  unit: string | null;
  requires: ChannelName[];
  min_duration_s: number;
  /** How to read the value, and what it must not be used for. */
  notes: string;
  /** Runs on the full-resolution record. Preconditions (channels, duration) are checked by the registry first. */
  compute(recording: Recording, options: MetricOptions): MetricResult;
}
