/**
 * Morlet continuous wavelet transform by FFT, amplitude-normalised so that a sinusoid of
 * half-amplitude a reads |W| = a / 2 at its own period, and the expected wavelet power of a
 * red-noise background at each period (Torrence and Compo, Bull Am Meteor Soc 1998).
 */
import FFT from 'fft.js';
import { bandInverseFft, inverseOfBand, type BandInverseFft } from './band-inverse-fft.js';

/** Morlet centre frequency (dimensionless); 6 is the usual trade-off of time against period resolution. */
export const MORLET_OMEGA0 = 6;

/** The spectrum of one real series, ready for wavelet filtering at any period. */
export interface Spectrum {
  /** FFT length (a power of two, covering the series plus its mirrored padding). */
  size: number;
  /** Number of points of the original series. */
  n: number;
  /** Points of mirrored padding before the series. */
  pad: number;
  dt_s: number;
  /** Interleaved complex spectrum (re, im, re, im ...), full length. */
  bins: Float64Array;
  /** Morlet filters by period, shared by every spectrum of the same size and spacing. */
  filters: FilterTable;
}

/** The Morlet filter at one period: its gains over the FFT bins [lo, hi] where it is not negligible. */
interface MorletFilter {
  lo: number;
  hi: number;
  gains: Float64Array;
}

/**
 * Filters by period for one FFT size and spacing. A period's filter serves its scalogram row, both
 * red-noise backgrounds and every companion channel of an event, so its exponentials are computed
 * once per recording (they were a tenth of the analysis at 20,000 samples, issue 23).
 */
export type FilterTable = Map<number, MorletFilter>;

/**
 * Filter tables by FFT size and spacing, kept across recordings: a filter depends on nothing else,
 * and recordings of one length and interval (the public sample, request after request) ask for the
 * same periods, whose exponentials were a sixth of eov's time on the sample (issue 23).
 */
const sharedTables = new Map<string, FilterTable>();
/** Gains computed since the shared tables were last dropped: past 16 MB of them they are dropped and refilled, with the same numbers. */
const MAX_SHARED_GAINS = 1 << 21;
let sharedGains = 0;

function sharedTable(size: number, dt_s: number): FilterTable {
  const key = `${size} ${dt_s}`;
  let table = sharedTables.get(key);
  if (!table) {
    table = new Map();
    sharedTables.set(key, table);
  }
  return table;
}

/** Wavelet scale (s) of the Morlet whose peak response sits at `period_s`. */
export function scaleForPeriod(period_s: number): number {
  return (MORLET_OMEGA0 * period_s) / (2 * Math.PI);
}

/**
 * Spectrum of `values` after mirrored padding of `pad_s` seconds at each end (mirroring keeps the
 * edges continuous, so the ends add no spurious broadband power).
 */
export function spectrumOf(values: Float64Array, dt_s: number, pad_s: number): Spectrum {
  return spectrumPadded(values, dt_s, Math.ceil(pad_s / dt_s), null);
}

/** Spectrum of another series of the same length with the same padding and FFT size as `like`. */
export function spectrumLike(values: Float64Array, like: Spectrum): Spectrum {
  return spectrumPadded(values, like.dt_s, like.pad, like.filters);
}

/** `filters` null: the shared table of the spectrum's size and spacing. */
function spectrumPadded(values: Float64Array, dt_s: number, padPoints: number, filters: FilterTable | null): Spectrum {
  const n = values.length;
  const pad = Math.max(0, Math.min(n - 1, padPoints));
  let size = 2;
  while (size < n + 2 * pad) size <<= 1;
  const { fft, input } = forwardWork(size);
  input.fill(0);
  for (let i = 0; i < n; i++) input[pad + i] = values[i];
  for (let i = 1; i <= pad; i++) {
    input[pad - i] = values[i];
    input[pad + n - 1 + i] = values[n - 1 - i];
  }
  // A new array of zeros, as fft.js's own `createComplexArray` gives: the transform reads back what it wrote.
  const bins = new Float64Array(2 * size);
  fft.realTransform(bins, input);
  fft.completeSpectrum(bins);
  return { size, n, pad, dt_s, bins, filters: filters ?? sharedTable(size, dt_s) };
}

/** Widths of the Morlet's Gaussian kept: beyond 6 its gain is below 1.6e-8. */
const GAUSSIAN_WIDTHS = 6;

/** FFT bins [lo, hi] where the Morlet filter at scale s is not negligible. */
function binRange(size: number, dt_s: number, scale: number): [number, number] {
  const kCentre = (size * dt_s * MORLET_OMEGA0) / (2 * Math.PI * scale);
  const kSpan = (size * dt_s * GAUSSIAN_WIDTHS) / (2 * Math.PI * scale);
  return [Math.max(1, Math.floor(kCentre - kSpan)), Math.min(size / 2 - 1, Math.ceil(kCentre + kSpan))];
}

/** Gain of the analytic Morlet filter at FFT bin k for scale s (0 for non-positive frequencies). */
function morletGain(k: number, size: number, dt_s: number, scale: number): number {
  if (k <= 0 || k >= size / 2) return 0;
  const omega = (2 * Math.PI * k) / (size * dt_s);
  const x = scale * omega - MORLET_OMEGA0;
  return Math.exp(-0.5 * x * x);
}

/** The Morlet filter at `period_s` for a transform of `size` points at `dt_s`, from `table` when it has it. */
function morletFilter(size: number, dt_s: number, period_s: number, table: FilterTable): MorletFilter {
  let filter = table.get(period_s);
  if (!filter) {
    const scale = scaleForPeriod(period_s);
    const [lo, hi] = binRange(size, dt_s, scale);
    const gains = new Float64Array(Math.max(0, hi - lo + 1));
    for (let k = lo; k <= hi; k++) gains[k - lo] = morletGain(k, size, dt_s, scale);
    filter = { lo, hi, gains };
    if (sharedGains + gains.length > MAX_SHARED_GAINS) {
      sharedTables.clear();
      sharedGains = 0;
    }
    sharedGains += gains.length;
    table.set(period_s, filter);
  }
  return filter;
}

/** Complex wavelet coefficients at one period over grid points [start, start + re.length) of the original series. */
export interface WaveletRow {
  start: number;
  re: Float64Array;
  im: Float64Array;
}

/** The inverse transform's plan and output per FFT size, reused across rows: allocation dominated the transform otherwise. */
const inversePlans = new Map<number, BandInverseFft>();

/**
 * The inverse transform of the spectrum through the Morlet filter at one period, with the outputs
 * of grid points [first, last] left unscaled in the plan's `out` (interleaved, padded length) until
 * the next row of the same size: a value is `out[k] / size`, as fft.js's `inverseTransform` returned
 * it (analyses/eov/band-inverse-fft.ts). The size is a power of two, so `out[k] * (1 / size)` is the
 * same number: both are the exact quotient, rounded once.
 */
function filteredSeries(spec: Spectrum, period_s: number, first: number, last: number): number[] {
  const { size, bins, dt_s, filters, pad } = spec;
  let plan = inversePlans.get(size);
  if (!plan) {
    plan = bandInverseFft(size);
    inversePlans.set(size, plan);
  }
  const { lo, hi, gains } = morletFilter(size, dt_s, period_s, filters);
  return inverseOfBand(plan, bins, gains, { lo, hi, from: pad + first, to: pad + last + 1 });
}

/**
 * Wavelet coefficients of a spectrum at one period (analytic Morlet, amplitude normalised) over grid
 * points [first, last]: an event reads its own span only, which costs a fraction of the whole row.
 */
export function waveletRow(spec: Spectrum, period_s: number, first = 0, last = spec.n - 1): WaveletRow {
  const { pad, size } = spec;
  const out = filteredSeries(spec, period_s, first, last);
  const re = new Float64Array(last - first + 1);
  const im = new Float64Array(last - first + 1);
  const unit = 1 / size;
  for (let i = first; i <= last; i++) {
    re[i - first] = out[2 * (pad + i)] * unit;
    im[i - first] = out[2 * (pad + i) + 1] * unit;
  }
  return { start: first, re, im };
}

/** Wavelet power |W|^2 of a spectrum at one period, without keeping the coefficients. */
export function waveletPower(spec: Spectrum, period_s: number): Float64Array {
  const { n, pad, size } = spec;
  const out = filteredSeries(spec, period_s, 0, n - 1);
  const power = new Float64Array(n);
  const unit = 1 / size;
  for (let i = 0; i < n; i++) {
    const re = out[2 * (pad + i)] * unit;
    const im = out[2 * (pad + i) + 1] * unit;
    power[i] = re * re + im * im;
  }
  return power;
}

/**
 * Expected |W|^2 at `period_s` of noise whose power at FFT bin k is `noisePower(k)` (two-sided,
 * per bin, variance-normalised so white noise of variance v gives v at every bin). `filters` is the
 * table of the spectra this background is read against, when there are any.
 */
export function expectedNoisePower(size: number, dt_s: number, period_s: number, noisePower: (k: number) => number, filters: FilterTable = new Map()): number {
  const { lo: kLo, hi: kHi, gains } = morletFilter(size, dt_s, period_s, filters);
  let sum = 0;
  for (let k = kLo; k <= kHi; k++) {
    const g = gains[k - kLo];
    sum += noisePower(k) * g * g;
  }
  return sum / size;
}

/** The forward transform and its input per size, kept for the process: a power of two up to the grid's cap, so few. */
const forwards = new Map<number, { fft: FFT; input: Float64Array }>();

/** The shared forward FFT for one size (its tables cost as much as a transform to build and never change). */
function forwardWork(size: number): { fft: FFT; input: Float64Array } {
  let work = forwards.get(size);
  if (!work) {
    work = { fft: new FFT(size), input: new Float64Array(size) };
    forwards.set(size, work);
  }
  return work;
}
