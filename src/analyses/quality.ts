/**
 * The envelope's `quality` (spec 2.2): input coverage of VE, VO2 and VCO2 and whether the sampling
 * interval is known. It describes the recording, not confidence in any result.
 */
import { coverage, type Recording } from '../recording/recording.js';

export type Quality = 'good' | 'acceptable' | 'poor';

/** Coverage at or above which the input is good, and at or above which it is still acceptable. */
export const QUALITY_THRESHOLDS = { good: 0.95, acceptable: 0.8 } as const;

/** good: every gas channel >= 95 % covered and the interval known; acceptable: >= 80 % and known; else poor. */
export function inputQuality(rec: Recording): Quality {
  const worst = Math.min(coverage(rec, 'VE'), coverage(rec, 'VO2'), coverage(rec, 'VCO2'));
  if (!rec.sampling.interval_known) return 'poor';
  if (worst >= QUALITY_THRESHOLDS.good) return 'good';
  if (worst >= QUALITY_THRESHOLDS.acceptable) return 'acceptable';
  return 'poor';
}
