/**
 * Oxygen uptake and CO2 output second by second from the protocol's demand: first-order kinetics, a
 * slow component above VT1, the subject's VO2peak as a ceiling, and VCO2 lagging through the body's
 * CO2 stores. The generator and the realism placement (placement.ts) run the same arithmetic.
 */
import { steadyVco2, type SubjectPhysiology } from './physiology.js';
import { firstOrderKinetics, type ProtocolPlan } from './protocol.js';

/** VO2 on-kinetics time constant range (s) of healthy adults (Whipp & Wasserman 1972; Poole & Jones 2012). */
export const TAU_VO2_S: readonly [number, number] = [30, 55];
/** CO2 stores make VCO2 (and so VE) lag VO2 by some 10-20 s more. */
const TAU_CO2_EXTRA_S = 15;
/** Slow component: about 10 % extra VO2 above VT1, developing over minutes (Poole & Jones 2012). */
const SLOW_COMPONENT_GAIN = 0.1;
const SLOW_COMPONENT_TAU_S = 150;

/** VO2 (mL/min) each second; `initial_ml_min` is the uptake at t = 0 (rest, or a load already held). */
export function oxygenUptake(plan: ProtocolPlan, p: SubjectPhysiology, tau_s: number, initial_ml_min: number): Float64Array {
  const primary = firstOrderKinetics(plan.demand_ml_min, tau_s, initial_ml_min);
  const slowDemand = plan.demand_ml_min.map((d) => SLOW_COMPONENT_GAIN * Math.max(0, d - p.vt1_ml_min));
  const slow = firstOrderKinetics(slowDemand, SLOW_COMPONENT_TAU_S, 0);
  const n = plan.demand_ml_min.length;
  const vo2 = new Float64Array(n);
  for (let s = 0; s < n; s++) vo2[s] = Math.min(p.vo2peak_ml_min, primary[s] + slow[s]);
  return vo2;
}

/** VCO2 (mL/min) each second, following the steady-state VCO2 of each second's VO2 through the CO2 stores. */
export function carbonDioxideOutput(vo2: Float64Array, p: SubjectPhysiology): Float64Array {
  const vco2Demand = vo2.map((v) => steadyVco2(p, v));
  return firstOrderKinetics(vco2Demand, TAU_CO2_EXTRA_S, vco2Demand[0]);
}

/** The VO2 level ventilation answers to: VO2 through the same CO2-store lag as VCO2 (ventilation tracks CO2 output). */
export function ventilatoryDrive(vo2: Float64Array): Float64Array {
  return firstOrderKinetics(vo2, TAU_CO2_EXTRA_S, vo2[0]);
}

/** First second of exercise at which VO2 reaches `level` (the threshold truth), or null. */
export function firstCrossing(vo2: Float64Array, level: number, plan: ProtocolPlan): number | null {
  for (let t = Math.ceil(plan.warmup_end_s); t < Math.min(vo2.length, plan.exercise_end_s); t++) if (vo2[t] >= level) return t;
  return null;
}
