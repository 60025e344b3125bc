/**
 * Breath-to-breath noise as measured in people, and the uneven first minute on the mouthpiece.
 *
 * Lamarra et al. (J Appl Physiol 1987) found the breath-to-breath fluctuations of gas exchange
 * Gaussian and uncorrelated, with an SD largely independent of metabolic rate. The real
 * breath-by-breath test in test/fixtures/vt (exercise_threshold_app_test.json; residuals around a
 * local linear trend, scripts/train/breath-noise.ts) says the same and more: the VO2 residual SD is
 * 130-160 mL/min from 1.5 to 5 L/min while its CV falls from 8 to 3 %; VE, VO2 and VCO2 residuals
 * move together (r 0.88 to 0.97: one volume error shared by the three); PetO2 and PetCO2 residuals
 * move against each other (r -0.92) and with breath depth (a deep breath raises PetO2, lowers
 * PetCO2), their SD shrinking as breaths deepen; the end-tidal pattern carries over to the next
 * breath (lag-1 r about 0.4; breath-to-breath ventilation is autoregressive, Liang, Pandit & Robbins,
 * J Appl Physiol 1996) and has heavy tails (kurtosis 5.6-6.6: the odd irregular breath). Humans
 * also sigh, about 12 times an hour at rest (Li et al., Nature 2016).
 */
import { atBreathingRate, breathRecord, interp, withOutlier, type Breath, type TrueSignals } from './breaths.js';
import type { ProtocolPlan } from './protocol.js';
import type { Rng } from './random.js';

/** VO2 residual SD (mL/min) of the real test, whose VO2max was 4694 mL/min. */
const REFERENCE_VO2_SD_ML_MIN = 145;
const REFERENCE_VO2PEAK_ML_MIN = 4694;
/** Subjects differ: the drawn SD spans this factor either way of the size-scaled reference. */
const SUBJECT_SPREAD = 1.25;
/** The relative volume error never exceeds this, however low VO2 reads. */
const MAX_RELATIVE_ERROR = 0.25;
/**
 * Two shared processes drive the residuals: a volume error (white) common to VE, VO2 and VCO2, and
 * a breathing-pattern process (deeper or quicker breaths) that moves VE, a little VCO2, and above
 * all the end-tidal pressures, and carries into the next breath and no further (MA(1): the real
 * end-tidal residuals' lag-1 r is 0.45-0.52, lag-2 under 0.1). Loadings [volume, pattern] (the
 * rest independent) reproduce the real correlations over the ramp: VE-VO2 0.81, VE-VCO2 0.91,
 * VO2-VCO2 0.94, PetO2-VE 0.67, PetCO2-VE -0.69, PetO2-PetCO2 -0.91.
 */
const LOADINGS = { VO2: [0.97, 0], VCO2: [0.95, 0.22], VE: [0.82, 0.5], END_TIDAL: [0.2, 0.95] } as const;
const PATTERN_MA = 1;
/** VE's relative error is this much larger than VO2's in the real test. */
const VE_GAIN = 1.2;
/**
 * End-tidal SD (mmHg) from the relative volume error, capped for the low VO2 of rest: PetO2's falls
 * faster than the volume error as work rises (2.1 to 0.6 mmHg over 1.5-5 L/min in the real test,
 * a power of 1.3), PetCO2's sits on a floor.
 */
const PETO2_SCALE_MMHG = 52;
const PETO2_POWER = 1.3;
const PETO2_MAX_MMHG = 4;
const PETCO2_FLOOR_MMHG = 0.35;
const PETCO2_PER_RELATIVE = 8;
const PETCO2_MAX_MMHG = 2.5;
/** Irregular breaths: this share of breaths carries an end-tidal excursion this many times larger. */
const IRREGULAR_RATE = 0.04;
const IRREGULAR_GAIN = 2.5;
/** Sighs per minute at rest, fading out by this share of VO2peak (the real test, all exercise, has none); a sigh's breath and its end-tidal marks. */
const SIGHS_PER_MIN_AT_REST = 0.2;
const SIGHS_FADE_BY = 0.3;
const SIGH = { ve: 1.8, vo2: 1.5, vco2: 1.6, peto2_mmhg: 6, petco2_mmhg: -3 } as const;
const HR_SD_BPM = 1.5;

/** The VO2 error SD of one test: given, or drawn around the reference scaled by the subject's size (sqrt of VO2peak). */
export function breathNoiseSd(option: 'measured' | { vo2_sd_ml_min: number }, vo2peak_ml_min: number, rng: Rng): number {
  if (option !== 'measured') return option.vo2_sd_ml_min;
  const spread = Math.exp(Math.log(SUBJECT_SPREAD) * (2 * rng.next() - 1));
  return REFERENCE_VO2_SD_ML_MIN * Math.sqrt(vo2peak_ml_min / REFERENCE_VO2PEAK_ML_MIN) * spread;
}

/**
 * Breaths at the breathing rate (timing from the generator's main stream, as always) with the
 * measured noise from `noise`, a stream of its own.
 */
export function measuredBreaths(s: TrueSignals, plan: ProtocolPlan, vo2Sd_ml_min: number, outlierRate: number, vo2peak_ml_min: number, timing: Rng, noise: Rng): Breath[] {
  let previous = 0;
  return atBreathingRate(s, plan, timing, (tEnd, duration) => {
    const vo2True = interp(s.vo2, tEnd);
    const rel = Math.min(MAX_RELATIVE_ERROR, vo2Sd_ml_min / vo2True);
    const volume = noise.normal();
    const innovation = noise.normal() * (noise.next() < IRREGULAR_RATE ? IRREGULAR_GAIN : 1);
    const pattern = (innovation + PATTERN_MA * previous) / Math.sqrt(1 + PATTERN_MA ** 2);
    previous = innovation;
    const mix = ([v, p]: readonly [number, number]): number => v * volume + p * pattern + Math.sqrt(Math.max(0, 1 - v * v - p * p)) * noise.normal();
    let vo2 = vo2True * (1 + rel * mix(LOADINGS.VO2));
    let vco2 = interp(s.vco2, tEnd) * (1 + rel * mix(LOADINGS.VCO2));
    let ve = interp(s.ve, tEnd) * (1 + VE_GAIN * rel * mix(LOADINGS.VE));
    let peto2 = interp(s.peto2, tEnd) + Math.min(PETO2_MAX_MMHG, PETO2_SCALE_MMHG * rel ** PETO2_POWER) * mix(LOADINGS.END_TIDAL);
    let petco2 = interp(s.petco2, tEnd) - Math.min(PETCO2_MAX_MMHG, PETCO2_FLOOR_MMHG + PETCO2_PER_RELATIVE * rel) * mix(LOADINGS.END_TIDAL);
    const sighRate = SIGHS_PER_MIN_AT_REST * Math.max(0, 1 - vo2True / vo2peak_ml_min / SIGHS_FADE_BY);
    if (noise.next() < (sighRate * duration) / 60) {
      ve *= SIGH.ve;
      vo2 *= SIGH.vo2;
      vco2 *= SIGH.vco2;
      peto2 += SIGH.peto2_mmhg;
      petco2 += SIGH.petco2_mmhg;
    }
    const read = withOutlier(noise, outlierRate, { ve, vo2, vco2, petco2 });
    return breathRecord(tEnd, duration, { ...read, peto2, hr: interp(s.hr, tEnd) + HR_SD_BPM * noise.normal() });
  });
}

type Settling = 'leak' | 'hyperventilation' | 'irregular';
const SETTLING_KINDS: readonly Settling[] = ['leak', 'hyperventilation', 'irregular'];

/**
 * The first `settling_s` seconds as the subject settles on the mouthpiece, fading out linearly:
 * a leak (volumes read low), hyperventilation (CO2 washed out: VE and VCO2 high, PetCO2 low, RER
 * high) or irregular breathing (extra scatter). Which, and how strong, is drawn per test.
 */
export function settle(breaths: Breath[], settling_s: number, rng: Rng): Breath[] {
  const kind = rng.pick(SETTLING_KINDS);
  const strength = rng.uniform(0.1, 0.35);
  return breaths.map((b) => {
    const scatter = rng.normal();
    if (b.t_end >= settling_s) return b;
    const w = strength * (1 - b.t_end / settling_s);
    const v = { ...b.values };
    if (kind === 'leak') {
      v.VE *= 1 - w;
      v.VO2 *= 1 - w;
      v.VCO2 *= 1 - w;
    } else if (kind === 'hyperventilation') {
      v.VE *= 1 + w;
      v.VCO2 *= 1 + 0.6 * w;
      v.VO2 *= 1 + 0.25 * w;
      v.PetCO2 -= 10 * w;
      v.PetO2 += 15 * w;
    } else {
      const f = Math.max(0.3, 1 + 1.5 * w * scatter);
      v.VE *= f;
      v.VO2 *= f;
      v.VCO2 *= f;
      v.PetCO2 -= 6 * w * scatter;
      v.PetO2 += 9 * w * scatter;
    }
    v.VT = Math.max(0.1, v.VE / v.RF);
    return { ...b, values: v };
  });
}
