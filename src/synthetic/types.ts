/**
 * Options and ground truth of the synthetic CPET generator (design section 9). The sample, the
 * tests, the threshold model's training set and the benchmarks all draw from it.
 */
import type { Recording } from '../recording/recording.js';

export type Protocol = 'ramp' | 'steps' | 'treadmill';

/** How the generated breaths are written out. */
export type SamplingOption =
  | { kind: 'breath' }
  /** One sample every interval_s, each the mean of the breaths since the previous one (e.g. the 2-s sample). */
  | { kind: 'interval'; interval_s: number }
  /** Fixed averaging windows as carts export them (5, 10, 15, 30, 60 s). */
  | { kind: 'averaged'; window_s: number }
  /** One row per breath, each the mean of the last `breaths` breaths (the 7- or 8-breath average carts offer). */
  | { kind: 'rolling_breaths'; breaths: number }
  /** One row each second, each the time-weighted mean of the breaths over the last `window_s` seconds. */
  | { kind: 'rolling_time'; window_s: number }
  /**
   * One row each whole second: a centred `smoothing_breaths`-breath moving average linearly
   * interpolated to 1 Hz, the shape of pyoxynet's data_test.csv (its loader filters breaths with a
   * 20-breath uniform filter, then interpolates).
   */
  | { kind: 'interpolated_1hz'; smoothing_breaths: number };

export interface OscillationOption {
  period_s: number;
  /** Peak-to-peak amplitude as a fraction of the local VE (0.1 to 0.4). */
  amplitude_fraction: number;
  /** PetCO2 phase relative to VE in degrees; 180 (antiphase) is physiological. */
  petco2_phase_deg?: number;
  /** Whether the oscillation runs through exercise only (default) or the whole test. */
  span?: 'exercise' | 'whole';
}

/**
 * The course of the exercise phase: incremental (the protocol's ramp or steps, the default), one
 * constant bout, four high bouts with easy pauses (an interval session), or a constant warm-up
 * bout and a pause before the incremental part.
 */
export type ExerciseShape = 'incremental' | 'constant' | 'interval' | 'warmup_bout';

export interface GeneratorOptions {
  seed: number;
  protocol?: Protocol;
  /** Default 'incremental'; other shapes keep the protocol's work channel (Load or Speed). Thresholds in the truth are only meaningful for 'incremental'. */
  shape?: ExerciseShape;
  rest_s?: number;
  warmup_s?: number;
  exercise_s?: number;
  recovery_s?: number;
  /** Stage length for step and treadmill protocols. */
  step_s?: number;
  /** Subject: drawn from the seed when not given. */
  vo2peak_ml_min?: number;
  body_mass_kg?: number;
  age_years?: number;
  sex?: 'male' | 'female';
  /** VT1 and VT2 as fractions of the exercise phase's duration (time from exercise start). */
  vt1_fraction?: number;
  vt2_fraction?: number;
  /** False: the test stops before VT2 (no respiratory compensation). */
  vt2_present?: boolean;
  /** False: the subject never leaves the moderate domain (no VT1 and no VT2 are reached). */
  vt1_present?: boolean;
  sampling?: SamplingOption;
  /** Multiplicative breath-to-breath noise (coefficient of variation), default 0.06. */
  noise_cv?: number;
  /** Fraction of breaths replaced by a cough or swallow outlier, default 0.005. */
  outlier_rate?: number;
  /** Number of gaps (dropped stretches of 10-40 s) in the recording, default 0. */
  gaps?: number;
  oscillation?: OscillationOption | null;
  /** Record heart rate (default true) and work rate (default true for ramp and steps). */
  hr?: boolean;
  load?: boolean;
  /** Where fat oxidation peaks, as a fraction of VO2peak (default drawn 0.40-0.65). */
  fatmax_fraction?: number;
  /** Opt-in realism; absent, the generator writes exactly what it always did. */
  realism?: RealismOptions;
}

/** Offsets (s) of each ventilatory criterion from the metabolic threshold it marks (VT1 or VT2). */
export interface CriteriaOffsets {
  peto2_nadir_s: number;
  ve_vo2_nadir_s: number;
  petco2_peak_s: number;
  ve_vco2_nadir_s: number;
}

/**
 * Opt-in realism. Every random quantity it adds comes from streams seeded apart from the main one,
 * so the subject and protocol a seed draws stay the same with or without it.
 */
export interface RealismOptions {
  /**
   * Where the ventilatory criteria sit around the metabolic thresholds (the truth): 'drawn' draws
   * offsets as measured between criteria in people (src/synthetic/criteria.ts); explicit offsets
   * place them. Absent: the generator's own curves (PetO2 nadir at VT1, an early VE/VO2 nadir).
   */
  criteria?: 'drawn' | CriteriaOffsets;
  /**
   * Breath-to-breath noise as measured in people (src/synthetic/breath-noise.ts): 'measured' draws
   * the VO2 error SD around the value calibrated on a real test; a number sets it. Replaces
   * `noise_cv` when given.
   */
  breath_noise?: 'measured' | { vo2_sd_ml_min: number };
  /** The first seconds of the recording, read while the subject settles on the mouthpiece (default 0). */
  settling_s?: number;
  /** The subject warmed up before the recording began: VO2 starts at the first load's steady state, not at rest. */
  unrecorded_warmup?: boolean;
  /** Place the metabolic VT1 / VT2 crossings at these times (s from the start); the generator solves the VO2 levels. */
  vt1_at_s?: number;
  vt2_at_s?: number;
  /**
   * How long after a threshold's changes begin an expert marks it (s): the truth reports the metabolic
   * crossing plus this delay, while the criteria stay placed around the metabolic crossing. Readers
   * mark a threshold once its signs are plain on the plot, not where a fitted line first bends: on
   * real expert-labelled tests the classic breakpoint criteria read VT1 about a minute before the
   * experts (the project's measurement on real tests it does not hold, issue 10; on both labelled
   * tests it holds, VE/VO2 and PetO2 have turned 60 to 100 s before the expert's VT1). Absent: 0.
   */
  reading_delay_s?: { vt1: number; vt2: number };
  /** Stop exercise this many seconds after the true VT2 crossing (the ramp or stages run on until then). */
  end_after_vt2_s?: number;
  /** Seconds of VO2 plateau before exercise ends; 0: VO2 still rising, its peak in the last second. Absent: the default draw. */
  plateau_s?: number;
}
export interface ThresholdTruth {
  time_s: number;
  vo2_ml_min: number;
}

export interface GroundTruth {
  /** null when the protocol never reaches it. */
  vt1: ThresholdTruth | null;
  vt2: ThresholdTruth | null;
  vo2peak_ml_min: number;
  /** Highest 30-s rolling mean of the noise-free VO2, what `vo2max` should return. */
  vo2peak_30s_ml_min: number;
  /** Phase boundaries (s from the start). */
  phases: { rest_end_s: number; warmup_end_s: number; exercise_end_s: number; end_s: number };
  /** Slope of VE (L/min) on VCO2 (L/min) placed below VT2. */
  ve_vco2_slope: number;
  oscillation: { period_s: number; amplitude_l_min: number } | null;
  /** Noise-free fat oxidation peak over steady states (null on protocols without steady states). */
  fatmax: { fraction_vo2peak: number; fat_g_min: number } | null;
  protocol: Protocol;
  /** Per-second domain (0 moderate, 1 heavy, 2 severe) on a 1-Hz grid from t = 0, for model training. */
  domain_1hz: Int8Array;
  /**
   * Where each ventilatory criterion landed on the noise-free signals during exercise (s from the
   * start): null when the extremum is not inside the exercise phase (e.g. the test ended first).
   */
  criteria: CriteriaLanding;
}

export interface CriteriaLanding {
  peto2_nadir_s: number | null;
  ve_vo2_nadir_s: number | null;
  petco2_peak_s: number | null;
  ve_vco2_nadir_s: number | null;
}

export interface GeneratedTest {
  options: Required<Pick<GeneratorOptions, 'seed' | 'protocol'>> & GeneratorOptions;
  recording: Recording;
  truth: GroundTruth;
}
