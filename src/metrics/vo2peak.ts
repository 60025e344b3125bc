/**
 * The one VO2peak of the service: the highest mean of VO2 under the chosen averaging (default: the
 * trailing 30-s time mean, ATS/ACCP 2003), over the whole record, after cough and swallow breaths
 * are masked (Lamarra 1987). The vo2max metric, vt's %VO2peak, substrate's %VO2peak, the CLI's
 * summary, the CSV and the page all read this function, so one recording has one VO2peak.
 */
import type { Recording } from '../recording/recording.js';
import { DEFAULT_AVERAGING, type AveragingSpec } from '../signal/averaging/index.js';
import { cleaned } from './cleaned.js';
import { peakAveraged, type PeakWindow } from './entries/peak-window.js';

/** The VO2peak window (value in mL/min), or null when no window holds enough valid VO2. */
export function vo2Peak(rec: Recording, averaging: AveragingSpec = DEFAULT_AVERAGING): PeakWindow | null {
  return peakAveraged(rec, cleaned(rec, 'VO2'), null, averaging);
}
