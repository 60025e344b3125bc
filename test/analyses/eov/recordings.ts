/** Small recordings for the EOV tests: hand-built channels on a time axis, and bin averaging. */
import type { ChannelName, Recording } from '../../../src/recording/recording.js';

/** A Recording from a time axis and channel arrays, sampled every `interval_s` (averaged when asked). */
export function makeRecording(t_s: number[], channels: Partial<Record<ChannelName, (number | null)[]>>, interval_s: number, averaging_s: number | null = null): Recording {
  return {
    t_s,
    channels: Object.fromEntries(Object.entries(channels).map(([k, v]) => [k, { values: v, unit_in: 'canonical' }])),
    absent: {},
    sampling: { method: averaging_s ? 'averaged' : 'breath_by_breath', raw_interval_s: interval_s, interval_known: true, averaging_s },
    phases: [],
    subject: {},
    embedded_thresholds: [],
    flags: [],
    clock: { raw_span_s: t_s[t_s.length - 1] - t_s[0], repaired_span_s: t_s[t_s.length - 1] - t_s[0], samples_dropped: 0, repair_applied: null, monotonic_as_read: true },
    format: 'test',
  };
}

/** Deterministic standard normal draws (Park-Miller generator, Box-Muller). */
export function gaussian(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  const uniform = (): number => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Means of each channel over consecutive `window_s` bins, stamped at each bin's end. */
export function binAverage(t_s: number[], channels: Record<string, number[]>, window_s: number): { t_s: number[]; channels: Record<string, number[]> } {
  const out: { t_s: number[]; channels: Record<string, number[]> } = { t_s: [], channels: Object.fromEntries(Object.keys(channels).map((k) => [k, []])) };
  let start = 0;
  while (start < t_s.length) {
    let end = start;
    while (end < t_s.length && t_s[end] < t_s[start] + window_s) end++;
    if (t_s[end - 1] - t_s[start] < window_s * 0.9) break;
    out.t_s.push(t_s[end - 1]);
    for (const [k, v] of Object.entries(channels)) out.channels[k].push(v.slice(start, end).reduce((a, b) => a + b, 0) / (end - start));
    start = end;
  }
  return out;
}
