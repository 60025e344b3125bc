/**
 * The scalogram of detrended VE over the resolvable band: wavelet power at log-spaced periods and
 * its `clarity`, the power over the recording's own red-noise background at that period
 * (Torrence and Compo 1998: the 95 % point of the chi-square(2)/2 background ratio is 3.0).
 */
import { expectedNoisePower, spectrumOf, waveletPower, waveletRow, type Spectrum } from './morlet.js';
import { centredMean, detrendGainAtBin, fitRedNoise, redNoisePowerAt, type RedNoise } from './series.js';

/** Periods per octave: fine enough to place a peak within a few per cent before interpolation. */
export const VOICES_PER_OCTAVE = 12;
/** Clarity at which wavelet power is significant against red noise at 95 % (chi-square(2)/2). */
export const CLARITY_SIGNIFICANT = 3.0;
/**
 * Clarity a ridge must hold to trace an oscillation: the 99 % point of chi-square(2)/2, stricter
 * than 95 % because a recording offers hundreds of independent time-period cells to chance.
 */
export const CLARITY_RIDGE = -Math.log(0.01);
/** At most this many spectral peaks are notched out before the background is fitted. */
const MAX_NOTCHED_PEAKS = 3;
/** Notched peaks are at least this many octaves apart, so their notches do not overlap. */
const NOTCH_SEPARATION_OCTAVES = 0.5;

/** Wavelet power of detrended VE over the band, with the backgrounds clarity is read against. */
export interface Scalogram {
  periods_s: Float64Array;
  /** power[j][i]: |W|^2 at periods_s[j], grid point i. */
  power: Float64Array[];
  /** Expected background power at each period (red noise through the detrend). */
  background: Float64Array;
  /**
   * Local noise level over the recording's mean (mean 1). Breath noise in VE grows with
   * ventilation, so an event must also stand out against the noise where it happens.
   */
  weight: Float64Array;
  /** The same background at any period (an event's peak falls between the grid's periods). */
  background_of: NoiseBackground;
  spectrum: Spectrum;
  detrend_points: number;
}

/** Log-spaced periods from `lo_s` to `hi_s` inclusive of both ends. */
export function periodGrid(lo_s: number, hi_s: number): Float64Array {
  const octaves = Math.log2(hi_s / lo_s);
  const count = Math.max(2, Math.ceil(octaves * VOICES_PER_OCTAVE) + 1);
  const out = new Float64Array(count);
  for (let j = 0; j < count; j++) out[j] = lo_s * (hi_s / lo_s) ** (j / (count - 1));
  return out;
}

/** Per bin of an FFT size: cos(2 pi k / size), and the detrend's gain (series.ts), the same numbers whichever noise is read through them. */
interface BinGeometry {
  cos: Float64Array;
  gain: Float64Array;
}

/**
 * Bin geometry by FFT size and detrend length, kept across recordings: both backgrounds of every
 * recording of one length and interval read the same table, whose trigonometry was redone per
 * background (issue 23). A few sizes at most are kept (a 2^17-point table is 1 MB).
 */
const geometries = new Map<string, BinGeometry>();
const MAX_GEOMETRIES = 4;

function binGeometry(size: number, detrendPts: number): BinGeometry {
  const key = `${size} ${detrendPts}`;
  let geometry = geometries.get(key);
  if (!geometry) {
    const half = size / 2;
    geometry = { cos: new Float64Array(half), gain: new Float64Array(half) };
    for (let k = 0; k < half; k++) {
      geometry.cos[k] = Math.cos((2 * Math.PI * k) / size);
      geometry.gain[k] = detrendGainAtBin(k, size, detrendPts);
    }
    if (geometries.size >= MAX_GEOMETRIES) geometries.delete(geometries.keys().next().value as string);
    geometries.set(key, geometry);
  }
  return geometry;
}

/** Expected background power of one spectrum's noise at any period. */
export type NoiseBackground = (period_s: number) => number;

/**
 * The background of a spectrum's red noise through the detrend, at any period. The noise power at
 * each FFT bin is tabulated once (the trigonometry would otherwise be redone at every period asked).
 */
export function noiseBackground(spec: Spectrum, noise: RedNoise, detrendPts: number): NoiseBackground {
  const half = spec.size / 2;
  const { cos, gain } = binGeometry(spec.size, detrendPts);
  const perBin = new Float64Array(half);
  for (let k = 0; k < half; k++) {
    const g = gain[k];
    perBin[k] = redNoisePowerAt(noise, cos[k]) * g * g;
  }
  return (period_s) => expectedNoisePower(spec.size, spec.dt_s, period_s, (k) => perBin[k], spec.filters);
}

/** Scalogram of a detrended series over `periods_s`. */
export function buildScalogram(detrended: Float64Array, dt_s: number, periods_s: Float64Array, detrendPts: number): Scalogram {
  const longest = periods_s[periods_s.length - 1];
  // Mirror about two wavelet widths of the longest period so its filter never reaches the FFT's wrap.
  const spectrum = spectrumOf(detrended, dt_s, 2 * longest);
  const power: Float64Array[] = [];
  for (let j = 0; j < periods_s.length; j++) power.push(waveletPower(spectrum, periods_s[j]));
  const backgroundFor = (at: NoiseBackground): Float64Array => Float64Array.from(periods_s, (p) => at(p));
  // 1. A first red-noise fit over the whole series: an oscillation inflates it.
  const first = fitRedNoise(detrended);
  // 2. Notch out the significant peaks of the time-averaged spectrum and refit on what is left, so
  //    the background is the recording's own noise, not the oscillation being tested against it.
  const peaks = significantPeaks(power, backgroundFor(noiseBackground(spectrum, first, detrendPts)), periods_s);
  const residual = Float64Array.from(detrended);
  for (const j of peaks) {
    const row = waveletRow(spectrum, periods_s[j]);
    for (let i = 0; i < residual.length; i++) residual[i] -= 2 * row.re[i];
  }
  const noise = peaks.length ? fitRedNoise(residual) : first;
  const backgroundOf = noiseBackground(spectrum, noise, detrendPts);
  return { periods_s, power, background: backgroundFor(backgroundOf), background_of: backgroundOf, weight: noiseWeight(detrended, dt_s), spectrum, detrend_points: detrendPts };
}

/** Window over which the local noise level is measured, s. */
const NOISE_WINDOW_S = 120;
/** Weights are kept at or above this, so held samples never make noise look infinitely clear. */
const MIN_WEIGHT = 0.1;

/**
 * Local noise level: the centred mean of squared first differences (which slow oscillations barely
 * touch) over the recording's mean of the same.
 */
export function noiseWeight(detrended: Float64Array, dt_s: number): Float64Array {
  const n = detrended.length;
  const sq = new Float64Array(n);
  for (let i = 1; i < n; i++) sq[i] = (detrended[i] - detrended[i - 1]) ** 2;
  if (n > 1) sq[0] = sq[1];
  const local = centredMean(sq, Math.max(1, 2 * Math.round(NOISE_WINDOW_S / dt_s / 2) + 1));
  let total = 0;
  for (let i = 0; i < n; i++) total += local[i];
  const mean = total / n;
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) w[i] = mean > 0 ? Math.max(MIN_WEIGHT, local[i] / mean) : 1;
  return w;
}

/** Period indices of the strongest local maxima of time-averaged clarity above significance. */
function significantPeaks(power: Float64Array[], background: Float64Array, periods_s: Float64Array): number[] {
  const global = power.map((row, j) => {
    let sum = 0;
    for (let i = 0; i < row.length; i++) sum += row[i];
    return sum / row.length / background[j];
  });
  const maxima: number[] = [];
  for (let j = 0; j < global.length; j++) {
    const left = j === 0 || global[j - 1] < global[j];
    const right = j === global.length - 1 || global[j + 1] <= global[j];
    if (left && right && global[j] >= CLARITY_SIGNIFICANT) maxima.push(j);
  }
  maxima.sort((a, b) => global[b] - global[a] || a - b);
  const chosen: number[] = [];
  for (const j of maxima) {
    if (chosen.length >= MAX_NOTCHED_PEAKS) break;
    const apart = chosen.every((c) => Math.abs(Math.log2(periods_s[c] / periods_s[j])) >= NOTCH_SEPARATION_OCTAVES);
    if (apart) chosen.push(j);
  }
  return chosen;
}
