/**
 * Morlet continuous wavelet transform by FFT, amplitude-normalised so that a sinusoid of
 * half-amplitude a reads |W| = a / 2 at its own period, and the expected wavelet power of a
 * red-noise background at each period (Torrence and Compo, Bull Am Meteor Soc 1998).
 */
import FFT from 'fft.js';

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

/** Wavelet scale (s) of the Morlet whose peak response sits at `period_s`. */
export function scaleForPeriod(period_s: number): number {
  return (MORLET_OMEGA0 * period_s) / (2 * Math.PI);
}

/**
 * Spectrum of `values` after mirrored padding of `pad_s` seconds at each end (mirroring keeps the
 * edges continuous, so the ends add no spurious broadband power).
 */
export function spectrumOf(values: Float64Array, dt_s: number, pad_s: number): Spectrum {
  return spectrumPadded(values, dt_s, Math.ceil(pad_s / dt_s), new Map());
}

/** Spectrum of another series of the same length with the same padding and FFT size as `like`. */
export function spectrumLike(values: Float64Array, like: Spectrum): Spectrum {
  return spectrumPadded(values, like.dt_s, like.pad, like.filters);
}

function spectrumPadded(values: Float64Array, dt_s: number, padPoints: number, filters: FilterTable): Spectrum {
  const n = values.length;
  const pad = Math.max(0, Math.min(n - 1, padPoints));
  let size = 2;
  while (size < n + 2 * pad) size <<= 1;
  const input = new Float64Array(size);
  for (let i = 0; i < n; i++) input[pad + i] = values[i];
  for (let i = 1; i <= pad; i++) {
    input[pad - i] = values[i];
    input[pad + n - 1 + i] = values[n - 1 - i];
  }
  const fft = fftFor(size);
  const out = fft.createComplexArray();
  fft.realTransform(out, input);
  fft.completeSpectrum(out);
  return { size, n, pad, dt_s, bins: Float64Array.from(out), filters };
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
    table.set(period_s, filter);
  }
  return filter;
}

/** Complex wavelet coefficients at one period over the original series: re and im arrays. */
export interface WaveletRow {
  re: Float64Array;
  im: Float64Array;
}

/** Work arrays per FFT size, reused across rows: allocation dominated the transform otherwise. */
const workspaces = new Map<number, { filtered: number[]; out: number[] }>();

/**
 * The inverse transform of the spectrum through the Morlet filter at one period, left in the
 * workspace's `out` (interleaved, padded length) until the next row of the same size.
 */
function filteredSeries(spec: Spectrum, period_s: number): number[] {
  const { size, bins, dt_s, filters } = spec;
  const fft = fftFor(size);
  let work = workspaces.get(size);
  if (!work) {
    work = { filtered: fft.createComplexArray(), out: fft.createComplexArray() };
    workspaces.set(size, work);
  }
  const { filtered, out } = work;
  const { lo: kLo, hi: kHi, gains } = morletFilter(size, dt_s, period_s, filters);
  for (let k = kLo; k <= kHi; k++) {
    const g = gains[k - kLo];
    filtered[2 * k] = bins[2 * k] * g;
    filtered[2 * k + 1] = bins[2 * k + 1] * g;
  }
  fft.inverseTransform(out, filtered);
  for (let k = kLo; k <= kHi; k++) {
    filtered[2 * k] = 0;
    filtered[2 * k + 1] = 0;
  }
  return out;
}

/** Wavelet coefficients of a spectrum at one period (analytic Morlet, amplitude normalised). */
export function waveletRow(spec: Spectrum, period_s: number): WaveletRow {
  const { n, pad } = spec;
  const out = filteredSeries(spec, period_s);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    re[i] = out[2 * (pad + i)];
    im[i] = out[2 * (pad + i) + 1];
  }
  return { re, im };
}

/** Wavelet power |W|^2 of a spectrum at one period, without keeping the coefficients. */
export function waveletPower(spec: Spectrum, period_s: number): Float64Array {
  const { n, pad } = spec;
  const out = filteredSeries(spec, period_s);
  const power = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const re = out[2 * (pad + i)];
    const im = out[2 * (pad + i) + 1];
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

/** FFT instances by size, kept for the process: a power of two up to the grid's cap, so few. */
const ffts = new Map<number, FFT>();

/** The shared FFT instance for one size (its tables cost as much as a transform to build and never change). */
function fftFor(size: number): FFT {
  let fft = ffts.get(size);
  if (!fft) {
    fft = new FFT(size);
    ffts.set(size, fft);
  }
  return fft;
}
