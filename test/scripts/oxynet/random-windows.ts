/**
 * Seeded random windows shaped like min-max scaled signals: per window and channel, a random walk
 * (steps within +-0.05) from a random start, clipped to [0, 1]. White noise is avoided on purpose:
 * it drives the hidden activations to about 65, where float32 accumulation alone reaches 1e-5.
 */
export function randomWindows(n: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const next = () => {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = new Float32Array(n * 200);
  for (let w = 0; w < n; w++) {
    for (let c = 0; c < 5; c++) {
      let v = next();
      for (let t = 0; t < 40; t++) {
        v = Math.min(1, Math.max(0, v + (next() - 0.5) * 0.1));
        out[w * 200 + t * 5 + c] = v;
      }
    }
  }
  return out;
}
