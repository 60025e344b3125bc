/**
 * Applies an averaging specification to one channel. Every kind returns points with the window each
 * point summarises, so a peak can say where it was read. A window counts only when its data cover
 * at least half of it (half its span for breaths, half its expected samples for averaged exports),
 * the rule the 30-s peak window always used, so an edge window holding one breath is never a peak.
 */
import { resampleUniform } from '../resample.js';
import { filtfiltLowPass } from './butterworth.js';
import type { AveragingSpec, AveragingStatistic } from './spec.js';

export interface AveragedSeries {
  /** Time each point is reported at: the sample's time (rolling), the bin's centre, or the grid point. */
  t_s: number[];
  values: (number | null)[];
  /** The span of data each point summarises. */
  t_start_s: number[];
  t_end_s: number[];
  /** Valid samples in each window (grid points for the low-pass). */
  n: number[];
}

/** `step_s`: the averaging interval of an averaged export (0 for breath-by-breath or unknown). */
export function applyAveraging(t_s: readonly number[], values: readonly (number | null)[], spec: AveragingSpec, step_s = 0): AveragedSeries {
  switch (spec.kind) {
    case 'time_bins':
      return timeBins(t_s, values, spec.window_s, spec.statistic, step_s);
    case 'rolling_time':
      return rolling(
        t_s,
        values,
        spec.statistic,
        (_i, xt) => covered(xt, spec.window_s, step_s),
        (i) => timeWindow(t_s, i, spec.window_s, spec.alignment),
      );
    case 'rolling_breaths':
      return rolling(
        t_s,
        values,
        spec.statistic,
        (_i, xt) => xt.length >= Math.ceil(spec.breaths / 2),
        (i) => breathWindow(t_s, i, spec.breaths, spec.alignment),
      );
    case 'low_pass':
      return lowPass(t_s, values, spec.cutoff_hz, spec.order);
  }
}

const isValid = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

function statistic(xs: number[], stat: AveragingStatistic): number {
  if (stat === 'mean') return xs.reduce((a, b) => a + b, 0) / xs.length;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Whether a time window of `w` s holding valid samples at times `xt` is covered enough. */
function covered(xt: number[], w: number, step_s: number): boolean {
  if (xt.length === 0) return false;
  if (step_s > 0) return xt.length >= Math.max(1, Math.round(w / step_s / 2));
  return xt.length >= 2 && xt[xt.length - 1] - xt[0] >= w / 2;
}

interface Window {
  lo: number;
  hi: number;
  from_s: number;
  to_s: number;
}

/** The time window at sample i: (t - w, t] trailing, [t - w/2, t + w/2] centred, clipped to the record. */
function timeWindow(t_s: readonly number[], i: number, w: number, alignment: 'centred' | 'trailing'): Window {
  const from = alignment === 'trailing' ? t_s[i] - w : t_s[i] - w / 2;
  const to = alignment === 'trailing' ? t_s[i] : t_s[i] + w / 2;
  let lo = i;
  while (lo > 0 && (alignment === 'trailing' ? t_s[lo - 1] > from : t_s[lo - 1] >= from)) lo--;
  let hi = i;
  while (hi + 1 < t_s.length && t_s[hi + 1] <= to) hi++;
  return { lo, hi, from_s: Math.max(from, t_s[0]), to_s: Math.min(to, t_s[t_s.length - 1]) };
}

/** `k` breaths ending at breath i (trailing) or around it (centred); none where the record runs out. */
function breathWindow(t_s: readonly number[], i: number, k: number, alignment: 'centred' | 'trailing'): Window | null {
  const lo = alignment === 'trailing' ? i - k + 1 : i - Math.floor((k - 1) / 2);
  const hi = lo + k - 1;
  return lo < 0 || hi >= t_s.length ? null : { lo, hi, from_s: t_s[lo], to_s: t_s[hi] };
}

function rolling(
  t_s: readonly number[],
  values: readonly (number | null)[],
  stat: AveragingStatistic,
  enough: (i: number, validTimes: number[]) => boolean,
  windowAt: (i: number) => Window | null,
): AveragedSeries {
  const out: AveragedSeries = { t_s: [], values: [], t_start_s: [], t_end_s: [], n: [] };
  for (let i = 0; i < t_s.length; i++) {
    const win = windowAt(i);
    let value: number | null = null;
    let n = 0;
    let t0 = t_s[i];
    let t1 = t_s[i];
    if (win) {
      const xs: number[] = [];
      const xt: number[] = [];
      for (let j = win.lo; j <= win.hi; j++) {
        const v = values[j];
        if (isValid(v)) {
          xs.push(v);
          xt.push(t_s[j]);
        }
      }
      n = xs.length;
      t0 = win.from_s;
      t1 = win.to_s;
      if (enough(i, xt)) value = statistic(xs, stat);
    }
    out.t_s.push(t_s[i]);
    out.values.push(value);
    out.t_start_s.push(t0);
    out.t_end_s.push(t1);
    out.n.push(n);
  }
  return out;
}

function timeBins(t_s: readonly number[], values: readonly (number | null)[], w: number, stat: AveragingStatistic, step_s: number): AveragedSeries {
  const out: AveragedSeries = { t_s: [], values: [], t_start_s: [], t_end_s: [], n: [] };
  if (t_s.length === 0) return out;
  const origin = t_s[0];
  let i = 0;
  for (let bin = 0; i < t_s.length; bin++) {
    const from = origin + bin * w;
    const to = from + w;
    const xs: number[] = [];
    const xt: number[] = [];
    while (i < t_s.length && t_s[i] < to) {
      if (isValid(values[i])) {
        xs.push(values[i] as number);
        xt.push(t_s[i]);
      }
      i++;
    }
    out.t_s.push(from + w / 2);
    out.values.push(covered(xt, w, step_s) ? statistic(xs, stat) : null);
    out.t_start_s.push(from);
    out.t_end_s.push(to);
    out.n.push(xs.length);
  }
  return out;
}

/** Interpolated onto 1 Hz (outlier gaps bridged linearly), filtered, reported on the grid where data exist. */
function lowPass(t_s: readonly number[], values: readonly (number | null)[], cutoff_hz: number, order: number): AveragedSeries {
  const out: AveragedSeries = { t_s: [], values: [], t_start_s: [], t_end_s: [], n: [] };
  const grid = resampleUniform(t_s, values, 1);
  const idx: number[] = [];
  const xs: number[] = [];
  grid.values.forEach((v, k) => {
    if (Number.isFinite(v)) {
      idx.push(k);
      xs.push(v);
    }
  });
  if (xs.length < 2) return out;
  const y = filtfiltLowPass(xs, 1, cutoff_hz, order);
  idx.forEach((k, j) => {
    const t = grid.t0_s + k * grid.dt_s;
    out.t_s.push(t);
    out.values.push(y[j]);
    out.t_start_s.push(t);
    out.t_end_s.push(t);
    out.n.push(1);
  });
  return out;
}
