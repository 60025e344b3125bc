/**
 * The ventilatory criteria of the two thresholds, spread around the metabolic truth as they are in
 * people, and where they landed.
 *
 * The generator's truth is metabolic: VT1 where buffering starts (the V-slope steepens), VT2 where
 * respiratory compensation starts. In people the criteria read off ventilation do not coincide with
 * those points or with each other:
 * - Ventilatory equivalents vs V-slope: Solberg et al. (J Sports Sci Med 2005) found the V-slope
 *   threshold significantly lower than the lactate and RER thresholds and the VE/VO2 one only
 *   trending lower, i.e. VE/VO2 later than V-slope; Ekkekakis et al. (J Sports Sci 2008) found the
 *   means of nine computerised VT methods on the same tests 2.47 to 3.13 L/min (71 to 90 % VO2max);
 *   Dolezal et al. (J Sports Sci Med 2017) found experienced readers and a cart's algorithm agreeing
 *   on average (21-23 mL/min) yet more than 500 mL/min apart in half the individual tests.
 * - VE/VCO2: its minimum comes soon after the lactate threshold and before respiratory compensation
 *   (Ward, Eur Respir Rev 2021), so the nadir sits before VT2, on a flat stretch that only turns up
 *   steeply at compensation.
 * None of these gives per-criterion offsets in seconds, and of Gaskill et al. (MSSE 2001), who
 * compared V-slope, ventilatory equivalents and excess CO2 against the lactate threshold, only the
 * abstract could be read, which gives none either. So the spreads below are a conservative choice,
 * narrower than the method spreads above: a VT1
 * ventilatory offset shared by PetO2 and VE/VO2 (both read VE against VO2) of +15 +- 25 s plus
 * +- 12 s each, the PetCO2 peak -10 +- 20 s from VT2, the VE/VCO2 nadir up to 45 % of the VT1-VT2
 * interval before VT2.
 */
import { endTidal, steadyVco2, ventilation, type SubjectPhysiology } from './physiology.js';
import type { ProtocolPlan } from './protocol.js';
import type { Rng } from './random.js';
import type { CriteriaLanding, CriteriaOffsets } from './types.js';
import { ventilatoryDrive } from './uptake.js';

const VT1_SHARED_MEAN_S = 15;
const VT1_SHARED_SD_S = 25;
const VT1_OWN_SD_S = 12;
const PETCO2_PEAK_MEAN_S = -10;
const PETCO2_PEAK_SD_S = 20;
const VE_VCO2_NADIR_MAX_SHARE = 0.45;
/** Bounds that keep each criterion beside its own threshold: at most 90 s off, and VT1's no further than 35 % (VT2's 45 %) of the way to the other threshold. */
const MAX_OFFSET_S = 90;
const VT1_CRITERIA_MAX_SHARE = 0.35;
const VT2_CRITERIA_MAX_SHARE = 0.45;
const VT2_CRITERIA_MAX_LATE_S = 60;
/** A VT1 criterion no earlier than this far into exercise. */
const MIN_INTO_EXERCISE_S = 30;
/** Used when a test has no VT2 to measure the interval by. */
const DEFAULT_INTERVAL_S = 180;

/** Draws the four offsets (s) of one test: always the same number of draws, so the stream stays aligned. */
export function drawCriteriaOffsets(rng: Rng, vt1_s: number | null, vt2_s: number | null, exerciseStart_s: number): CriteriaOffsets {
  const interval = vt1_s !== null && vt2_s !== null ? vt2_s - vt1_s : DEFAULT_INTERVAL_S;
  const earliest = vt1_s === null ? -MAX_OFFSET_S : Math.max(-MAX_OFFSET_S, exerciseStart_s + MIN_INTO_EXERCISE_S - vt1_s);
  const latest = Math.min(MAX_OFFSET_S, VT1_CRITERIA_MAX_SHARE * interval);
  const shared = VT1_SHARED_MEAN_S + VT1_SHARED_SD_S * rng.normal();
  const peto2 = clamp(shared + VT1_OWN_SD_S * rng.normal(), earliest, latest);
  const veVo2 = clamp(shared + VT1_OWN_SD_S * rng.normal(), earliest, latest);
  const petco2 = clamp(PETCO2_PEAK_MEAN_S + PETCO2_PEAK_SD_S * rng.normal(), -Math.min(MAX_OFFSET_S, VT2_CRITERIA_MAX_SHARE * interval), VT2_CRITERIA_MAX_LATE_S);
  const veVco2 = -VE_VCO2_NADIR_MAX_SHARE * interval * rng.next();
  return { peto2_nadir_s: round1(peto2), ve_vo2_nadir_s: round1(veVo2), petco2_peak_s: round1(petco2), ve_vco2_nadir_s: round1(veVco2) };
}

export interface VentilatoryCurves {
  ve: Float64Array;
  petco2: Float64Array;
  peto2: Float64Array;
}

/** How far (s) from its target a ventilatory-equivalent design point may move to land its nadir there, and how often the two are re-solved in turn. */
const DESIGN_SEARCH_S = 150;
const DESIGN_ROUNDS = 2;
/**
 * Just past its nadir VE/VO2 rises at this share of RER's rate (growing to all of it at the VE/VCO2
 * nadir): a visible turn, as readers look for, rather than a minute-long flat bottom.
 */
const NADIR_KINK = 0.5;
/** VE/VCO2 rises this much slower between its nadir and VT2 than above VT2 (a gentle drift, then compensation). */
const PRE_COMPENSATION_SHARE = 0.25;
/** VE/VCO2 rises at least this much (ratio) from VT2 to VO2peak. */
const MIN_COMPENSATION_RATIO = 1.08;
/** VE/VO2 at rest at least this much above its nadir. */
const MIN_REST_RATIO = 1.15;
const GRID_POINTS = 4000;

/**
 * VE, PetCO2 and PetO2 each second with the criteria at the given seconds (offsets added to the
 * truth; a threshold the test never reaches keeps its criteria at its own level, unreached).
 * ln(VE/VO2) is designed over the ventilatory drive (VO2 through VCO2's lag, uptake.ts): falling to
 * its nadir, turning up there at half RER's rate and no faster than RER until the VE/VCO2 nadir,
 * then VE/VCO2 rising, gently to VT2 and steeply above it. VE = drive x (VE/VO2) at the drive.
 * The end-tidal curves are the generator's own (physiology.ts endTidal) read through a warp that
 * moves their breakpoints to the criteria. On stage protocols each stage onset dips VE/VO2 on its
 * own (VO2 leads the drive), so there the VE/VO2 nadir may land at a stage onset: the truth records
 * where it fell.
 */
export function ventilatoryCurves(
  p: SubjectPhysiology,
  vo2: Float64Array,
  vco2: Float64Array,
  plan: ProtocolPlan,
  vt1_s: number | null,
  vt2_s: number | null,
  offsets: CriteriaOffsets,
): VentilatoryCurves {
  const n = vo2.length;
  const at = (series: Float64Array, base_s: number | null, offset_s: number, fallback: number): number => (base_s === null ? fallback : levelAt(series, base_s + offset_s, plan));

  const peto2Level = Math.max(p.rest_ml_min + 1, at(vo2, vt1_s, offsets.peto2_nadir_s, p.vt1_ml_min));
  const petco2Level = Math.max(p.rest_ml_min + 2, at(vo2, vt2_s, offsets.petco2_peak_s, p.vt2_ml_min));
  // Knots the generator's own end-tidal curves break at; the warps move the PetO2 nadir (VT1 knot)
  // and the PetCO2 peak (VT2 knot) to the criteria's levels.
  const knots = [p.rest_ml_min, p.vt1_ml_min, p.vt2_ml_min, p.vo2peak_ml_min];
  const oxygenVt2 = Math.max(p.vt2_ml_min, peto2Level + 1);
  const oxygenWarp = [p.rest_ml_min, peto2Level, oxygenVt2, Math.max(p.vo2peak_ml_min, oxygenVt2 + 1)];
  const carbonWarp = [p.rest_ml_min, Math.min(p.vt1_ml_min, petco2Level - 1), petco2Level, Math.max(p.vo2peak_ml_min, petco2Level + 1)];
  const petco2 = new Float64Array(n);
  const peto2 = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    peto2[t] = endTidal(p, warp(vo2[t], oxygenWarp, knots)).peto2;
    petco2[t] = endTidal(p, warp(vo2[t], carbonWarp, knots)).petco2;
  }

  // The nadirs sit near, not at, their design points (VO2 leads the drive, VCO2 bends at the
  // thresholds), and each landing moves monotonically with its design point: bisect on each in turn.
  const drive = ventilatoryDrive(vo2);
  const levelOf = (at_s: number | null, fallback: number): number => (at_s === null ? fallback : levelAt(drive, at_s, plan));
  const design = (a_s: number | null, b_s: number | null): Float64Array => {
    const b = levelOf(b_s, p.vt2_ml_min);
    return ventilationFromDesign(p, drive, Math.min(b - 1, levelOf(a_s, p.vt1_ml_min)), b);
  };
  const lastExercise = Math.min(n - 1, Math.ceil(plan.exercise_end_s) - 1);
  const reachable = (t: number | null): t is number => t !== null && t < lastExercise - 1;
  const targetA = vt1_s === null ? null : vt1_s + offsets.ve_vo2_nadir_s;
  const targetB = vt2_s === null ? null : vt2_s + offsets.ve_vco2_nadir_s;
  let designA = targetA;
  let designB = targetB;
  for (let round = 0; round < DESIGN_ROUNDS; round++) {
    if (reachable(targetB)) designB = bisectDesign(targetB, (d) => argExtreme(design(designA, d), vco2, plan, 'min', true) as number);
    if (reachable(targetA)) designA = bisectDesign(targetA, (d) => argExtreme(design(d, designB), vo2, plan, 'min', true) as number);
  }
  return { ve: design(designA, designB), petco2, peto2 };
}

/** The design second (within DESIGN_SEARCH_S of the target) whose nadir lands nearest the target. */
function bisectDesign(target: number, landedFor: (design_s: number) => number): number {
  let lo = target - DESIGN_SEARCH_S;
  let hi = target + DESIGN_SEARCH_S;
  let best = { design: target, miss: Math.abs(landedFor(target) - target) };
  while (hi - lo > 1 && best.miss > 0) {
    const mid = Math.round((lo + hi) / 2);
    const landed = landedFor(mid);
    if (Math.abs(landed - target) < best.miss) best = { design: mid, miss: Math.abs(landed - target) };
    if (landed < target) lo = mid;
    else hi = mid;
  }
  return best.design;
}

/** VE each second from the design of ln(VE/VO2) over the ventilatory drive. */
function ventilationFromDesign(p: SubjectPhysiology, drive: Float64Array, veVo2Level: number, veVco2Level: number): Float64Array {
  const rer = (v: number): number => Math.log(steadyVco2(p, v) / v);
  const rerSlope = (v: number): number => (rer(v + 1) - rer(v - 1)) / 2;
  const baseVeVo2 = (v: number): number => ventilation(p, steadyVco2(p, v), steadyVco2(p, p.vt2_ml_min)) / (v / 1000);
  const baseVeVco2 = (v: number): number => ventilation(p, steadyVco2(p, v), steadyVco2(p, p.vt2_ml_min)) / (steadyVco2(p, v) / 1000);

  const la = veVo2Level;
  const lb = Math.max(veVco2Level, la + 1);
  const rest = Math.min(p.rest_ml_min, la - 1);
  const nadir = Math.log(baseVeVo2(la));
  const atRest = Math.max(Math.log(baseVeVo2(rest)), nadir + Math.log(MIN_REST_RATIO));
  const compensation = Math.max(Math.log(baseVeVco2(p.vo2peak_ml_min) / baseVeVco2(p.vt2_ml_min)), Math.log(MIN_COMPENSATION_RATIO)) / Math.max(1, p.vo2peak_ml_min - p.vt2_ml_min);
  const slope = (v: number): number => {
    if (v < la) return (-2 * (atRest - nadir) * (la - v)) / (la - rest) ** 2;
    if (v < lb) return rerSlope(v) * (NADIR_KINK + ((1 - NADIR_KINK) * (v - la)) / (lb - la));
    return rerSlope(v) + (v < p.vt2_ml_min ? PRE_COMPENSATION_SHARE * compensation : compensation);
  };

  let lo = Infinity;
  let hi = -Infinity;
  for (const v of drive) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  lo = Math.min(lo, rest) * 0.9;
  hi = hi * 1.1 + 1;
  const step = (hi - lo) / (GRID_POINTS - 1);
  const logVeVo2 = new Float64Array(GRID_POINTS);
  logVeVo2[0] = lo < la ? nadir + (atRest - nadir) * ((la - lo) / (la - rest)) ** 2 : nadir;
  for (let k = 1; k < GRID_POINTS; k++) {
    const v0 = lo + (k - 1) * step;
    logVeVo2[k] = logVeVo2[k - 1] + ((slope(v0) + slope(v0 + step)) / 2) * step;
  }
  const ve = new Float64Array(drive.length);
  for (let t = 0; t < drive.length; t++) {
    const x = (drive[t] - lo) / step;
    const k = Math.min(GRID_POINTS - 2, Math.max(0, Math.floor(x)));
    const w = x - k;
    ve[t] = (drive[t] / 1000) * Math.exp(logVeVo2[k] * (1 - w) + logVeVo2[k + 1] * w);
  }
  return ve;
}

/**
 * A series' value at second t of exercise; past the last exercise second, extrapolated at its last
 * 30 s's rate (never flat), so a criterion placed after the test ends is never reached in it.
 */
function levelAt(series: Float64Array, t: number, plan: ProtocolPlan): number {
  const last = Math.min(series.length - 1, Math.ceil(plan.exercise_end_s) - 1);
  if (t <= last) {
    const i = Math.max(0, Math.floor(t));
    const w = t - i;
    return i + 1 <= last ? series[i] * (1 - w) + series[i + 1] * w : series[i];
  }
  const back = Math.max(0, last - 30);
  const rate = Math.max(0.01, (series[last] - series[back]) / Math.max(1, last - back));
  return series[last] + rate * (t - last);
}

/** Piecewise-linear map through (xs[i], ys[i]), extended beyond both ends along the end segments. */
function warp(v: number, xs: number[], ys: number[]): number {
  let i = 0;
  while (i < xs.length - 2 && v > xs[i + 1]) i++;
  return ys[i] + ((ys[i + 1] - ys[i]) * (v - xs[i])) / (xs[i + 1] - xs[i]);
}

/** Where each criterion landed on the noise-free signals of the exercise phase. */
export function landedCriteria(s: { ve: Float64Array; vo2: Float64Array; vco2: Float64Array; peto2: Float64Array; petco2: Float64Array }, plan: ProtocolPlan): CriteriaLanding {
  const ones = new Float64Array(s.vo2.length).fill(1);
  return {
    peto2_nadir_s: argExtreme(s.peto2, ones, plan, 'min'),
    ve_vo2_nadir_s: argExtreme(s.ve, s.vo2, plan, 'min'),
    petco2_peak_s: argExtreme(s.petco2, ones, plan, 'max'),
    ve_vco2_nadir_s: argExtreme(s.ve, s.vco2, plan, 'min'),
  };
}

/** Second of the extreme of num / den over the exercise phase; null when it is at either edge, unless `edges` keeps them. */
function argExtreme(num: Float64Array, den: Float64Array, plan: ProtocolPlan, kind: 'min' | 'max', edges = false): number | null {
  const from = Math.ceil(plan.warmup_end_s);
  const to = Math.min(num.length - 1, Math.ceil(plan.exercise_end_s) - 1);
  if (to - from < 2) return edges ? from : null;
  let best = from;
  for (let t = from + 1; t <= to; t++) {
    const r = num[t] / den[t];
    const b = num[best] / den[best];
    if (kind === 'min' ? r < b : r > b) best = t;
  }
  return !edges && (best === from || best === to) ? null : best;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
