/**
 * Averaged exports as carts and tools write them, besides breath-by-breath (breaths.ts): fixed
 * windows, a rolling N-breath mean written at every breath, a rolling time window written every
 * second, and a 1-Hz series interpolated from smoothed breaths (pyoxynet's loader filters the
 * breaths with a 20-breath uniform filter, then interpolates them to whole seconds).
 */
import type { Breath } from './breaths.js';

export interface Row {
  t: number;
  values: Breath['values'];
}

/** The channels a breath carries, in the order every export writes them. */
export const BREATH_CHANNELS = ['VO2', 'VCO2', 'VE', 'RF', 'VT', 'PetO2', 'PetCO2', 'HR'] as const;

/** Time-weighted means of the breath values over windows ending at w, 2w, ...; windows less than half covered are dropped. */
export function fixedWindows(breaths: Breath[], window_s: number, end_s: number): Row[] {
  const rows: Row[] = [];
  const cursor = { first: 0 };
  for (let k = 1; k * window_s <= end_s; k++) {
    const values = windowMean(breaths, cursor, k * window_s, window_s);
    if (values) rows.push({ t: k * window_s, values });
  }
  return rows;
}

/** At each breath, the mean of it and the breaths before it, `count` in all (fewer at the start). */
export function rollingBreaths(breaths: Breath[], count: number): Row[] {
  return breaths.map((b, i) => ({ t: b.t_end, values: meanOf(breaths.slice(Math.max(0, i - count + 1), i + 1)) }));
}

/**
 * Each whole second, the time-weighted mean of the breaths over the `window_s` seconds before it
 * (each breath spans its duration up to its end); seconds less than half covered are skipped.
 */
export function rollingTime(breaths: Breath[], window_s: number): Row[] {
  const rows: Row[] = [];
  if (breaths.length === 0) return rows;
  const cursor = { first: 0 };
  for (let t = Math.ceil(breaths[0].t_end); t <= Math.floor(breaths[breaths.length - 1].t_end); t++) {
    const values = windowMean(breaths, cursor, t, window_s);
    if (values) rows.push({ t, values });
  }
  return rows;
}

/**
 * The mean of the breath values over the `window_s` seconds up to `hi`, each breath weighted by how
 * much of its duration lies inside; null when less than half the window is covered. Windows must
 * come in increasing order: `cursor.first` skips the breaths that ended before the last one asked.
 */
function windowMean(breaths: Breath[], cursor: { first: number }, hi: number, window_s: number): Breath['values'] | null {
  const lo = hi - window_s;
  while (cursor.first < breaths.length && breaths[cursor.first].t_end <= lo) cursor.first++;
  const sums = Object.fromEntries(BREATH_CHANNELS.map((c) => [c, 0])) as Breath['values'];
  let covered = 0;
  for (let j = cursor.first; j < breaths.length; j++) {
    const b = breaths[j];
    const start = b.t_end - b.duration;
    if (start >= hi) break;
    const overlap = Math.min(hi, b.t_end) - Math.max(lo, start);
    if (overlap <= 0) continue;
    covered += overlap;
    for (const c of BREATH_CHANNELS) sums[c] += b.values[c] * overlap;
  }
  if (covered < window_s / 2) return null;
  for (const c of BREATH_CHANNELS) sums[c] /= covered;
  return sums;
}

/**
 * A centred `smoothing` -breath moving average (shrinking at the ends), linearly interpolated at
 * every whole second from the first breath to the last.
 */
export function interpolated1Hz(breaths: Breath[], smoothing: number): Row[] {
  const half = Math.floor(smoothing / 2);
  const smooth = breaths.map((b, i) => ({ t: b.t_end, values: meanOf(breaths.slice(Math.max(0, i - half), Math.min(breaths.length, i - half + smoothing))) }));
  const rows: Row[] = [];
  if (smooth.length < 2) return rows;
  let k = 0;
  for (let t = Math.ceil(smooth[0].t); t <= Math.floor(smooth[smooth.length - 1].t); t++) {
    while (k < smooth.length - 2 && smooth[k + 1].t < t) k++;
    const a = smooth[k];
    const b = smooth[k + 1];
    const w = b.t > a.t ? Math.min(1, Math.max(0, (t - a.t) / (b.t - a.t))) : 0;
    const values = Object.fromEntries(BREATH_CHANNELS.map((c) => [c, a.values[c] * (1 - w) + b.values[c] * w])) as Breath['values'];
    rows.push({ t, values });
  }
  return rows;
}

function meanOf(breaths: Breath[]): Breath['values'] {
  const out = Object.fromEntries(BREATH_CHANNELS.map((c) => [c, 0])) as Breath['values'];
  for (const b of breaths) for (const c of BREATH_CHANNELS) out[c] += b.values[c];
  for (const c of BREATH_CHANNELS) out[c] /= breaths.length;
  return out;
}
