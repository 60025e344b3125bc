/**
 * What the store keeps per upload: the parsed Recording and where it came from. The uploaded bytes
 * are never part of it.
 */
import type { Candidate, FormatConfidence } from '../formats/detect.js';
import type { Recording } from '../recording/recording.js';

export interface StoredRecord {
  cpet_id: string;
  key_id: string;
  filename: string;
  bytes: number;
  uploaded_at_ms: number;
  expires_at_ms: number;
  retain_hours: number;
  /** `confidence` is absent from records stored before the last-resort format existed: those were all detected. */
  detection: { score: number; runner_up: Candidate | null; confidence?: FormatConfidence };
  recording: Recording;
}

export const RETENTION = {
  default_hours: 24,
  max_hours: 168,
  sentence:
    'Uploaded bytes are parsed and discarded at once; only the parsed recording is kept, under your key alone, ' +
    'until DELETE /v1/cpet/{cpet_id} or its retention ends (24 h after upload by default, at most 168 h through retain_hours).',
} as const;
