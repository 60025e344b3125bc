/**
 * The synthetic CPET generator (design section 9): draws a subject and a protocol from a seed,
 * runs oxygen uptake through first-order kinetics, derives the other channels from the subject's
 * physiology, and writes breaths (irregular, noisy, with outliers and gaps) or cart-style averages.
 * The ground truth travels with each test. The same options give the same recording, bit for bit.
 * Opt-in realism (options.realism: criteria spread around the thresholds, measured breath noise,
 * uneven starts, tests placed and cut by time) draws from streams of its own, so without it every
 * byte is what the generator always wrote.
 */
import { buildRecording } from '../recording/build.js';
import { CHANNEL_UNITS, type ChannelData, type ChannelName, type PhaseName } from '../recording/recording.js';
import { breathNoiseSd, measuredBreaths, settle } from './breath-noise.js';
import { makeBreaths, writeSamples, type Breath, type TrueSignals } from './breaths.js';
import { drawCriteriaOffsets, landedCriteria, ventilatoryCurves } from './criteria.js';
import { breathingFrequency, endTidal, fatOxidationGMin, heartRate, predictedHrMax, rerExponentForFatmax, steadyVco2, ventilation, type SubjectPhysiology } from './physiology.js';
import { placeTimeline } from './placement.js';
import { planProtocol, type PlanInput, type ProtocolPlan } from './protocol.js';
import { createRng, createStreamRng, type Rng } from './random.js';
import type { CriteriaLanding, GeneratedTest, GeneratorOptions, GroundTruth, Protocol, RealismOptions } from './types.js';
import { carbonDioxideOutput, firstCrossing, oxygenUptake, TAU_VO2_S } from './uptake.js';

const PEAK_WINDOW_S = 30;
/** Streams of the realism draws, apart from the main stream so that a seed's subject and protocol stay put. */
const STREAM = { criteria: 1, noise: 2, settling: 3 } as const;

/** Generates one test. Unset options are drawn from the seed. */
export function generateTest(options: GeneratorOptions): GeneratedTest {
  const rng = createRng(options.seed);
  const o = resolveOptions(options, rng);
  const realism = options.realism ?? null;
  const drawn = drawPhysiology(o, rng);
  const planInput: PlanInput = {
    protocol: o.protocol,
    rest_s: o.rest_s,
    warmup_s: o.warmup_s,
    exercise_s: o.exercise_s,
    recovery_s: o.recovery_s,
    step_s: o.step_s,
    rest_ml_min: drawn.rest_ml_min,
    warmup_ml_min: warmupLevel(drawn),
    peak_demand_ml_min: peakDemand(o, drawn, rng),
    body_mass_kg: o.body_mass_kg,
    shape: options.shape,
  };
  const tau = rng.uniform(TAU_VO2_S[0], TAU_VO2_S[1]);
  const initialVo2 = (plan: ProtocolPlan): number => (realism?.unrecorded_warmup ? plan.demand_ml_min[0] : drawn.rest_ml_min);
  const { plan, physiology } = realism && placesTimeline(realism) ? placeTimeline(planInput, drawn, tau, initialVo2, realism) : { plan: planProtocol(planInput), physiology: drawn };
  const { signals, criteria } = trueSignals(plan, physiology, o, tau, initialVo2(plan), realism);
  const truth = groundTruth(plan, physiology, signals, o, criteria, realism?.criteria !== undefined, realism?.reading_delay_s ?? { vt1: 0, vt2: 0 });

  const raw = realism?.breath_noise === undefined ? makeBreaths(signals, plan, o, rng) : realisticBreaths(signals, plan, o, physiology, realism.breath_noise, rng);
  const breaths = realism?.settling_s ? settle(raw, realism.settling_s, createStreamRng(o.seed, STREAM.settling)) : raw;
  const written = writeSamples(breaths, plan, o, rng);
  const channels: Partial<Record<ChannelName, ChannelData>> = {};
  for (const [name, values] of Object.entries(written.channels) as [ChannelName, (number | null)[]][]) {
    channels[name] = { values, unit_in: CHANNEL_UNITS[name] };
  }
  const phaseStarts: { phase: PhaseName; t_s: number }[] = [];
  if (plan.rest_end_s > 0) phaseStarts.push({ phase: 'rest', t_s: 0 });
  if (plan.warmup_end_s > plan.rest_end_s) phaseStarts.push({ phase: 'warmup', t_s: plan.rest_end_s });
  phaseStarts.push({ phase: 'exercise', t_s: plan.warmup_end_s });
  if (plan.end_s > plan.exercise_end_s) phaseStarts.push({ phase: 'recovery', t_s: plan.exercise_end_s });

  const recording = buildRecording({
    format: 'canonical-json',
    time_s: written.time_s,
    channels,
    phase_starts: phaseStarts,
    sampling_hint: written.sampling_hint,
    subject: { body_mass_kg: o.body_mass_kg, age_years: o.age_years, sex: o.sex },
  });
  return { options: o, recording, truth };
}

type Resolved = GeneratedTest['options'] &
  Required<
    Pick<
      GeneratorOptions,
      | 'rest_s'
      | 'warmup_s'
      | 'exercise_s'
      | 'recovery_s'
      | 'step_s'
      | 'vo2peak_ml_min'
      | 'body_mass_kg'
      | 'age_years'
      | 'sex'
      | 'vt1_fraction'
      | 'vt2_fraction'
      | 'vt1_present'
      | 'vt2_present'
      | 'sampling'
      | 'noise_cv'
      | 'outlier_rate'
      | 'gaps'
      | 'hr'
      | 'load'
      | 'fatmax_fraction'
    >
  >;

function resolveOptions(options: GeneratorOptions, rng: Rng): Resolved {
  const protocol: Protocol = options.protocol ?? 'ramp';
  const sex = options.sex ?? rng.pick(['male', 'female'] as const);
  return {
    ...options,
    seed: options.seed,
    protocol,
    rest_s: options.rest_s ?? 120,
    warmup_s: options.warmup_s ?? 120,
    exercise_s: options.exercise_s ?? 600,
    recovery_s: options.recovery_s ?? 120,
    step_s: options.step_s ?? (protocol === 'treadmill' ? 120 : 180),
    vo2peak_ml_min: options.vo2peak_ml_min ?? Math.round(rng.uniform(1500, 5500)),
    body_mass_kg: options.body_mass_kg ?? Math.round(rng.uniform(50, 100) * 10) / 10,
    age_years: options.age_years ?? rng.int(20, 70),
    sex,
    vt1_fraction: options.vt1_fraction ?? rng.uniform(0.42, 0.6),
    vt2_fraction: options.vt2_fraction ?? rng.uniform(0.75, 0.9),
    vt1_present: options.vt1_present ?? true,
    vt2_present: options.vt2_present ?? true,
    sampling: options.sampling ?? { kind: 'breath' },
    noise_cv: options.noise_cv ?? 0.06,
    outlier_rate: options.outlier_rate ?? 0.005,
    gaps: options.gaps ?? 0,
    oscillation: options.oscillation ?? null,
    hr: options.hr ?? true,
    load: options.load ?? protocol !== 'treadmill',
    fatmax_fraction: options.fatmax_fraction ?? rng.uniform(0.4, 0.62),
  };
}

function drawPhysiology(o: Resolved, rng: Rng): SubjectPhysiology {
  const rest = 3.5 * o.body_mass_kg * rng.uniform(0.9, 1.15);
  const peak = Math.max(o.vo2peak_ml_min, rest * 3);
  const warm = rest + 0.12 * (peak - rest);
  const vt1 = warm + o.vt1_fraction * (peak - warm);
  const vt2 = warm + Math.max(o.vt2_fraction, o.vt1_fraction + 0.1) * (peak - warm);
  const rer0 = rng.uniform(0.78, 0.84);
  const rerXc = rng.uniform(0.85, 0.95);
  return {
    vo2peak_ml_min: peak,
    rest_ml_min: rest,
    vt1_ml_min: vt1,
    vt2_ml_min: vt2,
    rer0,
    rer_xc: rerXc,
    rer_k: rerExponentForFatmax(o.fatmax_fraction, rer0, rerXc),
    buffer_gain: rng.uniform(0.28, 0.42),
    hyperventilation_gain: rng.uniform(0.15, 0.3),
    ve_vco2_slope: rng.uniform(22, 34),
    ve_intercept_l_min: rng.uniform(2, 4.5),
    rc_gain: rng.uniform(12, 22),
    petco2_rest_mmhg: rng.uniform(34, 40),
    peto2_rest_mmhg: rng.uniform(100, 108),
    hr_rest: rng.uniform(58, 82),
    hr_max: predictedHrMax(o.age_years) + rng.uniform(-8, 6),
    rf_rest: rng.uniform(11, 16),
    rf_max: rng.uniform(38, 56),
  };
}

function warmupLevel(p: SubjectPhysiology): number {
  return p.rest_ml_min + 0.12 * (p.vo2peak_ml_min - p.rest_ml_min);
}

/** The VO2 the last second of exercise demands: short of VT1 or VT2 when the options say the test never gets there. */
function peakDemand(o: Resolved, p: SubjectPhysiology, rng: Rng): number {
  const warm = warmupLevel(p);
  if (!o.vt1_present) return warm + 0.8 * (p.vt1_ml_min - warm);
  if (!o.vt2_present) return p.vt1_ml_min + 0.6 * (p.vt2_ml_min - p.vt1_ml_min);
  // Half the tests demand a little more than VO2peak at the end: a plateau.
  return p.vo2peak_ml_min * (rng.next() < 0.5 ? 1.06 : 1);
}

/** Whether the realism options move the thresholds, the end of exercise or the plateau (placement.ts). */
function placesTimeline(r: RealismOptions): boolean {
  return r.vt1_at_s !== undefined || r.vt2_at_s !== undefined || r.end_after_vt2_s !== undefined || r.plateau_s !== undefined;
}

function trueSignals(plan: ProtocolPlan, p: SubjectPhysiology, o: Resolved, tau: number, initialVo2: number, realism: RealismOptions | null): { signals: TrueSignals; criteria: CriteriaLanding } {
  const vo2 = oxygenUptake(plan, p, tau, initialVo2);
  const vco2 = carbonDioxideOutput(vo2, p);
  const n = vo2.length;
  const vco2AtVt2 = steadyVco2(p, p.vt2_ml_min);
  let ve: Float64Array;
  let petco2: Float64Array = new Float64Array(n);
  let peto2: Float64Array = new Float64Array(n);
  let veRest: number;
  let vePeak: number;
  if (realism?.criteria !== undefined) {
    const t1 = o.vt1_present ? firstCrossing(vo2, p.vt1_ml_min, plan) : null;
    const t2 = o.vt1_present && o.vt2_present ? firstCrossing(vo2, p.vt2_ml_min, plan) : null;
    const offsets = realism.criteria === 'drawn' ? drawCriteriaOffsets(createStreamRng(o.seed, STREAM.criteria), t1, t2, plan.warmup_end_s) : realism.criteria;
    ({ ve, petco2, peto2 } = ventilatoryCurves(p, vo2, vco2, plan, t1, t2, offsets));
    veRest = Math.min(...ve);
    vePeak = Math.max(...ve);
  } else {
    ve = vco2.map((c) => ventilation(p, c, vco2AtVt2));
    veRest = ventilation(p, steadyVco2(p, p.rest_ml_min), vco2AtVt2);
    vePeak = ventilation(p, steadyVco2(p, p.vo2peak_ml_min), vco2AtVt2);
    for (let s = 0; s < n; s++) {
      const et = endTidal(p, vo2[s]);
      petco2[s] = et.petco2;
      peto2[s] = et.peto2;
    }
  }
  const hr = new Float64Array(n);
  const rf = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    hr[s] = heartRate(p, vo2[s]);
    rf[s] = breathingFrequency(p, ve[s], veRest, vePeak);
  }
  const signals: TrueSignals = { vo2, vco2, ve, petco2, peto2, hr, rf, ve_steady: Float64Array.from(ve) };
  // Where the criteria landed is read before any oscillation rides on the signals.
  const criteria = landedCriteria(signals, plan);
  if (o.oscillation) addOscillation(signals, plan, o.oscillation);
  return { signals, criteria };
}

/** Breaths with the measured noise model, timed by the main stream and perturbed from a stream of its own. */
function realisticBreaths(s: TrueSignals, plan: ProtocolPlan, o: Resolved, p: SubjectPhysiology, option: NonNullable<RealismOptions['breath_noise']>, rng: Rng): Breath[] {
  const noise = createStreamRng(o.seed, STREAM.noise);
  const sd = breathNoiseSd(option, p.vo2peak_ml_min, noise);
  return measuredBreaths(s, plan, sd, o.outlier_rate, p.vo2peak_ml_min, rng, noise);
}

/** Periodic breathing: VE (through tidal volume) swings; PetCO2 swings at the given phase (antiphase by default). */
function addOscillation(s: TrueSignals, plan: ProtocolPlan, osc: NonNullable<GeneratorOptions['oscillation']>): void {
  const from = osc.span === 'whole' ? 0 : plan.warmup_end_s;
  const to = osc.span === 'whole' ? plan.end_s : plan.exercise_end_s;
  const phase = ((osc.petco2_phase_deg ?? 180) * Math.PI) / 180;
  const half = osc.amplitude_fraction / 2;
  for (let t = Math.ceil(from); t <= Math.floor(to) && t < s.ve.length; t++) {
    const w = Math.sin((2 * Math.PI * (t - from)) / osc.period_s);
    s.ve[t] *= 1 + half * w;
    s.vco2[t] *= 1 + 0.3 * half * w;
    s.vo2[t] *= 1 + 0.15 * half * w;
    s.petco2[t] += half * 8 * Math.sin((2 * Math.PI * (t - from)) / osc.period_s + phase);
  }
}

function groundTruth(plan: ProtocolPlan, p: SubjectPhysiology, s: TrueSignals, o: Resolved, criteria: CriteriaLanding, veDesigned: boolean, delay: { vt1: number; vt2: number }): GroundTruth {
  const n = s.vo2.length;
  // What an expert reads: the metabolic crossing plus the reading delay, if exercise lasts that long.
  const read = (crossing: number | null, delay_s: number): number | null => {
    if (crossing === null) return null;
    const t = crossing + Math.round(delay_s);
    return t < Math.min(n, plan.exercise_end_s) ? t : null;
  };
  const t1 = o.vt1_present ? read(firstCrossing(s.vo2, p.vt1_ml_min, plan), delay.vt1) : null;
  const t2 = t1 !== null && o.vt2_present ? read(firstCrossing(s.vo2, p.vt2_ml_min, plan), delay.vt2) : null;
  const domain = new Int8Array(n);
  for (let t = 0; t < n; t++) {
    const at = Math.min(t, Math.floor(plan.exercise_end_s));
    domain[t] = t2 !== null && at >= t2 ? 2 : t1 !== null && at >= t1 ? 1 : 0;
  }
  let peak30 = 0;
  let sum = 0;
  for (let t = 0; t < n; t++) {
    sum += s.vo2[t];
    if (t >= PEAK_WINDOW_S) sum -= s.vo2[t - PEAK_WINDOW_S];
    if (t >= PEAK_WINDOW_S - 1) peak30 = Math.max(peak30, sum / PEAK_WINDOW_S);
  }
  const peakReached = Math.max(...s.vo2);
  let oscillation: GroundTruth['oscillation'] = null;
  if (o.oscillation) {
    const from = o.oscillation.span === 'whole' ? 0 : Math.ceil(plan.warmup_end_s);
    const to = o.oscillation.span === 'whole' ? n - 1 : Math.floor(plan.exercise_end_s);
    let veSum = 0;
    for (let t = from; t <= to; t++) veSum += s.ve_steady[t];
    oscillation = { period_s: o.oscillation.period_s, amplitude_l_min: round(o.oscillation.amplitude_fraction * (veSum / (to - from + 1)), 2) };
  }
  return {
    vt1: t1 === null ? null : { time_s: t1, vo2_ml_min: round(s.vo2[t1], 1) },
    vt2: t2 === null ? null : { time_s: t2, vo2_ml_min: round(s.vo2[t2], 1) },
    vo2peak_ml_min: round(peakReached, 1),
    vo2peak_30s_ml_min: round(peak30, 1),
    phases: { rest_end_s: plan.rest_end_s, warmup_end_s: plan.warmup_end_s, exercise_end_s: plan.exercise_end_s, end_s: plan.end_s },
    ve_vco2_slope: round(veDesigned ? fittedVeVco2Slope(s, plan, t2) : p.ve_vco2_slope, 4),
    oscillation,
    fatmax: o.protocol === 'ramp' ? null : placedFatmax(p, plan, peakReached),
    protocol: o.protocol,
    domain_1hz: domain,
    criteria,
  };
}

/**
 * With designed ventilation VE is no longer a straight line on VCO2, so the placed slope is what a
 * reader would fit: least squares of the noise-free VE (L/min) on VCO2 (L/min) over exercise up to VT2.
 */
function fittedVeVco2Slope(s: TrueSignals, plan: ProtocolPlan, t2: number | null): number {
  const from = Math.ceil(plan.warmup_end_s);
  const to = t2 ?? Math.min(s.vo2.length, Math.ceil(plan.exercise_end_s)) - 1;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  let k = 0;
  for (let t = from; t <= to; t++) {
    const x = s.vco2[t] / 1000;
    const y = s.ve_steady[t];
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    k++;
  }
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/** Noise-free steady-state fat oxidation over the intensities the protocol spans; its peak is the placed FATMAX. */
function placedFatmax(p: SubjectPhysiology, plan: ProtocolPlan, peakReached: number): GroundTruth['fatmax'] {
  const lo = warmupLevel(p);
  const hi = Math.min(peakReached, Math.max(...plan.demand_ml_min));
  let best = { vo2: lo, fat: -Infinity };
  for (let i = 0; i <= 1000; i++) {
    const vo2 = lo + ((hi - lo) * i) / 1000;
    const fat = fatOxidationGMin(vo2 / 1000, steadyVco2(p, vo2) / 1000);
    if (fat > best.fat) best = { vo2, fat };
  }
  return { fraction_vo2peak: round(best.vo2 / peakReached, 4), fat_g_min: round(best.fat, 4) };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
