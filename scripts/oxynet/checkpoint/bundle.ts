/**
 * Reads a TensorFlow tensor bundle (a checkpoint: `variables.index` + one data shard). The index
 * maps each tensor key to a BundleEntryProto (tensorflow/core/protobuf/tensor_bundle.proto:
 * 1 dtype, 2 shape, 3 shard_id, 4 offset, 5 size, 6 crc32c as fixed32); the entry with the empty
 * key is the BundleHeaderProto (1 num_shards, 2 endianness). Every tensor's bytes are checked
 * against the entry's masked CRC-32C before they are handed out.
 */
import { Message, readVarint } from '../../protobuf/reader.js';
import { crc32c, maskCrc } from './crc32c.js';
import { readSSTable } from './sstable.js';

/** tensorflow/core/framework/types.proto DataType values read here. */
export const DT_FLOAT = 1;
export const DT_STRING = 7;

export interface BundleEntry {
  key: string;
  dtype: number;
  shape: number[];
  offset: number;
  size: number;
  /** The masked CRC-32C stored in the index. */
  crc32c: number;
  /** Whether the data bytes verify against `crc32c`. */
  crc_ok: boolean;
}

/** The entry's masked checksum as TensorFlow computes it for its dtype. */
function entryChecksum(dtype: number, bytes: Uint8Array, elements: number): number {
  if (dtype !== DT_STRING) return maskCrc(crc32c(bytes));
  // A string tensor is written as its element lengths (varints), a masked CRC-32C of those lengths,
  // then the bytes; the entry checksum runs over each length as 4 little-endian bytes, the stored
  // length checksum and the string bytes.
  let pos = 0;
  let crc = 0;
  const width = Buffer.alloc(4);
  let total = 0;
  for (let i = 0; i < elements; i++) {
    const len = readVarint(bytes, pos);
    pos = len.next;
    total += len.value;
    width.writeUInt32LE(len.value);
    crc = crc32c(width, crc);
  }
  crc = crc32c(bytes.subarray(pos, pos + 4), crc);
  crc = crc32c(bytes.subarray(pos + 4, pos + 4 + total), crc);
  return maskCrc(crc);
}

/** A checkpoint's entries (index order) and access to their verified contents. */
export class TensorBundle {
  readonly entries: BundleEntry[];
  private readonly byKey: Map<string, BundleEntry>;

  constructor(
    index: Uint8Array,
    private readonly data: Uint8Array,
  ) {
    const table = readSSTable(index);
    const header = table.find((e) => e.key === '');
    if (!header) throw new Error('the index has no bundle header (empty key)');
    const h = new Message(header.value);
    if (h.number(1, 1) !== 1) throw new Error(`the bundle has ${h.number(1)} shards; only single-shard bundles are read`);
    if (h.number(2) !== 0) throw new Error('the bundle is big-endian; only little-endian bundles are read');
    this.entries = table
      .filter((e) => e.key !== '')
      .map(({ key, value }) => {
        const m = new Message(value);
        if (m.number(3) !== 0) throw new Error(`${key} lives in shard ${m.number(3)}`);
        if (m.has(7)) throw new Error(`${key} is a sliced tensor; slices are not read`);
        const dtype = m.number(1);
        const shape = m
          .message(2)
          .messages(2)
          .map((d) => d.number(1));
        const offset = m.number(4);
        const size = m.number(5);
        if (offset + size > data.length) throw new Error(`${key} (${offset} + ${size}) runs past the data file (${data.length} bytes)`);
        const stored = m.number(6);
        const elements = shape.reduce((a, b) => a * b, 1);
        const crc_ok = entryChecksum(dtype, data.subarray(offset, offset + size), elements) === stored;
        return { key, dtype, shape, offset, size, crc32c: stored, crc_ok };
      });
    this.byKey = new Map(this.entries.map((e) => [e.key, e]));
  }

  /** The entry of a key; throws when absent. */
  entry(key: string): BundleEntry {
    const e = this.byKey.get(key);
    if (!e) throw new Error(`no tensor ${key} in the checkpoint`);
    return e;
  }

  private verified(key: string): { entry: BundleEntry; bytes: Uint8Array } {
    const entry = this.entry(key);
    if (!entry.crc_ok) throw new Error(`${key}: its bytes do not match the stored crc32c`);
    return { entry, bytes: this.data.subarray(entry.offset, entry.offset + entry.size) };
  }

  /** A float32 tensor's values, row-major (a copy, so it is aligned whatever its offset). */
  floats(key: string): Float32Array {
    const { entry, bytes } = this.verified(key);
    if (entry.dtype !== DT_FLOAT) throw new Error(`${key} has dtype ${entry.dtype}, not float32`);
    const count = entry.shape.reduce((a, b) => a * b, 1);
    if (bytes.length !== 4 * count) throw new Error(`${key}: ${bytes.length} bytes for ${count} floats`);
    const out = new Float32Array(count);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(4 * i, true);
    return out;
  }

  /** The bytes of a scalar string tensor. */
  scalarString(key: string): Uint8Array {
    const { entry, bytes } = this.verified(key);
    if (entry.dtype !== DT_STRING || entry.shape.length !== 0) throw new Error(`${key} is not a scalar string tensor`);
    const len = readVarint(bytes, 0);
    return bytes.subarray(len.next + 4, len.next + 4 + len.value);
  }
}
