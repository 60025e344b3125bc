/**
 * Reads a zip (an xlsx is one) with a hard cap on what it inflates to. The sizes a zip declares can
 * lie, so each entry is inflated by zlib with `maxOutputLength`, which stops at the cap instead of
 * allocating what a zip bomb asks for. Entries are inflated one at a time, on demand, and an
 * entry's head can be inflated alone (a detector never needs a whole sheet).
 */
import { constants, inflateRawSync } from 'node:zlib';
import { ServiceError } from '../errors.js';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_ENTRIES = 10_000;

/** One archive entry as the central directory lists it. */
export interface ZipEntry {
  name: string;
  method: number;
  compressed: Uint8Array;
  /** The uncompressed size the central directory states: a hint for sizing buffers, never trusted as a bound. */
  declared_bytes?: number;
}

/**
 * An archive whose entries are inflated on demand, every inflation counted against one cap: what
 * the service reads of a zip never exceeds `capBytes` however the entries are asked for.
 */
export class BoundedZip {
  readonly entries: readonly ZipEntry[];
  private inflated = 0;
  /** Whole inflations made before the reader asked (the sheet budget inflates every XML part first). */
  private readonly kept = new Map<ZipEntry, Uint8Array>();

  constructor(
    bytes: Uint8Array,
    private readonly capBytes: number,
  ) {
    this.entries = readDirectory(bytes);
  }

  /** The entry of that name, compared as SheetJS compares part names (case-insensitive, / or \). */
  find(name: string): ZipEntry | null {
    const wanted = name.toLowerCase().replace(/\\/g, '/');
    return this.entries.find((e) => e.name.toLowerCase().replace(/\\/g, '/') === wanted) ?? null;
  }

  /** Keeps an entry's whole inflation made elsewhere, for `inflate` to return instead of inflating it again. */
  keep(entry: ZipEntry, data: Uint8Array): void {
    this.kept.set(entry, data);
  }

  /** The entry's whole inflation when one was kept, else null; nothing is inflated or counted. */
  keptInflation(entry: ZipEntry): Uint8Array | null {
    return this.kept.get(entry) ?? null;
  }

  /**
   * The whole entry; FILE_TOO_LARGE once everything inflated so far passes the cap, PARSER_ERROR when
   * damaged. A kept inflation counts against the cap as inflating it here would.
   */
  inflate(entry: ZipEntry): Uint8Array {
    const room = this.capBytes - this.inflated;
    const kept = this.kept.get(entry);
    if (kept && kept.length > room) throw tooLarge(this.capBytes);
    const data = kept ?? inflateEntry(entry, room, this.capBytes);
    this.inflated += data.length;
    return data;
  }

  /**
   * The first bytes of an entry: its first `compressedBytes` inflated as far as they go (FILE_TOO_LARGE
   * past `maxBytes` out), counted against the cap like any read.
   */
  inflateHead(entry: ZipEntry, compressedBytes: number, maxBytes: number): Uint8Array {
    if (entry.method !== 0 && entry.method !== 8) throw damaged(`entry ${entry.name} uses compression method ${entry.method}`);
    const room = Math.min(maxBytes, this.capBytes - this.inflated);
    const input = entry.compressed.subarray(0, compressedBytes);
    let data: Uint8Array;
    if (entry.method === 0) {
      if (input.length > room) throw tooLarge(this.capBytes);
      data = input;
    } else {
      try {
        // A sync flush at the end of the cut input returns what inflated so far instead of failing on the cut.
        data = inflateRawSync(input, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(1, room) });
      } catch (err) {
        throw inflateError(err, entry.name, this.capBytes);
      }
    }
    this.inflated += data.length;
    return data;
  }
}

/** Inflates every entry of a zip; throws FILE_TOO_LARGE past `capBytes` in total, PARSER_ERROR when damaged. */
export function unzipBounded(bytes: Uint8Array, capBytes: number): Map<string, Uint8Array> {
  const zip = new BoundedZip(bytes, capBytes);
  const out = new Map<string, Uint8Array>();
  for (const entry of zip.entries) out.set(entry.name, zip.inflate(entry));
  return out;
}

function readDirectory(bytes: Uint8Array): ZipEntry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  let ptr = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw damaged(`the archive lists ${count} entries`);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (ptr + 46 > buf.length || buf.readUInt32LE(ptr) !== CENTRAL_SIGNATURE) throw damaged('central directory is cut short');
    const method = buf.readUInt16LE(ptr + 10);
    const compressedSize = buf.readUInt32LE(ptr + 20);
    const declaredSize = buf.readUInt32LE(ptr + 24);
    const nameLen = buf.readUInt16LE(ptr + 28);
    const extraLen = buf.readUInt16LE(ptr + 30);
    const commentLen = buf.readUInt16LE(ptr + 32);
    const localOffset = buf.readUInt32LE(ptr + 42);
    const name = buf.toString('utf8', ptr + 46, ptr + 46 + nameLen);
    ptr += 46 + nameLen + extraLen + commentLen;

    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) throw damaged(`entry ${name} has no local header`);
    const dataStart = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    const dataEnd = dataStart + compressedSize;
    if (dataEnd > buf.length) throw damaged(`entry ${name} is cut short`);
    entries.push({ name, method, compressed: buf.subarray(dataStart, dataEnd), declared_bytes: declaredSize });
  }
  return entries;
}

function inflateEntry(entry: ZipEntry, room: number, capBytes: number): Uint8Array {
  if (entry.method !== 0 && entry.method !== 8) throw damaged(`entry ${entry.name} uses compression method ${entry.method}`);
  if (entry.method === 0) {
    if (entry.compressed.length > room) throw tooLarge(capBytes);
    return entry.compressed;
  }
  let data: Uint8Array;
  try {
    data = inflateRawSync(entry.compressed, { maxOutputLength: Math.max(1, room) });
  } catch (err) {
    throw inflateError(err, entry.name, capBytes);
  }
  if (data.length > room) throw tooLarge(capBytes);
  return data;
}

function inflateError(err: unknown, name: string, capBytes: number): ServiceError {
  if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) return tooLarge(capBytes);
  return damaged(`entry ${name} does not inflate`);
}

function findEndOfCentralDirectory(buf: Buffer): number {
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIGNATURE) return i;
  }
  throw damaged('no end-of-archive record (the file is truncated or not a zip)');
}

/** `where` is for sheet, row, column and line (ParserErrorContext); what is wrong with the archive goes beside it. */
function damaged(detail: string): ServiceError {
  return new ServiceError('PARSER_ERROR', `The spreadsheet archive is damaged: ${detail}.`, { archive: detail });
}

function tooLarge(capBytes: number): ServiceError {
  return new ServiceError('FILE_TOO_LARGE', `The spreadsheet inflates to more than ${Math.round(capBytes / 1e6)} MB; it is refused unread.`, {
    max_uncompressed_bytes: capBytes,
  });
}
