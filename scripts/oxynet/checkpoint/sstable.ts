/**
 * Reads a LevelDB-format SSTable, the layout of a TensorFlow tensor-bundle index
 * (`variables.index`): a 48-byte footer with the metaindex and index block handles and the table
 * magic, an index block whose values are the handles of the data blocks, and data blocks of
 * prefix-compressed entries followed by their restart array. Only uncompressed blocks are read
 * (TensorFlow writes bundle indexes without compression); every block's masked CRC-32C is checked.
 */
import { readVarint } from '../../protobuf/reader.js';
import { crc32c, maskCrc } from './crc32c.js';

/** The table magic, little-endian u64 in the last 8 bytes of the footer (leveldb table/format.h). */
const TABLE_MAGIC = 0xdb4775248b80fb57n;
const FOOTER_BYTES = 48;
/** Each block is followed by a 1-byte compression type and a 4-byte masked CRC-32C. */
const TRAILER_BYTES = 5;

export interface SSTableEntry {
  key: string;
  value: Uint8Array;
}

interface BlockHandle {
  offset: number;
  size: number;
}

function readHandle(buf: Uint8Array, pos: number): { handle: BlockHandle; next: number } {
  const offset = readVarint(buf, pos);
  const size = readVarint(buf, offset.next);
  return { handle: { offset: offset.value, size: size.value }, next: size.next };
}

/** A block's bytes after its trailer is checked. */
function readBlock(table: Uint8Array, { offset, size }: BlockHandle): Uint8Array {
  if (offset + size + TRAILER_BYTES > table.length) throw new Error(`block at ${offset} (${size} bytes) runs past the end of the table`);
  const contents = table.subarray(offset, offset + size);
  const type = table[offset + size];
  if (type !== 0) throw new Error(`block at ${offset} is compressed (type ${type}); only uncompressed blocks are read`);
  const stored = new DataView(table.buffer, table.byteOffset + offset + size + 1, 4).getUint32(0, true);
  const actual = maskCrc(crc32c(table.subarray(offset, offset + size + 1)));
  if (stored !== actual) throw new Error(`block at ${offset}: crc32c ${actual.toString(16)} does not match the stored ${stored.toString(16)}`);
  return contents;
}

/** The entries of one block: `varint shared, varint non_shared, varint value_len, key delta, value`, then u32 restarts[] and a u32 count. */
function blockEntries(block: Uint8Array): SSTableEntry[] {
  const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  const restarts = view.getUint32(block.length - 4, true);
  const end = block.length - 4 - 4 * restarts;
  if (end < 0) throw new Error(`block claims ${restarts} restart points, more than it can hold`);
  const entries: SSTableEntry[] = [];
  let key = Buffer.alloc(0);
  let pos = 0;
  while (pos < end) {
    const shared = readVarint(block, pos);
    const nonShared = readVarint(block, shared.next);
    const valueLength = readVarint(block, nonShared.next);
    const keyStart = valueLength.next;
    const valueStart = keyStart + nonShared.value;
    if (shared.value > key.length || valueStart + valueLength.value > end) throw new Error(`malformed block entry at byte ${pos}`);
    key = Buffer.concat([key.subarray(0, shared.value), block.subarray(keyStart, valueStart)]);
    entries.push({ key: key.toString('utf8'), value: block.subarray(valueStart, valueStart + valueLength.value) });
    pos = valueStart + valueLength.value;
  }
  return entries;
}

/** Every entry of the table, in key order. */
export function readSSTable(table: Uint8Array): SSTableEntry[] {
  if (table.length < FOOTER_BYTES) throw new Error(`a table needs at least ${FOOTER_BYTES} bytes, got ${table.length}`);
  const footer = table.subarray(table.length - FOOTER_BYTES);
  const magic = new DataView(footer.buffer, footer.byteOffset + 40, 8).getBigUint64(0, true);
  if (magic !== TABLE_MAGIC) throw new Error(`not an SSTable: magic ${magic.toString(16)}`);
  const meta = readHandle(footer, 0);
  const index = readHandle(footer, meta.next).handle;
  const entries: SSTableEntry[] = [];
  for (const { value } of blockEntries(readBlock(table, index))) {
    entries.push(...blockEntries(readBlock(table, readHandle(value, 0).handle)));
  }
  return entries;
}
