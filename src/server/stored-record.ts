/**
 * What the store keeps per upload: the parsed recording and where it came from, never the uploaded
 * bytes. The samples are kept encoded (src/store/record-codec.ts: one compressed binary block), and the
 * recording's part of the summary beside them, so reading a record for its summary parses no samples
 * and a record goes to a worker as one block it can own.
 */
import type { Candidate, FormatConfidence } from '../formats/detect.js';
import type { Recording } from '../recording/recording.js';
import { decodeRecording, type EncodedRecording } from '../store/record-codec.js';
import type { RecordingSummary } from './summary.js';

interface RecordHeader {
  cpet_id: string;
  key_id: string;
  filename: string;
  bytes: number;
  uploaded_at_ms: number;
  expires_at_ms: number;
  retain_hours: number;
  /** `confidence` is absent from records stored before the last-resort format existed: those were all detected. */
  detection: { score: number; runner_up: Candidate | null; confidence?: FormatConfidence };
}

/** A record as it is stored now. */
export interface EncodedStoredRecord extends RecordHeader {
  summary: RecordingSummary;
  encoded: EncodedRecording;
}

/** A record stored before the samples were encoded (within a retention period of the upgrade): the recording as JSON. */
export interface PlainStoredRecord extends RecordHeader {
  recording: Recording;
}

export type StoredRecord = EncodedStoredRecord | PlainStoredRecord;

/** The recording a task receives: the stored block (the worker decodes it) or, for an older record, the recording itself. */
export type RecordingPayload = { encoded: EncodedRecording } | { plain: Recording };

export function payloadOf(record: StoredRecord): RecordingPayload {
  return 'encoded' in record ? { encoded: record.encoded } : { plain: record.recording };
}

/** The recording a payload carries. */
export function recordingOf(payload: RecordingPayload): Recording {
  return 'encoded' in payload ? decodeRecording(payload.encoded) : payload.plain;
}

export const RETENTION = {
  default_hours: 24,
  max_hours: 168,
  sentence:
    'Uploaded bytes are parsed and discarded at once; only the parsed recording is kept, under your key alone, ' +
    'until DELETE /v1/cpet/{cpet_id} or its retention ends (24 h after upload by default, at most 168 h through retain_hours).',
} as const;
