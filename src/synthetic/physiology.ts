/**
 * Steady-state gas exchange of one synthetic subject as a function of oxygen uptake, shaped after
 * the textbook CPET picture (Wasserman et al., Principles of Exercise Testing, 2012; Beaver,
 * Wasserman & Whipp 1986): RER rises from ~0.8; above VT1 bicarbonate buffering adds CO2 (the
 * V-slope steepens); VE tracks VCO2 until VT2 and rises faster above it; PetO2 has its nadir near
 * VT1, PetCO2 peaks between VT1 and VT2 and falls above VT2.
 */

export interface SubjectPhysiology {
  vo2peak_ml_min: number;
  rest_ml_min: number;
  /** VO2 levels (mL/min) where VT1 and VT2 sit. */
  vt1_ml_min: number;
  vt2_ml_min: number;
  /** Metabolic RER curve R(x) = r0 + (1 - r0) (x / xc)^k, x = VO2 / VO2peak, capped at 1. */
  rer0: number;
  rer_xc: number;
  rer_k: number;
  /** Extra VCO2 per mL of VO2 above VT1 from buffering, and above VT2 from hyperventilation. */
  buffer_gain: number;
  hyperventilation_gain: number;
  /** VE (L/min) = slope * VCO2 (L/min) + intercept below VT2. */
  ve_vco2_slope: number;
  ve_intercept_l_min: number;
  /** Extra VE per L/min of VCO2 above VT2 (respiratory compensation). */
  rc_gain: number;
  petco2_rest_mmhg: number;
  peto2_rest_mmhg: number;
  hr_rest: number;
  hr_max: number;
  rf_rest: number;
  rf_max: number;
}

/** Substrate equations, gases in L/min (Frayn 1983; Jeukendrup & Wallis 2005), used for the placed FATMAX. */
export function fatOxidationGMin(vo2_l_min: number, vco2_l_min: number): number {
  return 1.695 * vo2_l_min - 1.701 * vco2_l_min;
}

/** Metabolic RER at a relative intensity x (fraction of VO2peak). */
export function metabolicRer(p: SubjectPhysiology, x: number): number {
  const r = p.rer0 + (1 - p.rer0) * (Math.max(0, x) / p.rer_xc) ** p.rer_k;
  return Math.min(1, r);
}

/** Steady-state VCO2 (mL/min) at a VO2 (mL/min). */
export function steadyVco2(p: SubjectPhysiology, vo2: number): number {
  const x = vo2 / p.vo2peak_ml_min;
  return metabolicRer(p, x) * vo2 + p.buffer_gain * Math.max(0, vo2 - p.vt1_ml_min) + p.hyperventilation_gain * Math.max(0, vo2 - p.vt2_ml_min);
}

/** VE (L/min) from VCO2 (mL/min); `vco2AtVt2` is the VCO2 at VT2, where compensation starts. */
export function ventilation(p: SubjectPhysiology, vco2: number, vco2AtVt2: number): number {
  const l = vco2 / 1000;
  return p.ve_vco2_slope * l + p.ve_intercept_l_min + p.rc_gain * Math.max(0, l - vco2AtVt2 / 1000);
}

/** End-tidal pressures (mmHg) at a VO2 level. */
export function endTidal(p: SubjectPhysiology, vo2: number): { petco2: number; peto2: number } {
  const toVt1 = clamp01((vo2 - p.rest_ml_min) / (p.vt1_ml_min - p.rest_ml_min));
  const vt1ToVt2 = clamp01((vo2 - p.vt1_ml_min) / (p.vt2_ml_min - p.vt1_ml_min));
  const aboveVt2 = Math.max(0, (vo2 - p.vt2_ml_min) / (p.vo2peak_ml_min - p.vt2_ml_min));
  const petco2 = p.petco2_rest_mmhg + 4.5 * toVt1 + 1.5 * vt1ToVt2 - 9 * aboveVt2;
  const peto2 = p.peto2_rest_mmhg - 7 * toVt1 + 5 * vt1ToVt2 + 11 * aboveVt2;
  return { petco2, peto2 };
}

/** Heart rate rises linearly with VO2 towards the age-predicted maximum. */
export function heartRate(p: SubjectPhysiology, vo2: number): number {
  return p.hr_rest + (p.hr_max - p.hr_rest) * clamp01((vo2 - p.rest_ml_min) / (p.vo2peak_ml_min - p.rest_ml_min));
}

/** Breathing frequency from VE: rate rises late and steeply as tidal volume saturates. */
export function breathingFrequency(p: SubjectPhysiology, ve: number, veRest: number, vePeak: number): number {
  const u = clamp01((ve - veRest) / Math.max(1e-6, vePeak - veRest));
  return p.rf_rest + (p.rf_max - p.rf_rest) * u ** 1.6;
}

/** Age-predicted maximal heart rate (Tanaka, Monahan & Seals 2001). */
export function predictedHrMax(age_years: number): number {
  return 208 - 0.7 * age_years;
}

/**
 * Solves the RER curve exponent k so that fat oxidation, x (1.695 - 1.701 R(x)), peaks at x = target;
 * from d/dx = 0: (x / xc)^k = a / (b (k + 1)), with a = 1.695 - 1.701 r0 and b = 1.701 (1 - r0).
 */
export function rerExponentForFatmax(target: number, r0: number, xc: number): number {
  const a = 1.695 - 1.701 * r0;
  const b = 1.701 * (1 - r0);
  const peakAt = (k: number): number => xc * (a / (b * (k + 1))) ** (1 / k);
  let lo = 0.3;
  let hi = 8;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (peakAt(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : Math.min(x, 1);
}
