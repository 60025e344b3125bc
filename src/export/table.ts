/**
 * The normalised recording as a table for researchers: one row per breath or sample (or per point
 * of a resampling or averaging), units in the column names, the phase and the flags of each sample.
 * Every number is the canonical unit the service computes in (src/recording/recording.ts).
 */
import { phasesOf } from '../signal/phases.js';
import { applyAveraging, averagingLabel, type AveragingSpec } from '../signal/averaging/index.js';
import { resampleUniform } from '../signal/resample.js';
import { sampleFlags } from '../recording/sample-flags.js';
import { CHANNEL_NAMES, CHANNEL_UNITS, type ChannelName, type Recording } from '../recording/recording.js';

export type Resampling = { kind: 'none' } | { kind: 'uniform'; dt_s: number } | { kind: 'averaging'; spec: AveragingSpec };

/** Column-name suffix of each unit: ASCII, no spaces, so every CSV reader keeps the name as written. */
const UNIT_SUFFIX: Record<string, string> = {
  'mL/min': 'ml_min',
  'L/min': 'l_min',
  'breaths/min': 'breaths_min',
  L: 'l',
  mmHg: 'mmhg',
  'beats/min': 'bpm',
  W: 'w',
  'km/h': 'km_h',
  '%': 'pct',
  ratio: 'ratio',
};

export interface ExportColumn {
  name: string;
  unit: string;
  channel: ChannelName;
}

export interface ExportTable {
  /** Header lines (without the comment mark): format, sampling, resampling and provenance. */
  about: Record<string, string | number | null>;
  columns: ExportColumn[];
  t_s: number[];
  values: (number | null)[][];
  /** Phase each row falls in (rest, warmup, exercise, recovery), empty where none is known. */
  phase: string[];
  /** Flags of each row joined with `;`; for resampled rows, every flag of the samples it summarises. */
  flags: string[];
}

export const EXPORT_SCHEMA_VERSION = '1';

export function columnName(name: ChannelName): string {
  return `${name}_${UNIT_SUFFIX[CHANNEL_UNITS[name]] ?? 'unitless'}`;
}

/** Rounds away binary noise (1e-9) without touching any digit a cart writes. */
function clean(v: number | null): number | null {
  return v === null || !Number.isFinite(v) ? null : Math.round(v * 1e6) / 1e6;
}

export function exportTable(rec: Recording, resampling: Resampling, about: Record<string, string | number | null> = {}): ExportTable {
  const present = CHANNEL_NAMES.filter((c) => rec.channels[c]);
  const columns = present.map((c) => ({ name: columnName(c), unit: CHANNEL_UNITS[c], channel: c }));
  const perSample = sampleFlags(rec);
  const phases = phasesOf(rec);
  const phaseAt = (t: number): string => {
    if (!phases) return '';
    for (const name of ['rest', 'warmup', 'exercise', 'recovery'] as const) {
      const s = phases[name];
      if (s && t >= s.t_start_s && t <= s.t_end_s) return name;
    }
    return '';
  };
  let t_s: number[];
  let values: (number | null)[][];
  let spans: [number, number][];
  if (resampling.kind === 'none') {
    t_s = rec.t_s.map((t) => clean(t) as number);
    values = present.map((c) => rec.channels[c]!.values.map(clean));
    spans = t_s.map((t) => [t, t]);
  } else if (resampling.kind === 'uniform') {
    const grids = present.map((c) => resampleUniform(rec.t_s, rec.channels[c]!.values, resampling.dt_s, { t0_s: Math.ceil(rec.t_s[0] ?? 0), maxGapS: gapLimit(rec) }));
    const n = grids[0]?.values.length ?? 0;
    const t0 = grids[0]?.t0_s ?? 0;
    t_s = Array.from({ length: n }, (_, k) => clean(t0 + k * resampling.dt_s) as number);
    values = grids.map((g) => Array.from(g.values, (v) => clean(v)));
    spans = t_s.map((t) => [t - resampling.dt_s / 2, t + resampling.dt_s / 2]);
  } else {
    const step = rec.sampling.method === 'averaged' ? (rec.sampling.averaging_s ?? rec.sampling.raw_interval_s ?? 0) : 0;
    const series = present.map((c) => applyAveraging(rec.t_s, rec.channels[c]!.values, resampling.spec, step));
    // Every channel is averaged on the same samples, so the points line up; the low-pass grid can differ by channel.
    const base = series.reduce((a, b) => (b.t_s.length > a.t_s.length ? b : a), series[0]);
    t_s = (base?.t_s ?? []).map((t) => clean(t) as number);
    values = series.map((s) => {
      const at = new Map(s.t_s.map((t, k) => [t, s.values[k]]));
      return (base?.t_s ?? []).map((t) => clean(at.get(t) ?? null));
    });
    spans = (base?.t_s ?? []).map((_, k) => [base.t_start_s[k], base.t_end_s[k]]);
  }
  const flags = resampling.kind === 'none' ? perSample.map((f) => f.join(';')) : spans.map(([a, b]) => flagsWithin(rec.t_s, perSample, a, b));
  return {
    about: {
      export_schema: EXPORT_SCHEMA_VERSION,
      format: rec.format,
      sampling: rec.sampling.method,
      raw_interval_s: rec.sampling.raw_interval_s,
      averaging_s: rec.sampling.averaging_s ?? null,
      resampling: resampling.kind === 'none' ? 'none (the samples as read)' : resampling.kind === 'uniform' ? `linear interpolation onto a ${resampling.dt_s}-s grid` : averagingLabel(resampling.spec),
      rows: t_s.length,
      ...about,
    },
    columns,
    t_s,
    values,
    phase: t_s.map(phaseAt),
    flags,
  };
}

/** A gap longer than this between samples stays empty on a uniform grid instead of being interpolated. */
function gapLimit(rec: Recording): number {
  return Math.max(10, 3 * (rec.sampling.raw_interval_s ?? 0));
}

function flagsWithin(t_s: readonly number[], perSample: string[][], from: number, to: number): string {
  const out = new Set<string>();
  for (let i = 0; i < t_s.length; i++) if (t_s[i] >= from && t_s[i] <= to) for (const f of perSample[i]) out.add(f);
  return [...out].join(';');
}
