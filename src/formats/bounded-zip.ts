/**
 * Reads a zip (an xlsx is one) with a hard cap on what it inflates to. The sizes a zip declares can
 * lie, so each entry is inflated by zlib with `maxOutputLength`, which stops at the cap instead of
 * allocating what a zip bomb asks for.
 */
import { inflateRawSync } from 'node:zlib';
import { ServiceError } from '../errors.js';

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const MAX_ENTRIES = 10_000;

/** Inflates every entry of a zip; throws FILE_TOO_LARGE past `capBytes` in total, PARSER_ERROR when damaged. */
export function unzipBounded(bytes: Uint8Array, capBytes: number): Map<string, Uint8Array> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  let ptr = buf.readUInt32LE(eocd + 16);
  if (count > MAX_ENTRIES) throw damaged(`the archive lists ${count} entries`);
  const out = new Map<string, Uint8Array>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (ptr + 46 > buf.length || buf.readUInt32LE(ptr) !== CENTRAL_SIGNATURE) throw damaged('central directory is cut short');
    const method = buf.readUInt16LE(ptr + 10);
    const compressedSize = buf.readUInt32LE(ptr + 20);
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
    const compressed = buf.subarray(dataStart, dataEnd);
    const room = capBytes - total;
    let data: Uint8Array;
    if (method === 0) {
      if (compressed.length > room) throw tooLarge(capBytes);
      data = compressed;
    } else if (method === 8) {
      try {
        data = inflateRawSync(compressed, { maxOutputLength: Math.max(1, room) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooLarge(capBytes);
        throw damaged(`entry ${name} does not inflate`);
      }
    } else {
      throw damaged(`entry ${name} uses compression method ${method}`);
    }
    total += data.length;
    if (total > capBytes) throw tooLarge(capBytes);
    out.set(name, data);
  }
  return out;
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
