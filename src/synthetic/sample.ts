/**
 * The public sample (spec 2.4): a synthetic incremental test of 900 s at 2-s intervals with VO2,
 * VCO2, VE, RF, end-tidal gases and HR, thresholds placed near 55 % and 80 % of the test (where an
 * expert would mark them: expert-reading.ts), and, when asked, exercise oscillatory ventilation.
 * The same request always returns the same bytes.
 */
import { toCanonicalJson } from './canonical-json.js';
import { VT1_READING_DELAY } from './expert-reading.js';
import { generateTest } from './generate.js';
import type { GeneratedTest, GeneratorOptions } from './types.js';

export const SAMPLE_SEED = 20260801;
const REST_S = 90;
const WARMUP_S = 90;
const EXERCISE_S = 630;
const RECOVERY_S = 90;
const TEST_S = REST_S + WARMUP_S + EXERCISE_S + RECOVERY_S;
const INTERVAL_S = 2;
/** Where the thresholds sit, as fractions of the whole 900-s test (spec 2.4). */
const VT1_OF_TEST = 0.55;
const VT2_OF_TEST = 0.8;
const OSCILLATION = { period_s: 60, amplitude_fraction: 0.3, petco2_phase_deg: 180 } as const;

/** Generator options of the sample; tests and benchmarks reuse them. */
export function sampleOptions(oscillating: boolean): GeneratorOptions {
  // Thresholds are placed as VO2 levels on the ramp's demand; kinetics delay reaching VT1 and the
  // slow component above VT1 brings VT2 forward, so each fraction is offset by what that costs
  // this subject (measured on the generated truth: VT1 at 495 s and VT2 at 720 s of 900). VT1's
  // changes begin the mean expert reading delay before the 55 % where an expert marks it.
  const vt1Lag_s = 22 + VT1_READING_DELAY.mean_s;
  const vt2Lag_s = -5;
  return {
    seed: SAMPLE_SEED,
    protocol: 'ramp',
    rest_s: REST_S,
    warmup_s: WARMUP_S,
    exercise_s: EXERCISE_S,
    recovery_s: RECOVERY_S,
    vo2peak_ml_min: 3600,
    body_mass_kg: 74,
    age_years: 38,
    sex: 'male',
    vt1_fraction: (VT1_OF_TEST * TEST_S - REST_S - WARMUP_S - vt1Lag_s) / EXERCISE_S,
    vt2_fraction: (VT2_OF_TEST * TEST_S - REST_S - WARMUP_S - vt2Lag_s) / EXERCISE_S,
    sampling: { kind: 'interval', interval_s: INTERVAL_S },
    noise_cv: 0.05,
    outlier_rate: 0.003,
    oscillation: oscillating ? { ...OSCILLATION } : null,
    hr: true,
    load: true,
    realism: { reading_delay_s: { vt1: VT1_READING_DELAY.mean_s, vt2: 0 } },
  };
}

export interface Sample {
  filename: string;
  content: string;
  note: string;
  expected: {
    duration_s: number;
    interval_s: number;
    vt1: { time_s: number; vo2_ml_min: number } | null;
    vt2: { time_s: number; vo2_ml_min: number } | null;
    vo2peak_ml_min: number;
    oscillation: { period_s: number; amplitude_l_min: number } | null;
  };
}

/** The generated sample test itself, for tests that need its ground truth. */
export function generateSampleTest(oscillating: boolean): GeneratedTest {
  return generateTest(sampleOptions(oscillating));
}

/** The sample as GET /v1/sample returns it. */
export function generateSample(oscillating: boolean): Sample {
  const test = generateSampleTest(oscillating);
  const name = oscillating ? 'sample-incremental-eov.json' : 'sample-incremental.json';
  return {
    filename: name,
    content: toCanonicalJson(test.recording),
    note:
      "Synthetic incremental cycle test from this service's seeded generator (not a person): 900 s at 2-s intervals, " +
      'rest, unloaded warm-up, ramp, recovery. Upload it with POST /v1/cpet/content using this filename and content.' +
      (oscillating ? ' It contains an exercise oscillatory ventilation pattern with PetCO2 in antiphase.' : ''),
    expected: {
      duration_s: TEST_S,
      interval_s: INTERVAL_S,
      vt1: test.truth.vt1,
      vt2: test.truth.vt2,
      vo2peak_ml_min: test.truth.vo2peak_30s_ml_min,
      oscillation: test.truth.oscillation,
    },
  };
}
