/**
 * The inverse FFT of a spectrum filtered to one band of positive-frequency bins, as the wavelet rows
 * need it (analyses/eov/morlet.ts): bit for bit what fft.js 4.0.4's `inverseTransform` gave these rows
 * before issue 23, in fewer instructions.
 *
 * Why the bits are the same: fft.js's transform is a radix-4 decimation in time (a radix-2 first
 * stage when log2(size) is odd) over inputs in base-4 digit-reversed order, with twiddles
 * cos(2 pi q / size) and sin(2 pi q / size) for the inverse. This one performs every butterfly with
 * the same operands in the same order, so each output is the same sequence of IEEE operations. It
 * differs only in what cannot change a value:
 * - the input is not written out: bin k reads `bins[k] * gains[k - lo]` inside the band, the same
 *   product, and +0 outside it, which is what fft.js read there (the bins above size / 2 are never
 *   in the band, so the first stage adds and subtracts a literal +0 for them);
 * - a block whose inputs are all +0 is not computed: from +0 inputs fft.js's butterflies give exactly
 *   +0, which the block holds (its first stage writes +0, later stages leave it);
 * - a butterfly none of whose outputs leads to an output asked for is not computed: output x reads,
 *   at the stage whose blocks are 4Q points long, only butterfly x mod Q of each block, so a
 *   window of outputs needs at most its own length of butterflies per block (all of them once the
 *   window is as long as Q), and every value computed is the one fft.js computed;
 * - the stages that fit in a core's first-level cache run block by block (all of them on one chunk,
 *   then the next chunk) instead of stage by stage over the whole array: blocks are independent, so
 *   the order in which they run changes nothing;
 * - fft.js negates the stored -sin for the inverse and multiplies by -1 inside the butterfly; these
 *   negations are written as subtractions, which IEEE 754 defines as adding the negation;
 * - the division by `size` is left to the caller, for the outputs it reads.
 * `test/analyses/eov/band-inverse-fft.test.ts` compares it with fft.js bit for bit.
 */

/** At most this many complex points (64 KB) run through every stage that fits before the next chunk starts. */
const CHUNK_POINTS = 4096;

/** One transform size's constants and its output array, reused from row to row. */
export interface BandInverseFft {
  /** Transform length (complex points, a power of two). */
  size: number;
  /** The last transform's output, interleaved (re, im), unscaled: divide by `size` to read. */
  out: number[];
  /** Points per block of the first stage (2 or 4). */
  radix: number;
  /** First-stage block t reads the inputs at `order[t] + m * size / radix`. */
  order: Int32Array;
  /** Per later stage, in order: for each butterfly of a block, the twiddles of its 2nd, 3rd and 4th inputs (re, im). */
  twiddles: number[][];
  /** Complex points per chunk, and how many later stages run chunk by chunk. */
  chunk: number;
  chunk_stages: number;
}

/** The plan for transforms of `size` points (a power of two, at least 2). */
export function bandInverseFft(size: number): BandInverseFft {
  const bits = Math.round(Math.log2(size));
  if (size < 2 || 2 ** bits !== size) throw new Error(`FFT size must be a power of two, at least 2 (got ${size})`);
  const radix = bits % 2 === 1 ? 2 : 4;
  const blocks = size / radix;
  const digits = Math.round(Math.log2(blocks)) / 2;
  const order = new Int32Array(blocks);
  for (let t = 0; t < blocks; t++) {
    let r = 0;
    for (let d = 0, x = t; d < digits; d++, x >>= 2) r = (r << 2) | (x & 3);
    order[t] = r;
  }
  const twiddles: number[][] = [];
  for (let quarter = radix; quarter < size; quarter *= 4) {
    const stride = size / (4 * quarter);
    const w = zeros(6 * quarter);
    for (let i = 0; i < quarter; i++) {
      for (let m = 1; m <= 3; m++) {
        // The angle as fft.js forms it, from the interleaved index 2q of twiddle q.
        const angle = (Math.PI * (2 * m * i * stride)) / size;
        w[6 * i + 2 * m - 2] = Math.cos(angle);
        w[6 * i + 2 * m - 1] = Math.sin(angle);
      }
    }
    twiddles.push(w);
  }
  let chunk = radix;
  let chunkStages = 0;
  while (chunk * 4 <= Math.min(size, CHUNK_POINTS)) {
    chunk *= 4;
    chunkStages++;
  }
  return { size, out: zeros(2 * size), radix, order, twiddles, chunk, chunk_stages: chunkStages };
}

/** The bins a transform reads (a band of positive frequencies) and the outputs it must leave right. */
export interface BandWindow {
  /** The spectrum's bins [lo, hi] are `bins[k] * gains[k - lo]`, every other bin is zero; 1 <= lo, hi < size / 2. */
  lo: number;
  hi: number;
  /** Outputs [from, to) (complex points) hold their values afterwards; the others are unspecified. */
  from: number;
  to: number;
}

/**
 * Inverse transform of the spectrum `bins` (interleaved, `2 * size` values) times `gains` over one
 * band, zero elsewhere; the outputs asked for are left unscaled in `plan.out`.
 */
export function inverseOfBand(plan: BandInverseFft, bins: Float64Array, gains: Float64Array, window: BandWindow): number[] {
  const { size, radix, chunk, chunk_stages: chunkStages } = plan;
  const { lo, hi, from, to } = window;
  if (!(lo >= 1 && hi < size / 2)) throw new Error(`band [${lo}, ${hi}] outside the positive frequencies of ${size} points`);
  if (!(from >= 0 && to <= size && from < to)) throw new Error(`outputs [${from}, ${to}) outside the ${size} points`);
  for (let start = 0; start < size; start += chunk) {
    const t0 = (start / radix) | 0;
    const t1 = ((start + chunk) / radix) | 0;
    if (radix === 2) firstStage2(plan, bins, gains, lo, hi, t0, t1);
    else firstStage4(plan, bins, gains, lo, hi, t0, t1);
    for (let s = 1; s <= chunkStages; s++) laterStage(plan, s, window, start, start + chunk);
  }
  for (let s = chunkStages + 1; s <= plan.twiddles.length; s++) laterStage(plan, s, window, 0, size);
  return plan.out;
}

/** Radix-2 first stage over blocks [t0, t1): block t reads bin order[t] and bin order[t] + size / 2, always +0. */
function firstStage2(plan: BandInverseFft, bins: Float64Array, gains: Float64Array, lo: number, hi: number, t0: number, t1: number): void {
  const { out, order } = plan;
  for (let t = t0; t < t1; t++) {
    const o = 4 * t;
    const r = order[t];
    if (r < lo || r > hi) {
      out[o] = 0;
      out[o + 1] = 0;
      out[o + 2] = 0;
      out[o + 3] = 0;
      continue;
    }
    const g = gains[r - lo];
    const er = bins[2 * r] * g;
    const ei = bins[2 * r + 1] * g;
    out[o] = er + 0;
    out[o + 1] = ei + 0;
    out[o + 2] = er - 0;
    out[o + 3] = ei - 0;
  }
}

/** Radix-4 first stage over blocks [t0, t1): block t reads bins order[t] + m * size / 4, of which m = 2, 3 are always +0. */
function firstStage4(plan: BandInverseFft, bins: Float64Array, gains: Float64Array, lo: number, hi: number, t0: number, t1: number): void {
  const { out, order } = plan;
  const quarter = plan.size >> 2;
  for (let t = t0; t < t1; t++) {
    const o = 8 * t;
    const ra = order[t];
    const rb = ra + quarter;
    const aLive = ra >= lo && ra <= hi;
    const bLive = rb >= lo && rb <= hi;
    if (!aLive && !bLive) {
      for (let k = o; k < o + 8; k++) out[k] = 0;
      continue;
    }
    const ga = aLive ? gains[ra - lo] : 0;
    const gb = bLive ? gains[rb - lo] : 0;
    const ar = aLive ? bins[2 * ra] * ga : 0;
    const ai = aLive ? bins[2 * ra + 1] * ga : 0;
    const br = bLive ? bins[2 * rb] * gb : 0;
    const bi = bLive ? bins[2 * rb + 1] * gb : 0;
    const t0r = ar + 0;
    const t0i = ai + 0;
    const t1r = ar - 0;
    const t1i = ai - 0;
    const t2r = br + 0;
    const t2i = bi + 0;
    const ur = br - 0;
    const ui = bi - 0;
    out[o] = t0r + t2r;
    out[o + 1] = t0i + t2i;
    out[o + 2] = t1r - ui;
    out[o + 3] = t1i + ur;
    out[o + 4] = t0r - t2r;
    out[o + 5] = t0i - t2i;
    out[o + 6] = t1r + ui;
    out[o + 7] = t1i - ur;
  }
}

/**
 * Stage s (1-based after the first) over the complex points [start, end), whole blocks. Block b reads
 * the bins congruent to its residue modulo `residues` (size over the block's length), and that
 * residue is order[b] without its last s base-4 digits: a block none of whose bins is in the band
 * holds +0 and is skipped. In the others, only the butterflies the outputs asked for need run.
 */
function laterStage(plan: BandInverseFft, s: number, window: BandWindow, start: number, end: number): void {
  const { order } = plan;
  const { lo, hi, from, to } = window;
  const quarter = plan.radix << (2 * s - 2);
  const length = quarter << 2;
  const residues = (plan.size / length) | 0;
  const width = hi - lo + 1;
  const everyBlock = width >= residues;
  const first = lo % residues;
  const shift = 2 * s;
  // Butterflies [i0, i1) and, when the window wraps around the block, [0, i2).
  const span = to - from;
  const i0 = span >= quarter ? 0 : from % quarter;
  const i1 = span >= quarter ? quarter : Math.min(quarter, i0 + span);
  const i2 = span >= quarter ? 0 : i0 + span - i1;
  const last = (end / length) | 0;
  for (let b = (start / length) | 0; b < last; b++) {
    if (!everyBlock) {
      const r = order[b] >> shift;
      if ((r >= first ? r - first : r - first + residues) >= width) continue;
    }
    butterflies(plan.out, plan.twiddles[s - 1], (b * length) << 1, quarter << 1, i0, i1);
    if (i2 > 0) butterflies(plan.out, plan.twiddles[s - 1], (b * length) << 1, quarter << 1, 0, i2);
  }
}

/** Butterflies [i0, i1) of the block at interleaved offset `base` whose quarters are `q2` values long. */
function butterflies(out: number[], w: number[], base: number, q2: number, i0: number, i1: number): void {
  const end = base + 2 * i1;
  for (let a = base + 2 * i0, k = 6 * i0; a < end; a += 2, k += 6) {
    const bb = a + q2;
    const c = bb + q2;
    const d = c + q2;
    const ar = out[a];
    const ai = out[a + 1];
    const br = out[bb];
    const bi = out[bb + 1];
    const cr = out[c];
    const ci = out[c + 1];
    const dr = out[d];
    const di = out[d + 1];
    const wbr = w[k];
    const wbi = w[k + 1];
    const wcr = w[k + 2];
    const wci = w[k + 3];
    const wdr = w[k + 4];
    const wdi = w[k + 5];
    const mbr = br * wbr - bi * wbi;
    const mbi = br * wbi + bi * wbr;
    const mcr = cr * wcr - ci * wci;
    const mci = cr * wci + ci * wcr;
    const mdr = dr * wdr - di * wdi;
    const mdi = dr * wdi + di * wdr;
    const t0r = ar + mcr;
    const t0i = ai + mci;
    const t1r = ar - mcr;
    const t1i = ai - mci;
    const t2r = mbr + mdr;
    const t2i = mbi + mdi;
    const ur = mbr - mdr;
    const ui = mbi - mdi;
    out[a] = t0r + t2r;
    out[a + 1] = t0i + t2i;
    out[bb] = t1r - ui;
    out[bb + 1] = t1i + ur;
    out[c] = t0r - t2r;
    out[c + 1] = t0i - t2i;
    out[d] = t1r + ui;
    out[d + 1] = t1i - ur;
  }
}

/** A packed array of `n` doubles, all +0: V8 reads and writes these in fewer instructions than a Float64Array. */
export function zeros(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(0.5);
  return out.fill(0);
}
