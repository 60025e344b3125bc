/**
 * The whole reading of one upload: size limit, detection, parsing, sample limit. Bytes go in, a
 * Recording comes out, and the bytes are not kept.
 */
import { ServiceError } from '../errors.js';
import { RECORDING_LIMITS } from '../recording/limits.js';
import type { Recording } from '../recording/recording.js';
import { chooseFormat, type Candidate, type FormatConfidence } from './detect.js';
import { FileView } from './file-view.js';
import type { FormatPlugin } from './format-plugin.js';
import { CANONICAL_RECOVERY } from './recovery.js';

export const UPLOAD_LIMITS = {
  max_upload_bytes: 25 * 1024 * 1024,
  max_samples: RECORDING_LIMITS.max_samples,
  max_duration_s: RECORDING_LIMITS.max_duration_s,
} as const;

export interface ReadResult {
  recording: Recording;
  /** How sure detection was: the winner's and runner-up's scores, and whether the winner was the last resort. */
  detection: { score: number; runner_up: Candidate | null; confidence: FormatConfidence };
  bytes: number;
}

/** Detects and parses an upload; throws ServiceError with the spec's code for every refusal. */
export async function readUpload(filename: string, bytes: Buffer, formats: readonly FormatPlugin[]): Promise<ReadResult> {
  if (bytes.length > UPLOAD_LIMITS.max_upload_bytes) {
    throw new ServiceError('FILE_TOO_LARGE', `The file is ${bytes.length} bytes; the limit is ${UPLOAD_LIMITS.max_upload_bytes} bytes (25 MB).`, {
      max_upload_bytes: UPLOAD_LIMITS.max_upload_bytes,
      bytes: bytes.length,
    });
  }
  if (bytes.length === 0) {
    throw new ServiceError('UNSUPPORTED_FORMAT', 'The file is empty.', { candidates: [], recovery: CANONICAL_RECOVERY });
  }
  const file = new FileView(filename, bytes);
  const { plugin, candidates, confidence } = chooseFormat(file, formats);
  let recording: Recording;
  try {
    recording = await plugin.parse(file);
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    throw new ServiceError('PARSER_ERROR', `${plugin.meta.id}: the file was recognised but could not be read (${(err as Error).message}).`, {
      format: plugin.meta.id,
    });
  }
  if (recording.t_s.length > UPLOAD_LIMITS.max_samples) {
    throw new ServiceError('RECORDING_TOO_LONG', `The recording has ${recording.t_s.length} samples; the limit is ${UPLOAD_LIMITS.max_samples}.`, {
      max_samples: UPLOAD_LIMITS.max_samples,
      samples: recording.t_s.length,
    });
  }
  return {
    recording,
    detection: { score: candidates[0].score, runner_up: candidates[1] ?? null, confidence },
    bytes: bytes.length,
  };
}
