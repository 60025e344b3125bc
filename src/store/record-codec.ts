/**
 * How a recording's samples are kept at rest: one compressed binary block instead of JSON numbers.
 * Each column (the clock and every channel) is written losslessly in the smallest form that gives
 * back the very same doubles: as whole numbers scaled by a power of ten when every value of the
 * column is a decimal of at most MAX_DECIMALS places (what exports hold), else as raw doubles; a
 * missing sample is a sentinel in either form. The block is deflated (RFC 1951) as a whole, behind one
 * version byte. Reading it back needs no parsing: a typed-array view per column, a few milliseconds
 * for 20,000 samples.
 */
import { inflateRawSync } from 'node:zlib';
import { deflateSync } from 'fflate';
import { CHANNEL_NAMES, type ChannelName, type Recording } from '../recording/recording.js';

/** Most decimal places a column is scaled by before it is kept as raw doubles. */
const MAX_DECIMALS = 6;
/** The int32 that marks a missing sample in a scaled column. */
const MISSING_INT = -2147483648;
/** Deflate level: 6 is zlib's default, the usual balance of size and speed. */
const DEFLATE_LEVEL = 6;
/** The layout of the block this code writes; a change of column forms or padding takes the next one. */
export const CODEC_VERSION = 1;

/**
 * The version byte in front of the deflate stream: `version << 3 | 0b110`. Bits 1-2 of a deflate
 * stream's first byte are its first block's type, and 0b11 is reserved (RFC 1951, 3.2.3), so no
 * deflate stream starts with such a byte: blocks stored before the version byte existed (a bare
 * stream, version 0) are told apart from versioned ones and still read.
 */
function versionByte(version: number): number {
  return (version << 3) | 0b110;
}

/** The block's codec version and where its deflate stream starts. */
function blockVersion(block: Uint8Array): { version: number; start: number } {
  const first = block[0] ?? 0;
  return (first & 0b110) === 0b110 ? { version: first >> 3, start: 1 } : { version: 0, start: 0 };
}

/** How one column is written. */
export interface ColumnCodec {
  /** `scaled`: int32 = value x 10^decimals; `double`: float64, NaN for a missing sample. */
  kind: 'scaled' | 'double';
  decimals: number;
  /** Samples in the column. */
  n: number;
}

/** What the block holds and how to read it back, kept (as JSON) beside the block. */
export interface BlockLayout {
  /** The clock first, then the present channels in CHANNEL_NAMES order. */
  columns: { name: 't_s' | ChannelName; codec: ColumnCodec }[];
}

/** The decimals (0..MAX_DECIMALS) that write every value exactly as a scaled int32, or null when none does. */
function decimalsOf(values: ArrayLike<number | null>): number | null {
  for (let d = 0; d <= MAX_DECIMALS; d++) {
    const f = 10 ** d;
    let ok = true;
    for (let i = 0; i < values.length && ok; i++) {
      const v = values[i];
      if (v === null) continue;
      const k = Math.round(v * f);
      // The int must be in range, not the sentinel, and read back to the very same double.
      ok = Number.isFinite(v) && k > MISSING_INT && k <= 2147483647 && k / f === v && !Object.is(v, -0);
    }
    if (ok) return d;
  }
  return null;
}

function writeColumn(values: ArrayLike<number | null>): { codec: ColumnCodec; bytes: Uint8Array } {
  const n = values.length;
  const d = decimalsOf(values);
  if (d !== null) {
    const f = 10 ** d;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      out[i] = v === null ? MISSING_INT : Math.round(v * f);
    }
    return { codec: { kind: 'scaled', decimals: d, n }, bytes: new Uint8Array(out.buffer) };
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    out[i] = v === null || !Number.isFinite(v) ? NaN : v;
  }
  return { codec: { kind: 'double', decimals: 0, n }, bytes: new Uint8Array(out.buffer) };
}

function readColumn(codec: ColumnCodec, block: Uint8Array, offset: number): { values: (number | null)[]; next: number } {
  const { n } = codec;
  const values = new Array<number | null>(n);
  if (codec.kind === 'scaled') {
    const view = new Int32Array(block.buffer, block.byteOffset + offset, n);
    const f = 10 ** codec.decimals;
    for (let i = 0; i < n; i++) values[i] = view[i] === MISSING_INT ? null : view[i] / f;
    return { values, next: offset + 4 * n };
  }
  const view = new Float64Array(block.buffer, block.byteOffset + offset, n);
  for (let i = 0; i < n; i++) values[i] = Number.isNaN(view[i]) ? null : view[i];
  return { values, next: offset + 8 * n };
}

/** The recording without its samples (JSON-able), the layout of its samples, and the compressed block. */
export interface EncodedRecording {
  meta: Omit<Recording, 't_s' | 'channels'> & { channels: Partial<Record<ChannelName, { unit_in: string }>> };
  layout: BlockLayout;
  /** A Buffer where it is stored (the store writes Buffers as base64); a Uint8Array once it crossed a thread. */
  block: Uint8Array;
}

/** Writes a recording's samples as one block. Doubles come back bit for bit; a non-finite sample comes back missing. */
export function encodeRecording(rec: Recording): EncodedRecording {
  const { t_s, channels, ...rest } = rec;
  const columns: BlockLayout['columns'] = [];
  const parts: Uint8Array[] = [];
  const add = (name: 't_s' | ChannelName, values: ArrayLike<number | null>) => {
    const { codec, bytes } = writeColumn(values);
    columns.push({ name, codec });
    parts.push(bytes);
  };
  add('t_s', t_s);
  const meta: EncodedRecording['meta'] = { ...rest, channels: {} };
  for (const name of CHANNEL_NAMES) {
    const data = channels[name];
    if (!data) continue;
    add(name, data.values);
    meta.channels[name] = { unit_in: data.unit_in };
  }
  // Doubles first would break the int32 alignment of later views; each column is padded to 8 bytes instead.
  const aligned = (length: number) => length + (length % 8 ? 8 - (length % 8) : 0);
  const raw = new Uint8Array(parts.reduce((s, p) => s + aligned(p.length), 0));
  let at = 0;
  for (const p of parts) {
    raw.set(p, at);
    at += aligned(p.length);
  }
  const deflated = deflateSync(raw, { level: DEFLATE_LEVEL });
  const block = new Uint8Array(deflated.length + 1);
  block[0] = versionByte(CODEC_VERSION);
  block.set(deflated, 1);
  return { meta, layout: { columns }, block };
}

/** The recording back from its encoded form. */
export function decodeRecording(encoded: EncodedRecording): Recording {
  const { version, start } = blockVersion(encoded.block);
  // Versions 0 (no byte) and 1 share the column forms; a newer one was written by newer code.
  if (version > CODEC_VERSION) throw new Error(`stored recording block has codec version ${version}; this service reads up to ${CODEC_VERSION}`);
  // zlib's inflate, native, gives the same bytes as any other inflate of the stream, about ten times
  // faster than fflate's on a small block; a worker decodes one per analyze (issue 23).
  const raw = inflateRawSync(encoded.block.subarray(start));
  // A view per column needs the block aligned to 8 bytes in its buffer: inflate gives a fresh one.
  const block = raw.byteOffset % 8 === 0 ? raw : raw.slice();
  let offset = 0;
  let t_s: number[] = [];
  const channels: Recording['channels'] = {};
  for (const { name, codec } of encoded.layout.columns) {
    const read = readColumn(codec, block, offset);
    offset = read.next + (read.next % 8 ? 8 - (read.next % 8) : 0);
    if (name === 't_s') t_s = read.values as number[];
    else channels[name] = { values: read.values, unit_in: encoded.meta.channels[name]?.unit_in ?? '' };
  }
  const { channels: _units, ...rest } = encoded.meta;
  return { ...rest, t_s, channels } as Recording;
}
