/**
 * What is known about each sample beyond its values, for the export: the breaths the peak metrics
 * leave out as coughs or swallows (more than 4 SD from their neighbours, Lamarra 1987), per channel.
 */
import { cleaned } from '../metrics/cleaned.js';
import type { ChannelName, Recording } from './recording.js';

/** Channels whose outlying breaths the metrics mask. */
export const MASKED_CHANNELS: readonly ChannelName[] = ['VO2', 'VCO2', 'VE'];

/** Per sample, the flags that apply (e.g. `outlier_VO2`), in channel order; an empty list for a clean sample. */
export function sampleFlags(rec: Recording): string[][] {
  const flags: string[][] = rec.t_s.map(() => []);
  for (const name of MASKED_CHANNELS) {
    const raw = rec.channels[name]?.values;
    if (!raw) continue;
    const kept = cleaned(rec, name);
    for (let i = 0; i < raw.length; i++) if (raw[i] !== null && kept[i] === null) flags[i].push(`outlier_${name}`);
  }
  return flags;
}
