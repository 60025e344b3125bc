/**
 * The bounds every recording must fit before anything is computed on it (spec section 8: 20,000
 * samples; the clock span bounds the 1-Hz resampled series every analysis and the series route
 * build, which the sample count alone does not: 300 samples stamped up to 1e8 s would resample to
 * 100 million points).
 */
import { ServiceError } from '../errors.js';

export const RECORDING_LIMITS = {
  max_samples: 20_000,
  /** Six hours: three times the longest CPET protocol, and 20,000 one-second samples fit in it. */
  max_duration_s: 6 * 3600,
} as const;

/** Throws 413 RECORDING_TOO_LONG when a recording exceeds either limit. */
export function checkRecordingLimits(samples: number, durationS: number): void {
  if (samples > RECORDING_LIMITS.max_samples) {
    throw new ServiceError('RECORDING_TOO_LONG', `The recording has ${samples} samples; the limit is ${RECORDING_LIMITS.max_samples}.`, {
      max_samples: RECORDING_LIMITS.max_samples,
      samples,
    });
  }
  if (!(durationS <= RECORDING_LIMITS.max_duration_s)) {
    const shown = Number.isFinite(durationS) ? `${Math.round(durationS)} s` : 'an unbounded time';
    throw new ServiceError(
      'RECORDING_TOO_LONG',
      `The recording's clock spans ${shown}; at most ${RECORDING_LIMITS.max_duration_s} s (6 h) is accepted. Check the time column's unit (milliseconds read as seconds?) and its last rows.`,
      {
        max_duration_s: RECORDING_LIMITS.max_duration_s,
        duration_s: Number.isFinite(durationS) ? Math.round(durationS) : null,
        max_resampled_points: RECORDING_LIMITS.max_duration_s + 1,
      },
    );
  }
}
