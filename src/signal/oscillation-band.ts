/**
 * The band of oscillation periods a recording's sampling can resolve. Shared by the
 * `sampling_adequacy` metric and the EOV analysis so both always say the same thing.
 */

/** Periods the published EOV definitions grade (Corrà 2002; Leite 2003): about 40-140 s. */
export const GRADED_PERIOD_MIN_S = 40;
export const GRADED_PERIOD_MAX_S = 140;
/**
 * Samples per cycle needed to see an oscillation's shape, not only its existence: Nyquist's 2 is
 * the bare minimum for a pure sine; 4 keeps amplitude error of an averaged export small.
 */
export const SAMPLES_PER_CYCLE = 4;

export interface OscillationBand {
  /** Shortest period the sampling resolves, s. */
  period_floor_s: number;
  /** Longest period graded, s. */
  period_ceiling_s: number;
  /** True when the floor cuts into the graded 40-140 s band. */
  band_narrowed: boolean;
  /** False when no graded period at all can be resolved. */
  gradable: boolean;
}

/** The resolvable band for a raw sampling interval (or averaging window, whichever is longer), in s. */
export function oscillationBand(interval_s: number): OscillationBand {
  const floor = Math.max(SAMPLES_PER_CYCLE * interval_s, 0);
  return {
    period_floor_s: Math.round(floor * 1000) / 1000,
    period_ceiling_s: GRADED_PERIOD_MAX_S,
    band_narrowed: floor > GRADED_PERIOD_MIN_S,
    gradable: floor < GRADED_PERIOD_MAX_S,
  };
}
