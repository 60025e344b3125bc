/**
 * Reads the protocol-buffer wire format into fields, without a schema and without a protobuf
 * library: enough to walk the few messages the converters read (TensorFlow checkpoints and Keras
 * metadata, ONNX models in tests). Wire types per the protobuf encoding guide: 0 varint,
 * 1 fixed64, 2 length-delimited, 5 fixed32; groups (3, 4) are refused.
 */

/** One field as it sits on the wire; `value` is a number for varints and fixed ints, bytes for wire type 2. */
export interface WireField {
  field: number;
  wire: 0 | 1 | 2 | 5;
  /** Varint and fixed32 values (varints above 2^53 lose precision, which no field read here reaches). */
  value: number;
  /** Payload of a length-delimited field; empty for the other wire types. */
  bytes: Uint8Array;
}

/** Reads a varint at `pos`; returns its value and the position after it. */
export function readVarint(buf: Uint8Array, pos: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < buf.length && i < pos + 10; i++) {
    const byte = buf[i];
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return { value, next: i + 1 };
  }
  throw new Error(`unterminated varint at byte ${pos}`);
}

const EMPTY = new Uint8Array(0);

/** Every field of one message, in wire order (repeated fields appear once per element). */
export function readFields(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const key = readVarint(buf, pos);
    pos = key.next;
    const field = Math.floor(key.value / 8);
    const wire = key.value % 8;
    if (wire === 0) {
      const v = readVarint(buf, pos);
      out.push({ field, wire, value: v.value, bytes: EMPTY });
      pos = v.next;
    } else if (wire === 2) {
      const len = readVarint(buf, pos);
      const end = len.next + len.value;
      if (end > buf.length) throw new Error(`field ${field} runs past the end of its message (byte ${pos})`);
      out.push({ field, wire, value: len.value, bytes: buf.subarray(len.next, end) });
      pos = end;
    } else if (wire === 5) {
      if (pos + 4 > buf.length) throw new Error(`fixed32 field ${field} runs past the end of its message`);
      out.push({ field, wire, value: new DataView(buf.buffer, buf.byteOffset + pos, 4).getUint32(0, true), bytes: EMPTY });
      pos += 4;
    } else if (wire === 1) {
      if (pos + 8 > buf.length) throw new Error(`fixed64 field ${field} runs past the end of its message`);
      out.push({ field, wire, value: Number(new DataView(buf.buffer, buf.byteOffset + pos, 8).getBigUint64(0, true)), bytes: EMPTY });
      pos += 8;
    } else {
      throw new Error(`unsupported wire type ${wire} for field ${field} at byte ${pos}`);
    }
  }
  return out;
}

/** A message's fields grouped by number, for lookups by field. */
export class Message {
  private readonly byField = new Map<number, WireField[]>();

  constructor(buf: Uint8Array) {
    for (const f of readFields(buf)) {
      const list = this.byField.get(f.field);
      if (list) list.push(f);
      else this.byField.set(f.field, [f]);
    }
  }

  /** Every occurrence of a field (repeated fields; packed varints are expanded). */
  all(field: number): WireField[] {
    return this.byField.get(field) ?? [];
  }

  /** The last occurrence's number (proto3 rule: the last value wins), or `fallback` when absent. */
  number(field: number, fallback = 0): number {
    return this.all(field).at(-1)?.value ?? fallback;
  }

  /** The repeated varint values of a field, packed or not. */
  numbers(field: number): number[] {
    const out: number[] = [];
    for (const f of this.all(field)) {
      if (f.wire !== 2) {
        out.push(f.value);
        continue;
      }
      let pos = 0;
      while (pos < f.bytes.length) {
        const v = readVarint(f.bytes, pos);
        out.push(v.value);
        pos = v.next;
      }
    }
    return out;
  }

  /** The last occurrence's UTF-8 text, or '' when absent. */
  string(field: number): string {
    const f = this.all(field).at(-1);
    return f ? Buffer.from(f.bytes).toString('utf8') : '';
  }

  /** The last occurrence's bytes, or empty when absent. */
  bytes(field: number): Uint8Array {
    return this.all(field).at(-1)?.bytes ?? EMPTY;
  }

  /** Each occurrence of a nested message field, parsed. */
  messages(field: number): Message[] {
    return this.all(field).map((f) => new Message(f.bytes));
  }

  /** The last occurrence of a nested message field, parsed (an empty message when absent). */
  message(field: number): Message {
    return new Message(this.bytes(field));
  }

  /** Whether the field occurs at all. */
  has(field: number): boolean {
    return this.byField.has(field);
  }
}
