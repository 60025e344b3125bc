/**
 * The one path every upload route ends in: parse in a worker, store under (key, cpet_id) with its
 * retention, answer the summary. The bytes are not kept.
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../errors.js';
import { UPLOAD_LIMITS } from '../../formats/read-upload.js';
import { unwrap } from '../../workers/tasks.js';
import type { ServiceDeps } from '../deps.js';
import { validationError } from '../errors.js';
import { RETENTION, type EncodedStoredRecord, type StoredRecord } from '../stored-record.js';
import { uploadSummary, type UploadSummary } from '../summary.js';

/** Parses, stores and summarises one upload for the key `keyId`. */
export async function ingest(deps: ServiceDeps, keyId: string, filename: string, bytes: Uint8Array, retainHours: number | null | undefined): Promise<UploadSummary> {
  const hours = checkRetainHours(retainHours);
  if (bytes.length > UPLOAD_LIMITS.max_upload_bytes) {
    throw new ServiceError('FILE_TOO_LARGE', `The file is ${bytes.length} bytes; the limit is 25 MB.`, { max_upload_bytes: UPLOAD_LIMITS.max_upload_bytes, bytes: bytes.length });
  }
  let read;
  try {
    // The worker takes the bytes over (pool.ts): the request thread copies nothing and keeps nothing.
    read = unwrap(await deps.runner.run({ kind: 'parse', filename, bytes, packages: deps.config.formatPackages }, keyId), 'parse');
  } catch (err) {
    if (err instanceof ServiceError) deps.telemetry.uploadRefused(err.code);
    throw err;
  }
  const now = deps.config.now();
  const record: EncodedStoredRecord = {
    cpet_id: randomUUID(),
    key_id: keyId,
    filename,
    bytes: read.bytes,
    uploaded_at_ms: now,
    expires_at_ms: now + hours * 3_600_000,
    retain_hours: hours,
    detection: read.detection,
    summary: read.summary,
    // A Buffer, which the store writes as one base64 string (a bare Uint8Array would be written number by number).
    encoded: { ...read.encoded, block: Buffer.from(read.encoded.block.buffer, read.encoded.block.byteOffset, read.encoded.block.byteLength) },
  };
  await deps.store.putRecord(keyId, record.cpet_id, record, record.expires_at_ms);
  deps.telemetry.uploadStored(read.summary.format);
  return uploadSummary(record);
}

/** retain_hours: absent means the default; 1 to 168 accepted; anything else is a 422 naming the field. */
export function checkRetainHours(value: unknown): number {
  if (value === null || value === undefined || value === '') return RETENTION.default_hours;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > RETENTION.max_hours) {
    throw validationError([
      { loc: ['body', 'retain_hours'], msg: `must be a whole number of hours from 1 to ${RETENTION.max_hours}`, type: 'range', input: value, ctx: { minimum: 1, maximum: RETENTION.max_hours } },
    ]);
  }
  return n;
}

/** The record stored under this key, or 404 CPET_NOT_FOUND (also for another key's id). */
export async function loadRecord(deps: ServiceDeps, keyId: string, cpetId: string): Promise<StoredRecord> {
  const record = await deps.store.getRecord<StoredRecord>(keyId, cpetId);
  if (!record) throw new ServiceError('CPET_NOT_FOUND', `No recording ${cpetId} under this key: it never existed, was deleted, or passed its retention.`, { cpet_id: cpetId });
  return record;
}
