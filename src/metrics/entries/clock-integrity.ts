/**
 * `clock_integrity`: whether the file's time axis was monotonic as read, or how it was repaired
 * (from `Recording.clock`, filled by buildRecording).
 */
import type { MetricEntry } from '../metric-entry.js';
import { ok, round } from '../result.js';

/** The `clock_integrity` entry. */
export const clockIntegrity: MetricEntry = {
  name: 'clock_integrity',
  returns: '{monotonic_as_read, repaired, raw_span_s, repaired_span_s, samples_dropped, repair_applied, note}: the time axis as read and after repair.',
  unit: 's',
  requires: [],
  min_duration_s: 0,
  notes:
    'A repaired clock (phase clocks restarting at zero joined into one axis, duplicate or backward stamps dropped) is usable; a large gap between raw and repaired span, or many dropped samples, means durations and times deserve a second look.',
  compute(rec) {
    const c = rec.clock;
    const repaired = c.repair_applied !== null;
    let note: string;
    if (!repaired && c.monotonic_as_read) note = 'The time axis was strictly increasing as read; nothing was repaired.';
    else {
      note = `The time axis was repaired: ${c.repair_applied ?? 'stamps were reordered'}.`;
      if (c.samples_dropped > 0) note += ` ${c.samples_dropped} sample${c.samples_dropped === 1 ? ' was' : 's were'} dropped.`;
      if (Math.abs(c.raw_span_s - c.repaired_span_s) > 1) note += ` The span changed from ${round(c.raw_span_s, 1)} s as written to ${round(c.repaired_span_s, 1)} s.`;
    }
    return ok({
      monotonic_as_read: c.monotonic_as_read,
      repaired,
      raw_span_s: round(c.raw_span_s, 3),
      repaired_span_s: round(c.repaired_span_s, 3),
      samples_dropped: c.samples_dropped,
      repair_applied: c.repair_applied,
      note,
    });
  },
};
