/**
 * Uniform-grid series for the wavelet: resampling at the raw interval, gap filling, the centred
 * moving-average detrend and its known gain, and the red-noise (AR(1)) fit of the background.
 */
import { resampleUniform } from '../../src/signal/resample.js';

/** Detrend window: a centred moving average of about a minute removes the exercise ramp. */
export const DETREND_WINDOW_S = 60;

/**
 * Resamples a channel onto the grid t0, t0 + dt ... (n points). Gaps are bridged by straight lines
 * (the preconditions already bound how much of the recording may be missing) and the ends are held.
 */
export function toGrid(t_s: readonly number[], values: readonly (number | null)[], t0_s: number, dt_s: number, n: number): Float64Array {
  const out = Float64Array.from(resampleUniform(t_s, values, dt_s, { t0_s, t_end_s: t0_s + (n - 1) * dt_s }).values);
  fillEnds(out);
  return out;
}

/** Replaces NaN at either end (before the first or after the last valid point) by the nearest value. */
function fillEnds(values: Float64Array): void {
  let first = -1;
  let last = -1;
  for (let i = 0; i < values.length; i++) {
    if (Number.isFinite(values[i])) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) return;
  for (let i = 0; i < first; i++) values[i] = values[first];
  for (let i = last + 1; i < values.length; i++) values[i] = values[last];
}

/** Odd number of grid points of the detrend window. */
export function detrendPoints(dt_s: number): number {
  return Math.max(1, 2 * Math.round(DETREND_WINDOW_S / dt_s / 2) + 1);
}

/** Centred moving average over `points` grid points (the window shrinks symmetrically at the ends). */
export function centredMean(values: Float64Array, points: number): Float64Array {
  const n = values.length;
  const half = (points - 1) >> 1;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + values[i];
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const h = Math.min(half, i, n - 1 - i);
    out[i] = (prefix[i + h + 1] - prefix[i - h]) / (2 * h + 1);
  }
  return out;
}

/** Values minus their centred moving average of `points` grid points. */
export function detrend(values: Float64Array, points: number): Float64Array {
  const trend = centredMean(values, points);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i] - trend[i];
  return out;
}

/**
 * Gain |1 - H| that the moving-average detrend leaves on a sinusoid of `period_s`, where H is the
 * boxcar's response sin(pi M dt / P) / (M sin(pi dt / P)). Amplitudes are divided by it.
 */
export function detrendGain(period_s: number, dt_s: number, points: number): number {
  const x = (Math.PI * dt_s) / period_s;
  const h = Math.sin(points * x) / (points * Math.sin(x));
  return Math.abs(1 - h);
}

/** The same gain at FFT bin k of a transform of `size` points. */
export function detrendGainAtBin(k: number, size: number, points: number): number {
  if (k === 0) return 0;
  const x = (Math.PI * k) / size;
  const h = Math.sin(points * x) / (points * Math.sin(x));
  return Math.abs(1 - h);
}

/** Red-noise model of a series: variance and lag-1 autocorrelation (Torrence and Compo 1998). */
export interface RedNoise {
  variance: number;
  lag1: number;
}

/** Fits AR(1) to a zero-mean-ish series: variance and lag-1 autocorrelation (clamped to [0, 0.99]). */
export function fitRedNoise(values: Float64Array): RedNoise {
  const n = values.length;
  let m = 0;
  for (let i = 0; i < n; i++) m += values[i];
  m /= n;
  let c0 = 0;
  let c1 = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - m;
    c0 += d * d;
    if (i > 0) c1 += d * (values[i - 1] - m);
  }
  const lag1 = c0 > 0 ? Math.min(0.99, Math.max(0, c1 / c0)) : 0;
  return { variance: c0 / n, lag1 };
}

/**
 * AR(1) power at FFT bin k of `size` points, normalised so its mean over bins is the variance, from the
 * bin's cos(2 pi k / size), which the scalogram tabulates once per size for every noise it reads.
 */
export function redNoisePowerAt(noise: RedNoise, cos: number): number {
  const a = noise.lag1;
  return (noise.variance * (1 - a * a)) / (1 + a * a - 2 * a * cos);
}
