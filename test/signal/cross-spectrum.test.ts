import { expect } from 'chai';
import { bandCoupling } from '../../src/signal/cross-spectrum.js';

/** A deterministic pseudo-random sequence (xorshift), so the test never changes. */
function noise(n: number, seed: number): number[] {
  let s = seed >>> 0 || 1;
  return Array.from({ length: n }, () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 2 ** 32 - 0.5) * 2;
  });
}

describe('bandCoupling', () => {
  const n = 1200;
  const t = Array.from({ length: n }, (_, i) => i);
  const drive = t.map((x) => 10 * Math.sin((2 * Math.PI * x) / 60) + 4 * Math.sin((2 * Math.PI * x) / 97));

  it('finds two signals driven alike coherent and in phase', () => {
    const a = drive.map((d, i) => 50 + d + noise(n, 1)[i]);
    const b = drive.map((d, i) => 40 + 0.8 * d + noise(n, 2)[i]);
    const c = bandCoupling(t, a, b, 20, 200)!;
    expect(c.coherence).to.be.greaterThan(0.9);
    expect(Math.abs(c.phase_deg)).to.be.below(10);
    expect(c.n_segments).to.equal(8);
  });

  it('finds an inverted signal in antiphase', () => {
    const a = drive.map((d, i) => 100 + d + noise(n, 3)[i]);
    const b = drive.map((d, i) => 40 - 0.3 * d + noise(n, 4)[i]);
    const c = bandCoupling(t, a, b, 20, 200)!;
    expect(c.coherence).to.be.greaterThan(0.8);
    expect(Math.abs(c.phase_deg)).to.be.above(170);
  });

  it('finds independent noise incoherent', () => {
    const c = bandCoupling(t, noise(n, 5), noise(n, 6), 20, 200)!;
    expect(c.coherence).to.be.below(0.3);
  });

  it('refuses fewer than three gap-free segments', () => {
    expect(bandCoupling(t.slice(0, 400), drive.slice(0, 400), drive.slice(0, 400), 20, 200)).to.equal(null);
    // A 30-s gap every 200 s leaves no 256-s stretch without one.
    const gappy = drive.map((d, i) => (i % 200 < 30 ? null : d));
    expect(bandCoupling(t, gappy, drive, 20, 200)).to.equal(null);
  });

  it('bridges single missing samples rather than losing the segment', () => {
    const holes = drive.map((d, i) => (i % 50 === 25 ? null : d));
    expect(bandCoupling(t, holes, drive, 20, 200)!.n_segments).to.equal(8);
  });
});
