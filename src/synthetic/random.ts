/**
 * Seeded random numbers: the same seed gives the same sequence on every platform, which is what
 * makes a synthetic recording (and a model trained on them) reproducible.
 */

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: a 32-bit generator with good statistical quality for simulation. */
export function createRng(seed: number): Rng {
  let state = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let spare: number | null = null;
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    normal: () => {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      let u = 0;
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/**
 * A stream of its own for quantities added after a seed's main stream was fixed: the same seed and
 * stream give the same numbers, and drawing from it never moves the main stream.
 */
export function createStreamRng(seed: number, stream: number): Rng {
  return createRng((Math.imul(Math.floor(seed), 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35)) >>> 0);
}
