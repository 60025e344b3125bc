/**
 * Writes the true per-second signals out as a cart would: breaths arriving at the breathing rate,
 * with breath-to-breath noise (a common volume error shared by VE, VO2 and VCO2 plus independent
 * parts), the odd cough or swallow outlier, dropped stretches, and optionally cart averages of them
 * (fixed windows here, rolling and interpolated exports in exports.ts).
 */
import type { ChannelName, SamplingMethod } from '../recording/recording.js';
import { BREATH_CHANNELS, fixedWindows, interpolated1Hz, rollingBreaths, rollingTime, type Row } from './exports.js';
import type { ProtocolPlan } from './protocol.js';
import type { Rng } from './random.js';
import type { GeneratorOptions, SamplingOption } from './types.js';

/** Noise-free signals, one value per second from t = 0. */
export interface TrueSignals {
  vo2: Float64Array;
  vco2: Float64Array;
  ve: Float64Array;
  petco2: Float64Array;
  peto2: Float64Array;
  hr: Float64Array;
  rf: Float64Array;
  /** VE before any oscillation was added: the reference for the placed oscillation amplitude. */
  ve_steady: Float64Array;
}

export interface Breath {
  t_end: number;
  duration: number;
  values: Record<'VO2' | 'VCO2' | 'VE' | 'RF' | 'VT' | 'PetO2' | 'PetCO2' | 'HR', number>;
}

export interface WrittenSamples {
  time_s: number[];
  channels: Partial<Record<ChannelName, (number | null)[]>>;
  sampling_hint: { method: SamplingMethod; averaging_s: number | null };
}

const OUTLIER_FACTORS = [0.3, 0.45, 1.9, 2.4] as const;
const DIGITS: Partial<Record<ChannelName, number>> = { VO2: 1, VCO2: 1, VE: 2, RF: 1, VT: 3, PetO2: 1, PetCO2: 1, HR: 0, Load: 0, Speed: 1, Grade: 1 };

interface WriteOptions {
  sampling: SamplingOption;
  noise_cv: number;
  outlier_rate: number;
  gaps: number;
  hr: boolean;
  load: boolean;
}

/** Breaths (or cart averages of them) with the protocol's load, speed and grade at each sample. */
export function writeSamples(raw: Breath[], plan: ProtocolPlan, o: WriteOptions & GeneratorOptions, rng: Rng): WrittenSamples {
  const breaths = dropGaps(raw, plan, o.gaps, rng);
  const rows = sampleRows(breaths, o.sampling, plan.end_s);

  const channels: Partial<Record<ChannelName, (number | null)[]>> = {};
  for (const name of BREATH_CHANNELS) {
    if (name === 'HR' && !o.hr) continue;
    channels[name] = rows.map((r) => round(r.values[name], DIGITS[name] ?? 2));
  }
  const at = (series: Float64Array, t: number): number => series[Math.min(series.length - 1, Math.max(0, Math.floor(t)))];
  if (plan.load_w && o.load) channels.Load = rows.map((r) => round(at(plan.load_w as Float64Array, r.t), 0));
  if (plan.speed_kmh && plan.grade_pct) {
    channels.Speed = rows.map((r) => round(at(plan.speed_kmh as Float64Array, r.t), 1));
    channels.Grade = rows.map((r) => round(at(plan.grade_pct as Float64Array, r.t), 1));
  }
  return {
    time_s: rows.map((r) => round(r.t, 2)),
    channels,
    sampling_hint: samplingHint(o.sampling),
  };
}

function sampleRows(breaths: Breath[], sampling: SamplingOption, end_s: number): Row[] {
  switch (sampling.kind) {
    case 'breath':
      return breaths.map((b) => ({ t: b.t_end, values: b.values }));
    case 'interval':
      return fixedWindows(breaths, sampling.interval_s, end_s);
    case 'averaged':
      return fixedWindows(breaths, sampling.window_s, end_s);
    case 'rolling_breaths':
      return rollingBreaths(breaths, sampling.breaths);
    case 'rolling_time':
      return rollingTime(breaths, sampling.window_s);
    case 'interpolated_1hz':
      return interpolated1Hz(breaths, sampling.smoothing_breaths);
  }
}

/** Rolling breath means still arrive one row per breath, so such a file reads as breath by breath. */
function samplingHint(sampling: SamplingOption): WrittenSamples['sampling_hint'] {
  switch (sampling.kind) {
    case 'breath':
    case 'rolling_breaths':
      return { method: 'breath_by_breath', averaging_s: null };
    case 'interval':
      return { method: 'averaged', averaging_s: sampling.interval_s };
    case 'averaged':
    case 'rolling_time':
      return { method: 'averaged', averaging_s: sampling.window_s };
    case 'interpolated_1hz':
      return { method: 'averaged', averaging_s: null };
  }
}

/**
 * Breaths one after another until the protocol ends, each lasting 60/RF at its start with a 12 %
 * jitter (0.8-12 s), the first starting 0.5-2.5 s in; `timing` draws the durations and `write`
 * turns each breath's end and duration into the breath as recorded.
 */
export function atBreathingRate(s: TrueSignals, plan: ProtocolPlan, timing: Rng, write: (tEnd: number, duration: number) => Breath): Breath[] {
  const breaths: Breath[] = [];
  let t = timing.uniform(0.5, 2.5);
  while (true) {
    const rf = interp(s.rf, t);
    const duration = Math.min(12, Math.max(0.8, (60 / rf) * (1 + 0.12 * timing.normal())));
    const tEnd = t + duration;
    if (tEnd > plan.end_s) break;
    breaths.push(write(tEnd, duration));
    t = tEnd;
  }
  return breaths;
}

/** Breaths at the breathing rate with the generator's default noise (a shared volume error plus independent parts). */
export function makeBreaths(s: TrueSignals, plan: ProtocolPlan, o: WriteOptions, rng: Rng): Breath[] {
  const cv = o.noise_cv;
  return atBreathingRate(s, plan, rng, (tEnd, duration) => {
    const common = 1 + cv * rng.normal();
    const ve = interp(s.ve, tEnd) * common * (1 + 0.5 * cv * rng.normal());
    const vo2 = interp(s.vo2, tEnd) * common * (1 + cv * rng.normal());
    const vco2 = interp(s.vco2, tEnd) * common * (1 + 0.8 * cv * rng.normal());
    const petco2 = interp(s.petco2, tEnd) + 0.8 * rng.normal();
    const read = withOutlier(rng, o.outlier_rate, { ve, vo2, vco2, petco2 });
    const peto2 = interp(s.peto2, tEnd) + 1.2 * rng.normal();
    return breathRecord(tEnd, duration, { ...read, peto2, hr: interp(s.hr, tEnd) + 1.5 * rng.normal() });
  });
}

/** One breath's gas readings before they are written. */
export interface BreathReadings {
  vo2: number;
  vco2: number;
  ve: number;
  petco2: number;
}

/** With probability `rate`, a cough or swallow: every volume scaled by one outlier factor and PetCO2 5 mmHg low. */
export function withOutlier(rng: Rng, rate: number, r: BreathReadings): BreathReadings {
  if (!(rng.next() < rate)) return r;
  const f = rng.pick(OUTLIER_FACTORS);
  return { vo2: r.vo2 * f, vco2: r.vco2 * f, ve: r.ve * f, petco2: r.petco2 - 5 };
}

/** The breath as written: volumes kept physical, RF and tidal volume from the breath's own duration. */
export function breathRecord(tEnd: number, duration: number, r: BreathReadings & { peto2: number; hr: number }): Breath {
  const breathRf = 60 / duration;
  return {
    t_end: tEnd,
    duration,
    values: {
      VO2: Math.max(50, r.vo2),
      VCO2: Math.max(40, r.vco2),
      VE: Math.max(1, r.ve),
      RF: breathRf,
      VT: Math.max(0.1, r.ve / breathRf),
      PetO2: r.peto2,
      PetCO2: r.petco2,
      HR: r.hr,
    },
  };
}

/** Removes breaths inside `count` stretches of 10-40 s placed during exercise (sensor or mask failures). */
function dropGaps(breaths: Breath[], plan: ProtocolPlan, count: number, rng: Rng): Breath[] {
  const gaps: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const length = rng.uniform(10, 40);
    const start = rng.uniform(plan.warmup_end_s, Math.max(plan.warmup_end_s, plan.exercise_end_s - length));
    gaps.push([start, start + length]);
  }
  return breaths.filter((b) => !gaps.some(([a, z]) => b.t_end >= a && b.t_end <= z));
}

export function interp(series: Float64Array, t: number): number {
  const i = Math.floor(t);
  if (i >= series.length - 1) return series[series.length - 1];
  if (i < 0) return series[0];
  const w = t - i;
  return series[i] * (1 - w) + series[i + 1] * w;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
