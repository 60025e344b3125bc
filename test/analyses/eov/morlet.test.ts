import { expect } from 'chai';
import { expectedNoisePower, spectrumOf, waveletRow } from '../../../analyses/eov/morlet.js';

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
});
