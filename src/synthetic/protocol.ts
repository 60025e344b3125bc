/**
 * The protocol: rest, unloaded warm-up, ramp / steps / treadmill stages, recovery, expressed as the
 * oxygen uptake each second's work demands (steady-state VO2) and the load the cart would record.
 */
import type { ExerciseShape, Protocol } from './types.js';

/** Oxygen cost of cycling, about 10 mL/min per W above unloaded pedalling (Wasserman et al., Principles of Exercise Testing, 2012). */
export const VO2_ML_MIN_PER_WATT = 10.3;
/** ACSM running equation (ACSM 2018): VO2 (mL/kg/min) = 3.5 + 0.2 * speed (m/min) + 0.9 * speed * grade. */
const ACSM_RUN_HORIZONTAL = 0.2;
const ACSM_RUN_VERTICAL = 0.9;
const RESTING_VO2_ML_KG_MIN = 3.5;

export interface ProtocolPlan {
  protocol: Protocol;
  rest_end_s: number;
  warmup_end_s: number;
  exercise_end_s: number;
  end_s: number;
  /** Steady-state VO2 demanded at each second (index = second from 0). */
  demand_ml_min: Float64Array;
  /** Work rate per second (W) for cycle protocols; null on the treadmill. */
  load_w: Float64Array | null;
  /** Belt speed (km/h) and grade (%) per second on the treadmill; null otherwise. */
  speed_kmh: Float64Array | null;
  grade_pct: Float64Array | null;
  /** Stage starts (s) for step and treadmill protocols. */
  stage_starts_s: number[];
}

export interface PlanInput {
  protocol: Protocol;
  rest_s: number;
  warmup_s: number;
  exercise_s: number;
  recovery_s: number;
  step_s: number;
  rest_ml_min: number;
  warmup_ml_min: number;
  /** VO2 demanded at the end of exercise. */
  peak_demand_ml_min: number;
  body_mass_kg: number;
  /**
   * Where exercise stops (s from the start) when not after exercise_s: the ramp or the stages keep
   * the rate exercise_s and peak_demand_ml_min set, so stopping early or late changes nothing before.
   */
  exercise_end_s?: number;
  /** Course of the exercise phase (default incremental). */
  shape?: ExerciseShape;
}

/** Fraction of the exercise range a constant bout demands (moderate-to-heavy, as a constant-load test). */
const CONSTANT_FRACTION = 0.55;
/** Interval session: bouts at this fraction of the range, with pauses back at the warm-up level. */
const INTERVAL_FRACTION = 0.85;
const INTERVAL_BOUTS = 4;
/** Warm-up bout: the first WARMUP_BOUT_SHARE of exercise at WARMUP_BOUT_FRACTION of the range, then a pause of WARMUP_PAUSE_SHARE. */
const WARMUP_BOUT_SHARE = 0.25;
const WARMUP_BOUT_FRACTION = 0.3;
const WARMUP_PAUSE_SHARE = 0.1;

/**
 * Fraction of the exercise range demanded at fraction `f` of exercise, for each shape; `incremental`
 * maps an incremental fraction (the ramp's or the stage's) to the part of exercise it runs in.
 */
function shaped(shape: ExerciseShape, f: number, incremental: (g: number) => number): number {
  if (shape === 'constant') return CONSTANT_FRACTION;
  if (shape === 'interval') return Math.floor(f * INTERVAL_BOUTS * 2) % 2 === 0 ? INTERVAL_FRACTION : 0;
  if (shape === 'warmup_bout') {
    if (f < WARMUP_BOUT_SHARE) return WARMUP_BOUT_FRACTION;
    const from = WARMUP_BOUT_SHARE + WARMUP_PAUSE_SHARE;
    if (f < from) return 0;
    return incremental((f - from) / (1 - from));
  }
  return incremental(f);
}

/** Lays the protocol out second by second. */
export function planProtocol(input: PlanInput): ProtocolPlan {
  const restEnd = input.rest_s;
  const warmEnd = restEnd + input.warmup_s;
  const exEnd = input.exercise_end_s ?? warmEnd + input.exercise_s;
  const end = exEnd + input.recovery_s;
  const n = Math.ceil(end) + 1;
  const demand = new Float64Array(n);
  const stageStarts: number[] = [];
  const nStages = Math.max(2, Math.round(input.exercise_s / input.step_s));
  const lastStage = input.exercise_end_s === undefined ? nStages - 1 : Infinity;
  const range = input.peak_demand_ml_min - input.warmup_ml_min;
  for (let s = 0; s < n; s++) {
    if (s < restEnd) demand[s] = input.rest_ml_min;
    else if (s < warmEnd) demand[s] = input.warmup_ml_min;
    else if (s < exEnd) {
      const f = (s - warmEnd) / input.exercise_s;
      const incremental = (g: number): number => (input.protocol === 'ramp' ? g : (Math.min(lastStage, Math.floor(g * nStages)) + 1) / nStages);
      demand[s] = input.warmup_ml_min + range * shaped(input.shape ?? 'incremental', f, incremental);
    } else demand[s] = input.rest_ml_min;
  }
  if (input.protocol !== 'ramp' && (input.shape ?? 'incremental') === 'incremental') {
    for (let k = 0; warmEnd + (k * input.exercise_s) / nStages < exEnd && k <= lastStage; k++) stageStarts.push(warmEnd + (k * input.exercise_s) / nStages);
  }

  let load: Float64Array | null = null;
  let speed: Float64Array | null = null;
  let grade: Float64Array | null = null;
  if (input.protocol === 'treadmill') {
    speed = new Float64Array(n);
    grade = new Float64Array(n).fill(1);
    for (let s = 0; s < n; s++) {
      if (s < restEnd || s >= exEnd) continue;
      const perKg = demand[s] / input.body_mass_kg;
      const mPerMin = Math.max(0, (perKg - RESTING_VO2_ML_KG_MIN) / (ACSM_RUN_HORIZONTAL + ACSM_RUN_VERTICAL * 0.01));
      speed[s] = Math.round(mPerMin * 0.06 * 10) / 10;
    }
  } else {
    load = new Float64Array(n);
    for (let s = 0; s < n; s++) {
      if (s < warmEnd || s >= exEnd) continue;
      load[s] = Math.round(Math.max(0, (demand[s] - input.warmup_ml_min) / VO2_ML_MIN_PER_WATT));
    }
  }
  return {
    protocol: input.protocol,
    rest_end_s: restEnd,
    warmup_end_s: warmEnd,
    exercise_end_s: exEnd,
    end_s: end,
    demand_ml_min: demand,
    load_w: load,
    speed_kmh: speed,
    grade_pct: grade,
    stage_starts_s: stageStarts,
  };
}

/** First-order kinetics of a response following its demand, one step per second (tau in s). */
export function firstOrderKinetics(demand: Float64Array, tau_s: number, initial: number): Float64Array {
  const out = new Float64Array(demand.length);
  const k = 1 - Math.exp(-1 / tau_s);
  let v = initial;
  for (let s = 0; s < demand.length; s++) {
    v += (demand[s] - v) * k;
    out[s] = v;
  }
  return out;
}
