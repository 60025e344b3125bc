/**
 * Serialises a Recording to the canonical JSON shape (src/formats/recovery.ts), so a synthetic test
 * can be uploaded like any file and read back to the same numbers.
 */
import { CANONICAL_FORMAT_MARKER } from '../formats/recovery.js';
import { CHANNEL_NAMES, type Recording } from '../recording/recording.js';

/** The canonical JSON text of a recording (phases as start markers, sampling, subject). */
export function toCanonicalJson(rec: Recording): string {
  const channels: Record<string, (number | null)[]> = {};
  for (const name of CHANNEL_NAMES) {
    const data = rec.channels[name];
    if (data) channels[name] = data.values;
  }
  const subject = Object.fromEntries(Object.entries(rec.subject).filter(([, v]) => v !== null && v !== undefined));
  const doc = {
    format: CANONICAL_FORMAT_MARKER,
    time_s: rec.t_s,
    channels,
    sampling: rec.sampling.method === 'unknown' ? undefined : { method: rec.sampling.method, ...(rec.sampling.averaging_s ? { averaging_s: rec.sampling.averaging_s } : {}) },
    phases: rec.phases.map((p) => ({ phase: p.phase, t_start_s: p.t_start_s })),
    subject,
  };
  return JSON.stringify(doc);
}
