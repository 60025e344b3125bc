/**
 * Averaged exports as carts and tools write them, besides breath-by-breath and fixed windows
 * (breaths.ts): a rolling N-breath mean written at every breath, a rolling time window written
 * every second, and a 1-Hz series interpolated from smoothed breaths (pyoxynet's loader filters the
 * breaths with a 20-breath uniform filter, then interpolates them to whole seconds).
 */
import type { Breath } from './breaths.js';

export interface Row {
  t: number;
  values: Breath['values'];
}

const CHANNELS = ['VO2', 'VCO2', 'VE', 'RF', 'VT', 'PetO2', 'PetCO2', 'HR'] as const;

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
  let first = 0;
  for (let t = Math.ceil(breaths[0].t_end); t <= Math.floor(breaths[breaths.length - 1].t_end); t++) {
    const lo = t - window_s;
    while (first < breaths.length && breaths[first].t_end <= lo) first++;
    const sums = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Breath['values'];
    let covered = 0;
    for (let j = first; j < breaths.length; j++) {
      const b = breaths[j];
      const start = b.t_end - b.duration;
      if (start >= t) break;
      const overlap = Math.min(t, b.t_end) - Math.max(lo, start);
      if (overlap <= 0) continue;
      covered += overlap;
      for (const c of CHANNELS) sums[c] += b.values[c] * overlap;
    }
    if (covered < window_s / 2) continue;
    for (const c of CHANNELS) sums[c] /= covered;
    rows.push({ t, values: sums });
  }
  return rows;
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
    const values = Object.fromEntries(CHANNELS.map((c) => [c, a.values[c] * (1 - w) + b.values[c] * w])) as Breath['values'];
    rows.push({ t, values });
  }
  return rows;
}

function meanOf(breaths: Breath[]): Breath['values'] {
  const out = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Breath['values'];
  for (const b of breaths) for (const c of CHANNELS) out[c] += b.values[c];
  for (const c of CHANNELS) out[c] /= breaths.length;
  return out;
}
