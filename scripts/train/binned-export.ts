/**
 * A recording re-exported as a cart writes an averaged export: fixed bins of its own samples, each bin's
 * mean stamped at the bin's end (analyses/vt/README.md, "Averaged exports"), read back through
 * buildRecording so the sampling recognition runs as on an uploaded file. Used by
 * scripts/train/export-shift.ts and the vt tests of averaged exports.
 */
import { buildRecording, type RawColumns } from '../../src/recording/build.js';
import type { ChannelName, Recording } from '../../src/recording/recording.js';

/** The recording averaged into fixed bins of `bin_s` (bins without a sample are left out, and with `empty` every 7th and 11th too). */
export function binned(rec: Recording, bin_s: number, empty: boolean): Recording {
  const t0 = rec.t_s[0];
  const bins = new Map<number, number[]>();
  rec.t_s.forEach((t, i) => {
    const k = Math.floor((t - t0) / bin_s) + 1;
    if (!bins.has(k)) bins.set(k, []);
    bins.get(k)!.push(i);
  });
  const keys = [...bins.keys()].filter((k) => !(empty && (k % 7 === 0 || k % 11 === 0))).sort((a, b) => a - b);
  const channels: RawColumns['channels'] = {};
  for (const [ch, data] of Object.entries(rec.channels) as [ChannelName, NonNullable<Recording['channels'][ChannelName]>][]) {
    channels[ch] = {
      ...data,
      values: keys.map((k) => {
        const v = bins
          .get(k)!
          .map((i) => data.values[i])
          .filter((x): x is number => x !== null);
        return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
      }),
    };
  }
  return buildRecording({
    format: rec.format,
    time_s: keys.map((k) => t0 + k * bin_s),
    channels,
    phase_starts: rec.phases.map((p) => ({ phase: p.phase, t_s: p.t_start_s })),
  });
}
