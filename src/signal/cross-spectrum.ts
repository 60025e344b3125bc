/**
 * Coherence and phase of two signals over a band of periods, by Welch's averaged cross-spectrum
 * (Welch, IEEE Trans Audio Electroacoust 1967): 1-Hz grid, 256-s Hann segments overlapping by
 * half, each detrended. Used to check that two gas signals move together (or in opposition).
 */
import { resampleUniform } from './resample.js';

/** Segment length and hop, s (at 1 Hz): 256 s holds two cycles of the slowest period checked. */
export const SEGMENT_S = 256;
const HOP_S = 128;
/** Fewest segments for a coherence estimate: with one, coherence is 1 whatever the signals. */
export const MIN_SEGMENTS = 3;

export interface BandCoupling {
  /** Magnitude-squared coherence over the band, 0..1 (power-weighted over the frequencies). */
  coherence: number;
  /** Phase of b relative to a over the band, degrees in (-180, 180]. */
  phase_deg: number;
  n_segments: number;
}

/**
 * Coupling of b with a over periods [period_min_s, period_max_s]; null when fewer than
 * MIN_SEGMENTS gap-free segments exist (gaps over 10 s break a segment).
 */
export function bandCoupling(t_s: readonly number[], a: readonly (number | null)[], b: readonly (number | null)[], period_min_s: number, period_max_s: number): BandCoupling | null {
  if (t_s.length < 2) return null;
  const t0 = Math.ceil(t_s[0]);
  const ga = resampleUniform(t_s, a, 1, { t0_s: t0, maxGapS: 10 }).values;
  const gb = resampleUniform(t_s, b, 1, { t0_s: t0, maxGapS: 10 }).values;
  const n = Math.min(ga.length, gb.length);
  const L = SEGMENT_S;
  const kLo = Math.max(1, Math.ceil(L / period_max_s));
  const kHi = Math.min(L / 2 - 1, Math.floor(L / period_min_s));
  if (kHi < kLo) return null;
  const nk = kHi - kLo + 1;
  const sxx = new Float64Array(nk);
  const syy = new Float64Array(nk);
  const sxyRe = new Float64Array(nk);
  const sxyIm = new Float64Array(nk);
  const hann = Float64Array.from({ length: L }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (L - 1)));
  // The DFT's kernel at each frequency of the band, the same for every segment.
  const cosines = Array.from({ length: nk }, (_, j) => Float64Array.from({ length: L }, (_, i) => Math.cos(((-2 * Math.PI * (kLo + j)) / L) * i)));
  const sines = Array.from({ length: nk }, (_, j) => Float64Array.from({ length: L }, (_, i) => Math.sin(((-2 * Math.PI * (kLo + j)) / L) * i)));
  const xa = new Float64Array(L);
  const xb = new Float64Array(L);
  let segments = 0;
  for (let s = 0; s + L <= n; s += HOP_S) {
    let gap = false;
    for (let i = 0; i < L && !gap; i++) if (!Number.isFinite(ga[s + i]) || !Number.isFinite(gb[s + i])) gap = true;
    if (gap) continue;
    detrendWindow(ga, s, L, hann, xa);
    detrendWindow(gb, s, L, hann, xb);
    for (let j = 0; j < nk; j++) {
      let aRe = 0;
      let aIm = 0;
      let bRe = 0;
      let bIm = 0;
      const cos = cosines[j];
      const sin = sines[j];
      for (let i = 0; i < L; i++) {
        aRe += xa[i] * cos[i];
        aIm += xa[i] * sin[i];
        bRe += xb[i] * cos[i];
        bIm += xb[i] * sin[i];
      }
      sxx[j] += aRe * aRe + aIm * aIm;
      syy[j] += bRe * bRe + bIm * bIm;
      // conj(A) * B: the phase of b minus the phase of a.
      sxyRe[j] += aRe * bRe + aIm * bIm;
      sxyIm[j] += aRe * bIm - aIm * bRe;
    }
    segments++;
  }
  if (segments < MIN_SEGMENTS) return null;
  let num = 0;
  let den = 0;
  let re = 0;
  let im = 0;
  for (let j = 0; j < nk; j++) {
    num += sxyRe[j] * sxyRe[j] + sxyIm[j] * sxyIm[j];
    den += sxx[j] * syy[j];
    re += sxyRe[j];
    im += sxyIm[j];
  }
  if (!(den > 0)) return null;
  return { coherence: num / den, phase_deg: (Math.atan2(im, re) * 180) / Math.PI, n_segments: segments };
}

/** Removes the least-squares line from v[s..s+L) and applies the window into out. */
function detrendWindow(v: Float64Array, s: number, L: number, win: Float64Array, out: Float64Array): void {
  const mx = (L - 1) / 2;
  let my = 0;
  for (let i = 0; i < L; i++) my += v[s + i];
  my /= L;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < L; i++) {
    sxy += (i - mx) * (v[s + i] - my);
    sxx += (i - mx) * (i - mx);
  }
  const slope = sxy / sxx;
  for (let i = 0; i < L; i++) out[i] = (v[s + i] - my - slope * (i - mx)) * win[i];
}
