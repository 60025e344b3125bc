/**
 * The classic threshold criteria on the 1-Hz smoothed signals, each fitted over a range of the grid
 * and reported as evidence, accepted or not. VT2 (respiratory compensation): VE against VCO2
 * steepening, VE/VCO2 starting to rise, PetCO2 starting to fall. VT1: V-slope, VCO2 against VO2
 * with the slope rising by more than 0.1 (Beaver, Wasserman and Whipp, J Appl Physiol 1986); excess
 * CO2 starting to rise (Gaskill et al., Med Sci Sports Exerc 2001); VE/VO2 starting to rise; the
 * PetO2 nadir (Wasserman). The wasserman engine combines them by median; the corroborated decision
 * rule reads them beside a learned engine's curves.
 */
import { twoLineBreakpoint, type TwoLineFit } from '../../../../src/signal/breakpoints.js';
import { movingMean } from '../../grid-filters.js';
import { VT_CHANNELS, type PreparedTest } from '../../preprocess.js';

/** A channel the classic criteria read. */
export type ClassicChannel = (typeof VT_CHANNELS)[number];
/** Every channel, as the engines that require all five read them. */
export const ALL_CLASSIC_CHANNELS: ReadonlySet<ClassicChannel> = new Set(VT_CHANNELS);

/** The criteria by threshold, each with the channels it reads (VE/VO2 and VE/VCO2 read VE beside the gas). */
export const CRITERIA = {
  VT1: [
    { criterion: 'V-slope (VCO2 vs VO2)', channels: ['VO2', 'VCO2'] },
    { criterion: 'excess CO2 starts to rise', channels: ['VO2', 'VCO2'] },
    { criterion: 'VE/VO2 starts to rise', channels: ['VE', 'VO2'] },
    { criterion: 'PetO2 nadir', channels: ['PetO2'] },
  ],
  VT2: [
    { criterion: 'VE vs VCO2 steepening (respiratory compensation)', channels: ['VE', 'VCO2'] },
    { criterion: 'VE/VCO2 starts to rise', channels: ['VE', 'VCO2'] },
    { criterion: 'PetCO2 starts to fall', channels: ['PetCO2'] },
  ],
} as const satisfies Record<'VT1' | 'VT2', readonly { criterion: string; channels: readonly ClassicChannel[] }[]>;

/** Whether every channel a criterion reads is readable. */
export function canRun(channels: readonly ClassicChannel[], readable: ReadonlySet<ClassicChannel>): boolean {
  return channels.every((c) => readable.has(c));
}

/**
 * How far before the experts the classic breakpoint criteria read VT1 on real labelled tests, s: the
 * engines put VT1 "about one minute early on average" on real incremental tests with expert labels
 * (the project's measurement, issue 10; both labelled tests it holds agree: VE/VO2 and PetO2 turn
 * 60 to 100 s before the expert's VT1). No such lag is measured at VT2.
 */
export const CLASSIC_VT1_EARLY_ON_REAL_TESTS_S = 60;
/** Seconds of exercise dropped before fitting (Beaver et al. 1986). */
export const SKIP_EXERCISE_S = 60;
/** Shortest segment on each side of a breakpoint, s. */
export const MIN_SEGMENT_S = 45;
/** V-slope acceptance: the slope of VCO2 on VO2 must rise by more than this (Beaver et al. 1986). */
const V_SLOPE_MIN_RISE = 0.1;
/** RCP acceptance: the slope of VE on VCO2 must rise by at least this fraction. */
const RCP_MIN_RELATIVE_RISE = 0.15;
/** Largest distance (s) between the lines' crossing and the best split for the crossing to be used. */
const MAX_CROSSING_SHIFT_S = 90;
/** Extra smoothing (s each side) before a nadir or peak is read, so a flat bottom gives its middle. */
const NADIR_HALF_S = 30;

export interface CriterionEvidence {
  criterion: string;
  /** Grid index of the breakpoint (null when the fit was impossible). */
  index: number | null;
  slope_before: number | null;
  slope_after: number | null;
  accepted: boolean;
  why: string;
}

/**
 * The breakpoint as the crossing of the two lines (Beaver et al. 1986 take the intersection), mapped
 * back to a grid index: the first index in [from, to] where the x series reaches the crossing. When
 * the lines cross outside the fitted range, or far from the split, the split itself is used.
 */
function crossingIndex(fit: TwoLineFit, x: Float64Array, from: number, to: number): number {
  const split = from + fit.index;
  const ds = fit.slope_before - fit.slope_after;
  if (ds === 0) return split;
  const xc = (fit.intercept_after - fit.intercept_before) / ds;
  const lo = Math.min(x[from], x[to]);
  const hi = Math.max(x[from], x[to]);
  if (!(xc > lo && xc < hi)) return split;
  const rising = x[to] >= x[from];
  for (let i = from; i <= to; i++) {
    if (rising ? x[i] >= xc : x[i] <= xc) return Math.abs(i - split) <= MAX_CROSSING_SHIFT_S ? i : split;
  }
  return split;
}

/**
 * A hinge (continuous two-line) fit of y on x over [from, to] with the shared breakpoint code
 * (src/signal/breakpoints.ts), its break mapped to the first index where x reaches it.
 */
function hinge(criterion: string, x: Float64Array, y: Float64Array, from: number, to: number, accept: (before: number, after: number) => boolean, why: string): CriterionEvidence {
  const fit = to - from + 1 >= 2 * MIN_SEGMENT_S ? twoLineBreakpoint(x.subarray(from, to + 1), y.subarray(from, to + 1), { min_points: MIN_SEGMENT_S }) : null;
  if (!fit) return { criterion, index: null, slope_before: null, slope_after: null, accepted: false, why: 'too few points to fit two lines' };
  let index = from + fit.index;
  const rising = x[to] >= x[from];
  for (let i = from; i <= to; i++) {
    if (rising ? x[i] >= fit.x_break : x[i] <= fit.x_break) {
      index = i;
      break;
    }
  }
  const ok = accept(fit.slope_before, fit.slope_after);
  return { criterion, index, slope_before: round(fit.slope_before, 4), slope_after: round(fit.slope_after, 4), accepted: ok, why: ok ? why : `not accepted: ${why} failed` };
}

function evidence(criterion: string, x: Float64Array, y: Float64Array, from: number, to: number, accept: (f: TwoLineFit) => boolean, why: string): CriterionEvidence {
  // Two free lines over consecutive seconds (time order, not x order: x may be noisy VCO2).
  const fit = to - from + 1 >= 2 * MIN_SEGMENT_S ? twoLineBreakpoint(x.subarray(from, to + 1), y.subarray(from, to + 1), { min_points: MIN_SEGMENT_S, continuous: false, order: 'given' }) : null;
  if (!fit) return { criterion, index: null, slope_before: null, slope_after: null, accepted: false, why: 'too few points to fit two lines' };
  const ok = accept(fit);
  return {
    criterion,
    index: crossingIndex(fit, x, from, to),
    slope_before: round(fit.slope_before, 4),
    slope_after: round(fit.slope_after, 4),
    accepted: ok,
    why: ok ? why : `not accepted: ${why} failed`,
  };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * The lowest point of a series over [from, to] after a further centred mean of NADIR_HALF_S each
 * side; accepted when it lies inside the range, not at an edge, since an edge means the series never
 * turned.
 */
export function nadir(criterion: string, series: Float64Array, from: number, to: number): CriterionEvidence {
  if (to - from < 2 * MIN_SEGMENT_S) return { criterion, index: null, slope_before: null, slope_after: null, accepted: false, why: 'range too short' };
  const smooth = movingMean(series.subarray(from, to + 1), NADIR_HALF_S);
  let best = 0;
  for (let i = 1; i < smooth.length; i++) if (smooth[i] < smooth[best]) best = i;
  const inside = best >= MIN_SEGMENT_S && best <= smooth.length - 1 - MIN_SEGMENT_S;
  return {
    criterion,
    index: from + best,
    slope_before: null,
    slope_after: null,
    accepted: inside,
    why: inside ? 'nadir inside the range' : 'not accepted: nadir at the edge of the range',
  };
}

/** The ratios the criteria read, per grid second: VE/VO2, VE/VCO2, excess CO2, and time itself. */
export interface DerivedSignals {
  time: Float64Array;
  ve_vo2: Float64Array;
  ve_vco2: Float64Array;
  excess_co2_ml_min: Float64Array;
}

export function derivedSignals(test: PreparedTest): DerivedSignals {
  const { vo2, vco2, ve } = test;
  const out: DerivedSignals = { time: new Float64Array(test.n), ve_vo2: new Float64Array(test.n), ve_vco2: new Float64Array(test.n), excess_co2_ml_min: new Float64Array(test.n) };
  for (let i = 0; i < test.n; i++) {
    out.time[i] = i;
    // Excess CO2 (Gaskill et al. 2001, after Volkov 1975): the CO2 above what RER alone would give.
    out.excess_co2_ml_min[i] = (vco2[i] * vco2[i]) / vo2[i] - vco2[i];
    out.ve_vo2[i] = (ve[i] * 1000) / vo2[i];
    out.ve_vco2[i] = (ve[i] * 1000) / vco2[i];
  }
  return out;
}

/** The respiratory-compensation criteria whose channels are readable, fitted over grid indices [from, to]. */
export function vt2Criteria(test: PreparedTest, d: DerivedSignals, from: number, to: number, readable: ReadonlySet<ClassicChannel> = ALL_CLASSIC_CHANNELS): CriterionEvidence[] {
  const [rcp, veVco2, petco2] = CRITERIA.VT2;
  return [
    canRun(rcp.channels, readable) &&
      evidence(rcp.criterion, test.vco2, test.ve, from, to, (f) => f.slope_before > 0 && f.slope_after > f.slope_before * (1 + RCP_MIN_RELATIVE_RISE), `slope rise > ${RCP_MIN_RELATIVE_RISE * 100} %`),
    canRun(veVco2.channels, readable) && evidence(veVco2.criterion, d.time, d.ve_vco2, from, to, (f) => f.slope_after > 0 && f.slope_after > f.slope_before, 'rising after, steeper than before'),
    canRun(petco2.channels, readable) && evidence(petco2.criterion, d.time, test.petco2, from, to, (f) => f.slope_after < 0 && f.slope_after < f.slope_before, 'falling after, steeper than before'),
  ].filter((e): e is CriterionEvidence => e !== false);
}

/** The V-slope hinge over grid indices [from, to] (VO2 and VCO2, which every classic engine requires). */
export function vSlope(test: PreparedTest, from: number, to: number): CriterionEvidence {
  return hinge(CRITERIA.VT1[0].criterion, test.vo2, test.vco2, from, to, (b, a) => a - b > V_SLOPE_MIN_RISE, `slope rise > ${V_SLOPE_MIN_RISE}`);
}

/** The hinge criteria of VT1 (V-slope, excess CO2, and VE/VO2 when VE is readable) fitted over grid indices [from, to]. */
export function vt1HingeCriteria(test: PreparedTest, d: DerivedSignals, from: number, to: number, readable: ReadonlySet<ClassicChannel> = ALL_CLASSIC_CHANNELS): CriterionEvidence[] {
  const [, excess, veVo2] = CRITERIA.VT1;
  return [
    vSlope(test, from, to),
    hinge(excess.criterion, d.time, d.excess_co2_ml_min, from, to, (b, a) => a > 0 && a > b, 'rising after, steeper than before'),
    canRun(veVo2.channels, readable) && hinge(veVo2.criterion, d.time, d.ve_vo2, from, to, (b, a) => a > 0 && a > b, 'rising after, steeper than before'),
  ].filter((e): e is CriterionEvidence => e !== false);
}
