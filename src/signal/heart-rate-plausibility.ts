/**
 * Physiologically impossible heart-rate samples, flagged one by one so that every plot and metric
 * that uses HR can leave them out and say so (issue 19). A sample is implausible when it lies
 * outside 30-230 beats/min, or when it differs from the last plausible sample by more than 40
 * beats/min within 2 s (20 beats/min per second over a longer gap). The limits sit beyond what a
 * heart does: the fastest change, vagal withdrawal at exercise onset, raises HR by about 30 beats/min
 * over several seconds (Fagraeus and Linnarsson, J Appl Physiol 1976), and predicted maximal HR is
 * 208 - 0.7 x age (Tanaka, Monahan and Seals, J Am Coll Cardiol 2001), below 200 for an adult.
 * A chest-strap or ECG dropout reads as 0, a doubled or halved count as a jump.
 */

/** Lowest and highest plausible heart rate, beats/min. */
export const HR_MIN_BPM = 30;
export const HR_MAX_BPM = 230;
/** Largest plausible change, beats/min, within `HR_JUMP_WINDOW_S`. */
export const HR_MAX_JUMP_BPM = 40;
export const HR_JUMP_WINDOW_S = 2;

export type HeartRateFlag = 'out_of_range' | 'jump';

export interface HeartRatePlausibility {
  /** Per sample: why it is implausible, or null (also null where HR is missing). */
  flags: (HeartRateFlag | null)[];
  /** Samples holding a heart rate, and how many of them are implausible. */
  samples: number;
  implausible: number;
}

/** What each flag means, in words, for notes and plots. */
export const HEART_RATE_FLAG_REASONS: Record<HeartRateFlag, string> = {
  out_of_range: `heart rate outside ${HR_MIN_BPM}-${HR_MAX_BPM} beats/min`,
  jump: `heart rate changing by more than ${HR_MAX_JUMP_BPM} beats/min within ${HR_JUMP_WINDOW_S} s`,
};

/** Flags every implausible heart-rate sample of a recording (t_s ascending, HR in beats/min). */
export function heartRatePlausibility(t_s: readonly number[], hr_bpm: readonly (number | null)[]): HeartRatePlausibility {
  const flags: (HeartRateFlag | null)[] = new Array(hr_bpm.length).fill(null);
  let samples = 0;
  let implausible = 0;
  let lastT = Number.NaN;
  let lastHr = Number.NaN;
  for (let i = 0; i < hr_bpm.length; i++) {
    const h = hr_bpm[i];
    if (h === null || !Number.isFinite(h)) continue;
    samples++;
    let flag: HeartRateFlag | null = null;
    if (h < HR_MIN_BPM || h > HR_MAX_BPM) flag = 'out_of_range';
    else if (Number.isFinite(lastHr)) {
      // Measured against the last plausible sample, so the sample after a spike is not flagged for returning.
      const allowed = HR_MAX_JUMP_BPM * Math.max(1, (t_s[i] - lastT) / HR_JUMP_WINDOW_S);
      if (Math.abs(h - lastHr) > allowed) flag = 'jump';
    }
    flags[i] = flag;
    if (flag) implausible++;
    else {
      lastT = t_s[i];
      lastHr = h;
    }
  }
  return { flags, samples, implausible };
}

/** One sentence on what was flagged, for a metric's detail or a plot's caption. */
export function describeImplausibleHeartRate(p: HeartRatePlausibility): string {
  const kinds = (Object.keys(HEART_RATE_FLAG_REASONS) as HeartRateFlag[]).filter((k) => p.flags.includes(k));
  if (p.implausible === 0) return `no implausible heart-rate sample (${HEART_RATE_FLAG_REASONS.out_of_range}, or ${HEART_RATE_FLAG_REASONS.jump})`;
  return `${p.implausible} of ${p.samples} heart-rate samples are physiologically implausible (${kinds.map((k) => HEART_RATE_FLAG_REASONS[k]).join('; ')})`;
}
