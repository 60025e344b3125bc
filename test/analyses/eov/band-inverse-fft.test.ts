import { expect } from 'chai';
import FFT from 'fft.js';
import { bandInverseFft, inverseOfBand, type BandWindow } from '../../../analyses/eov/band-inverse-fft.js';
import { createRng } from '../../../src/synthetic/random.js';

/** The reference path: the band written into a full spectrum of zeros and fft.js's inverse transform, as eov ran it before issue 23. */
function reference(size: number, bins: Float64Array, gains: Float64Array, lo: number, hi: number): number[] {
  const fft = new FFT(size);
  const filtered = fft.createComplexArray();
  for (let k = lo; k <= hi; k++) {
    filtered[2 * k] = bins[2 * k] * gains[k - lo];
    filtered[2 * k + 1] = bins[2 * k + 1] * gains[k - lo];
  }
  const out = fft.createComplexArray();
  fft.inverseTransform(out, filtered);
  return out;
}

/** A spectrum of random values with some exact zeros of either sign, and gains that reach zero and underflow. */
function spectrum(size: number, lo: number, hi: number, seed: number): { bins: Float64Array; gains: Float64Array } {
  const rng = createRng(seed);
  const bins = Float64Array.from({ length: 2 * size }, () => {
    const u = rng.next();
    if (u < 0.02) return -0;
    if (u < 0.04) return 0;
    return rng.uniform(-1, 1) * 10 ** rng.int(-3, 3);
  });
  const gains = Float64Array.from({ length: Math.max(0, hi - lo + 1) }, () => {
    const u = rng.next();
    if (u < 0.03) return 0;
    if (u < 0.05) return 1e-320;
    return rng.next();
  });
  return { bins, gains };
}

/** Outputs in the window that differ from the reference's in any bit (the sign of zero included). */
function differences(size: number, window: BandWindow, seed: number): number[] {
  const { bins, gains } = spectrum(size, window.lo, window.hi, seed);
  const want = reference(size, bins, gains, window.lo, window.hi);
  const plan = bandInverseFft(size);
  // The plan's output array holds another transform's values first, as it does between rows.
  const other = spectrum(size, 1, size / 2 - 1, seed + 1);
  inverseOfBand(plan, other.bins, other.gains, { lo: 1, hi: size / 2 - 1, from: 0, to: size });
  const got = inverseOfBand(plan, bins, gains, window);
  const bad: number[] = [];
  // fft.js's inverseTransform divides by the size itself.
  for (let x = 2 * window.from; x < 2 * window.to; x++) if (!Object.is(got[x] / size, want[x])) bad.push(x);
  return bad;
}

describe('inverse FFT of one band (the wavelet rows)', () => {
  // Odd and even powers of two (a radix-2 or radix-4 first stage), below, at and above the cache chunk.
  const sizes = [4, 8, 16, 32, 64, 512, 2048, 4096, 8192, 16384, 32768];

  it('gives fft.js inverseTransform bit for bit over every output, for bands wide, narrow, high and single', () => {
    for (const size of sizes) {
      const half = size / 2;
      const bands: [number, number][] = [
        [1, half - 1],
        [1, Math.max(1, Math.floor(half / 10))],
        [1, Math.max(1, Math.floor(half / 35))],
        [Math.max(1, Math.floor(half / 3)), Math.max(1, Math.floor(half / 2))],
        [Math.max(1, half - 3), half - 1],
        [Math.max(1, Math.floor(half / 7)), Math.max(1, Math.floor(half / 7))],
      ];
      for (const [lo, hi] of bands) expect(differences(size, { lo, hi, from: 0, to: size }, size + lo + hi), `size ${size}, band [${lo}, ${hi}]`).to.deep.equal([]);
    }
  });

  it('gives the same bits over a window of outputs, where it computes only what the window needs', () => {
    for (const size of sizes.filter((s) => s >= 64)) {
      const quarter = size / 4;
      const windows: [number, number][] = [
        [0, 1],
        [3, 4],
        [quarter - 2, quarter + 3],
        [Math.floor(size / 3), Math.floor(size / 3) + 28],
        [size - 40, size],
        [Math.floor(size / 8), Math.floor(size * 0.7)],
        [quarter - 1, 2 * quarter + 1],
      ];
      for (const [from, to] of windows) {
        for (const [lo, hi] of [
          [1, size / 2 - 1],
          [1, Math.max(1, Math.floor(size / 40))],
        ]) {
          expect(differences(size, { lo, hi, from, to }, size + from), `size ${size}, band [${lo}, ${hi}], outputs [${from}, ${to})`).to.deep.equal([]);
        }
      }
    }
  });

  it('refuses a band outside the positive frequencies and sizes that are not powers of two', () => {
    const plan = bandInverseFft(16);
    const bins = new Float64Array(32);
    expect(() => inverseOfBand(plan, bins, new Float64Array(8), { lo: 1, hi: 8, from: 0, to: 16 })).to.throw(/positive frequencies/);
    expect(() => inverseOfBand(plan, bins, new Float64Array(8), { lo: 0, hi: 3, from: 0, to: 16 })).to.throw(/positive frequencies/);
    expect(() => inverseOfBand(plan, bins, new Float64Array(3), { lo: 1, hi: 3, from: 4, to: 17 })).to.throw(/outside/);
    expect(() => bandInverseFft(24)).to.throw(/power of two/);
  });
});
