import { expect } from 'chai';
import FFT from 'fft.js';
import { expectedNoisePower, scaleForPeriod, spectrumLike, spectrumOf, waveletPower, waveletRow } from '../../../analyses/eov/morlet.js';
import { createRng } from '../../../src/synthetic/random.js';

/**
 * The wavelet row as eov computed it before issue 23, kept as the reference the fast path must match
 * bit for bit: mirrored padding, fft.js's forward transform, the Morlet gains written into a full
 * spectrum of zeros, fft.js's inverse transform, the series' points read back.
 */
function referenceRow(values: Float64Array, dt_s: number, pad_s: number, period_s: number): { re: Float64Array; im: Float64Array } {
  const n = values.length;
  const pad = Math.max(0, Math.min(n - 1, Math.ceil(pad_s / dt_s)));
  let size = 2;
  while (size < n + 2 * pad) size <<= 1;
  const input = new Float64Array(size);
  for (let i = 0; i < n; i++) input[pad + i] = values[i];
  for (let i = 1; i <= pad; i++) {
    input[pad - i] = values[i];
    input[pad + n - 1 + i] = values[n - 1 - i];
  }
  const fft = new FFT(size);
  const spectrum = fft.createComplexArray();
  fft.realTransform(spectrum, input);
  fft.completeSpectrum(spectrum);
  const bins = Float64Array.from(spectrum);
  const scale = scaleForPeriod(period_s);
  const lo = Math.max(1, Math.floor((size * dt_s * 6) / (2 * Math.PI * scale) - (size * dt_s * 6) / (2 * Math.PI * scale)));
  const hi = Math.min(size / 2 - 1, Math.ceil((size * dt_s * 6) / (2 * Math.PI * scale) + (size * dt_s * 6) / (2 * Math.PI * scale)));
  const filtered = fft.createComplexArray();
  for (let k = lo; k <= hi; k++) {
    const x = scale * ((2 * Math.PI * k) / (size * dt_s)) - 6;
    const g = Math.exp(-0.5 * x * x);
    filtered[2 * k] = bins[2 * k] * g;
    filtered[2 * k + 1] = bins[2 * k + 1] * g;
  }
  const out = fft.createComplexArray();
  fft.inverseTransform(out, filtered);
  return { re: Float64Array.from({ length: n }, (_, i) => out[2 * (pad + i)]), im: Float64Array.from({ length: n }, (_, i) => out[2 * (pad + i) + 1]) };
}

/** Indices where two arrays differ in any bit. */
function bitDifferences(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  if (a.length !== b.length) return [-1];
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) out.push(i);
  return out;
}

describe('Morlet wavelet by FFT', () => {
  const dt = 2;
  const n = 600;
  const sine = (period: number, peakToTrough: number): Float64Array => Float64Array.from({ length: n }, (_, i) => (peakToTrough / 2) * Math.sin((2 * Math.PI * i * dt) / period));

  it('reads a sine of peak-to-trough A as 4|W| = A at its own period', () => {
    const spec = spectrumOf(sine(60, 10), dt, 280);
    const row = waveletRow(spec, 60);
    const mid = n >> 1;
    expect(4 * Math.hypot(row.re[mid], row.im[mid])).to.be.closeTo(10, 0.1);
  });

  it('responds less away from the sine period', () => {
    const spec = spectrumOf(sine(60, 10), dt, 280);
    const at = (p: number): number => {
      const r = waveletRow(spec, p);
      return Math.hypot(r.re[n >> 1], r.im[n >> 1]);
    };
    expect(at(60)).to.be.greaterThan(at(45));
    expect(at(60)).to.be.greaterThan(at(80));
  });

  it('advances the phase of the coefficient with time at the sine frequency', () => {
    const row = waveletRow(spectrumOf(sine(40, 4), dt, 280), 40);
    const phase = (i: number): number => Math.atan2(row.im[i], row.re[i]);
    const step = phase(301) - phase(300);
    expect(step).to.be.closeTo((2 * Math.PI * dt) / 40, 1e-3);
  });

  it('expects white-noise power of v dt / (2 sqrt(pi) s) at scale s', () => {
    const size = 4096;
    const period = 60;
    const scale = (6 * period) / (2 * Math.PI);
    const expected = (3 * dt) / (2 * Math.sqrt(Math.PI) * scale);
    expect(expectedNoisePower(size, dt, period, () => 3)).to.be.closeTo(expected, expected * 0.02);
  });

  it('gives the reference path bit for bit: rows, event windows and power, over lengths, spacings and periods', () => {
    const rng = createRng(23);
    for (const [n, dt_s] of [
      [300, 2],
      [389, 2.5],
      [1000, 1],
      [1971, 0.5],
      [4096, 1],
      [6000, 0.75],
    ]) {
      const values = Float64Array.from({ length: n }, (_, i) => 3 * Math.sin((2 * Math.PI * i * dt_s) / 70) + rng.normal());
      const spec = spectrumOf(values, dt_s, 280);
      const like = spectrumLike(
        values.map((v) => -2 * v),
        spec,
      );
      for (const period of [4 * dt_s, 17.3, 40, 61.7, 140]) {
        const want = referenceRow(values, dt_s, 280, period);
        const label = `n ${n}, dt ${dt_s} s, period ${period} s`;
        const row = waveletRow(spec, period);
        expect(bitDifferences(row.re, want.re), label).to.deep.equal([]);
        expect(bitDifferences(row.im, want.im), label).to.deep.equal([]);
        const power = Float64Array.from(want.re, (re, i) => re * re + want.im[i] * want.im[i]);
        expect(bitDifferences(waveletPower(spec, period), power), label).to.deep.equal([]);
        for (const [first, last] of [
          [0, 20],
          [Math.floor(n / 3), Math.floor(n / 3) + 37],
          [n - 9, n - 1],
        ]) {
          const part = waveletRow(spec, period, first, last);
          expect(part.start).to.equal(first);
          expect(bitDifferences(part.re, want.re.subarray(first, last + 1)), `${label}, points ${first}-${last}`).to.deep.equal([]);
          expect(bitDifferences(part.im, want.im.subarray(first, last + 1)), `${label}, points ${first}-${last}`).to.deep.equal([]);
        }
        const other = referenceRow(
          values.map((v) => -2 * v),
          dt_s,
          280,
          period,
        );
        expect(bitDifferences(waveletRow(like, period).re, other.re), `${label}, a second spectrum of the same size`).to.deep.equal([]);
      }
    }
  });
});
