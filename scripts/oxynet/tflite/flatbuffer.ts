/**
 * A minimal FlatBuffers reader (no `flatbuffers` package, no generated code): tables are read
 * through their vtables by field index, as the FlatBuffers internals documentation describes the
 * binary layout. A table starts with an int32 offset back to its vtable; the vtable holds its own
 * size, the table's size, then one uint16 byte offset per field (0 = absent, take the default).
 * Offsets to tables, vectors and strings are uint32, relative to where they are stored; a vector
 * or string starts with its uint32 length. All little-endian.
 */

export class FlatTable {
  private readonly view: DataView;
  private readonly vtable: number;
  private readonly vtableSize: number;

  constructor(
    private readonly bytes: Uint8Array,
    readonly pos: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (pos < 0 || pos + 4 > bytes.length) throw new Error(`table at ${pos} lies outside the buffer`);
    this.vtable = pos - this.view.getInt32(pos, true);
    if (this.vtable < 0 || this.vtable + 4 > bytes.length) throw new Error(`table at ${pos} points to a vtable outside the buffer`);
    this.vtableSize = this.view.getUint16(this.vtable, true);
  }

  /** Byte position of field `index`, or 0 when the table does not store it. */
  private field(index: number): number {
    const at = 4 + 2 * index;
    if (at + 2 > this.vtableSize) return 0;
    const offset = this.view.getUint16(this.vtable + at, true);
    return offset === 0 ? 0 : this.pos + offset;
  }

  /** Whether the table stores field `index`. */
  has(index: number): boolean {
    return this.field(index) !== 0;
  }

  int8(index: number, fallback = 0): number {
    const p = this.field(index);
    return p ? this.view.getInt8(p) : fallback;
  }

  uint8(index: number, fallback = 0): number {
    const p = this.field(index);
    return p ? this.view.getUint8(p) : fallback;
  }

  int32(index: number, fallback = 0): number {
    const p = this.field(index);
    return p ? this.view.getInt32(p, true) : fallback;
  }

  uint32(index: number, fallback = 0): number {
    const p = this.field(index);
    return p ? this.view.getUint32(p, true) : fallback;
  }

  float32(index: number, fallback = 0): number {
    const p = this.field(index);
    return p ? this.view.getFloat32(p, true) : fallback;
  }

  bool(index: number, fallback = false): boolean {
    const p = this.field(index);
    return p ? this.view.getUint8(p) !== 0 : fallback;
  }

  /** Follows the uint32 offset stored at byte `p`. */
  private deref(p: number): number {
    const target = p + this.view.getUint32(p, true);
    if (target + 4 > this.bytes.length) throw new Error(`offset at ${p} points outside the buffer`);
    return target;
  }

  /** The sub-table of field `index`, or null when absent. */
  table(index: number): FlatTable | null {
    const p = this.field(index);
    return p ? new FlatTable(this.bytes, this.deref(p)) : null;
  }

  /** Start and length of the vector of field `index` (length 0 when absent). */
  private vector(index: number, elementBytes: number): { start: number; length: number } {
    const p = this.field(index);
    if (!p) return { start: 0, length: 0 };
    const at = this.deref(p);
    const length = this.view.getUint32(at, true);
    if (at + 4 + length * elementBytes > this.bytes.length) throw new Error(`vector of field ${index} at ${at} runs past the buffer`);
    return { start: at + 4, length };
  }

  /** A vector of int32 (empty when absent). */
  int32Vector(index: number): number[] {
    const { start, length } = this.vector(index, 4);
    return Array.from({ length }, (_, i) => this.view.getInt32(start + 4 * i, true));
  }

  /** A vector of ubyte as a view into the buffer (empty when absent). */
  byteVector(index: number): Uint8Array {
    const { start, length } = this.vector(index, 1);
    return this.bytes.subarray(start, start + length);
  }

  /** A vector of tables (empty when absent). */
  tableVector(index: number): FlatTable[] {
    const { start, length } = this.vector(index, 4);
    return Array.from({ length }, (_, i) => new FlatTable(this.bytes, this.deref(start + 4 * i)));
  }

  /** A string field as UTF-8 text, or null when absent. */
  string(index: number): string | null {
    if (!this.has(index)) return null;
    const { start, length } = this.vector(index, 1);
    return Buffer.from(this.bytes.subarray(start, start + length)).toString('utf8');
  }
}

/** The root table of a FlatBuffer, checking the 4-byte file identifier after the root offset when one is expected. */
export function rootTable(bytes: Uint8Array, identifier?: string): FlatTable {
  if (bytes.length < 8) throw new Error('too short for a FlatBuffer');
  if (identifier !== undefined) {
    const found = Buffer.from(bytes.subarray(4, 8)).toString('latin1');
    if (found !== identifier) throw new Error(`file identifier ${JSON.stringify(found)}, expected ${JSON.stringify(identifier)}`);
  }
  return new FlatTable(bytes, new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true));
}
