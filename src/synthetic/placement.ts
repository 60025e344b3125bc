/**
 * Places a test's timeline from times rather than fractions: the VT1 and VT2 crossings at given
 * seconds, exercise stopped a given time after VT2, and exhaustion with or without a VO2 plateau.
 * The thresholds stay what the generator always meant by them (the seconds VO2 crosses the
 * subject's VT1 and VT2 levels); only the levels, the ramp's end demand and where exercise stops
 * are solved, so the truth is exact by construction.
 */
import type { SubjectPhysiology } from './physiology.js';
import { planProtocol, type PlanInput, type ProtocolPlan } from './protocol.js';
import type { RealismOptions } from './types.js';
import { firstCrossing, oxygenUptake } from './uptake.js';

export interface PlacedTimeline {
  plan: ProtocolPlan;
  physiology: SubjectPhysiology;
}

/** Rounds of the fixed-point between the plateau, the VT1 level and the end of exercise (they couple weakly). */
const ROUNDS = 8;
const BISECTIONS = 60;
/** How far past the planned end the ramp may run on to reach VT2 when exercise stops after it. */
const SEARCH_BEYOND_S = 1200;

/** Solves the levels, the end demand and the end of exercise the realism options ask for. */
export function placeTimeline(input: PlanInput, p: SubjectPhysiology, tau_s: number, initialVo2: (plan: ProtocolPlan) => number, r: RealismOptions): PlacedTimeline {
  const physiology = { ...p };
  let peakDemand = input.peak_demand_ml_min;
  let end = input.exercise_end_s ?? input.rest_s + input.warmup_s + input.exercise_s;
  if (r.vt2_at_s !== undefined && r.end_after_vt2_s !== undefined) end = r.vt2_at_s + r.end_after_vt2_s;
  const plan = (demand: number, exerciseEnd: number): ProtocolPlan => planProtocol({ ...input, peak_demand_ml_min: demand, exercise_end_s: exerciseEnd });
  const uptake = (pl: ProtocolPlan, vt1: number): Float64Array => oxygenUptake(pl, { ...physiology, vt1_ml_min: vt1 }, tau_s, initialVo2(pl));

  for (let round = 0; round < ROUNDS; round++) {
    if (r.plateau_s !== undefined) peakDemand = solvePeakDemand(end, r.plateau_s, physiology, (d) => uptake(plan(d, end), physiology.vt1_ml_min));
    if (r.vt1_at_s !== undefined) {
      const at = r.vt1_at_s;
      const pl = plan(peakDemand, end);
      physiology.vt1_ml_min = solveLevel(at, pl, (level) => uptake(pl, level), physiology.rest_ml_min, physiology.vo2peak_ml_min);
    }
    if (r.vt2_at_s !== undefined) physiology.vt2_ml_min = uptake(plan(peakDemand, end), physiology.vt1_ml_min)[r.vt2_at_s];
    if (r.end_after_vt2_s !== undefined && r.vt2_at_s === undefined) {
      const long = plan(peakDemand, end + SEARCH_BEYOND_S);
      const t2 = firstCrossing(uptake(long, physiology.vt1_ml_min), physiology.vt2_ml_min, long);
      if (t2 === null) throw new Error('end_after_vt2_s: this test never reaches VT2');
      end = t2 + r.end_after_vt2_s;
    }
  }
  const placed = plan(peakDemand, end);
  checkPlacement(placed, physiology, uptake(placed, physiology.vt1_ml_min), r);
  return { plan: placed, physiology };
}

/**
 * The ramp's end demand at which VO2 first meets its ceiling `plateau_s` seconds before the last
 * second of exercise (0: in that last second, a peak without a plateau).
 */
function solvePeakDemand(end_s: number, plateau_s: number, p: SubjectPhysiology, uptakeFor: (demand: number) => Float64Array): number {
  const lastExercise = Math.ceil(end_s) - 1;
  const target = lastExercise - plateau_s;
  const capAt = (demand: number): number => {
    const vo2 = uptakeFor(demand);
    for (let t = 0; t <= lastExercise && t < vo2.length; t++) if (vo2[t] >= p.vo2peak_ml_min) return t;
    return Infinity;
  };
  let lo = p.rest_ml_min;
  let hi = p.vo2peak_ml_min * 4;
  for (let i = 0; i < BISECTIONS; i++) {
    const mid = (lo + hi) / 2;
    if (capAt(mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The VO2 level whose first crossing is second `at` (the crossing moves later as the level rises). */
function solveLevel(at: number, plan: ProtocolPlan, uptakeFor: (level: number) => Float64Array, lo0: number, hi0: number): number {
  let lo = lo0;
  let hi = hi0;
  for (let i = 0; i < BISECTIONS; i++) {
    const mid = (lo + hi) / 2;
    const t = firstCrossing(uptakeFor(mid), mid, plan);
    if (t !== null && t < at) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Refuses a placement the protocol cannot give (a threshold before exercise, or in the plateau). */
function checkPlacement(plan: ProtocolPlan, p: SubjectPhysiology, vo2: Float64Array, r: RealismOptions): void {
  const want: [string, number | undefined, number][] = [
    ['vt1_at_s', r.vt1_at_s, p.vt1_ml_min],
    ['vt2_at_s', r.vt2_at_s, p.vt2_ml_min],
  ];
  for (const [name, at, level] of want) {
    if (at === undefined) continue;
    const landed = firstCrossing(vo2, level, plan);
    if (landed !== at) throw new Error(`${name} ${at}: the protocol cannot cross there (lands at ${landed}); check the phase lengths and the plateau`);
  }
  if (p.vt2_ml_min <= p.vt1_ml_min) throw new Error('realism: VT2 must come after VT1');
}
