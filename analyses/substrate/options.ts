/**
 * Options of the substrate analysis and their defaults. The analyze body carries no per-analysis
 * options, so the service always runs on `DEFAULTS`; tests and benchmarks may override them.
 */

/** Tunable settings of the substrate analysis. */
export interface SubstrateOptions {
  /** Shortest constant work-rate stretch (s) counted as a protocol stage; shorter steps never reach a steady state. 110 s admits nominal 2-min stages, which are seen a breath late. */
  min_stage_s: number;
  /** Each stage is summarised by the mean of its last part, this long (s), at most half the stage (Achten et al. 2002 used the last minute of 3-min stages). */
  stage_tail_s: number;
  /** Length (s) of the fixed clock bins used when the recording has no stages. */
  bin_s: number;
  /** Fewest windows below RER 1.0 needed to fit the cubic (three coefficients plus one degree of freedom). */
  min_fit_windows: number;
  /** Below this many windows below RER 1.0 the fit is flagged as thinly supported. */
  advised_fit_windows: number;
  /** Narrowest spread of intensity (%VO2peak) across the fitted windows for a curve to mean anything. */
  min_fit_range_pct: number;
  /** A work-rate change larger than this (W) starts a new stage. */
  load_tolerance_w: number;
  /** A belt-speed change larger than this (km/h) starts a new stage. */
  speed_tolerance_kmh: number;
  /** A grade change larger than this (%) starts a new stage. */
  grade_tolerance_pct: number;
  /** Highest plausible ergometer work rate (W); a Load channel beyond it is not treated as watts. */
  max_plausible_load_w: number;
  /** Fraction of minute-to-minute VO2 changes that must be near zero to call an unlabelled protocol stepped. */
  min_steady_fraction: number;
}

/** Defaults, chosen for the graded FATMAX protocols of Achten, Gleeson and Jeukendrup (2002). */
export const DEFAULTS: Readonly<SubstrateOptions> = Object.freeze({
  min_stage_s: 110,
  stage_tail_s: 60,
  bin_s: 60,
  min_fit_windows: 4,
  advised_fit_windows: 6,
  min_fit_range_pct: 10,
  load_tolerance_w: 5,
  speed_tolerance_kmh: 0.3,
  grade_tolerance_pct: 0.5,
  max_plausible_load_w: 2500,
  min_steady_fraction: 0.2,
});

/** Merges caller overrides onto the defaults. */
export function resolveOptions(overrides: Partial<SubstrateOptions> = {}): SubstrateOptions {
  return { ...DEFAULTS, ...overrides };
}
