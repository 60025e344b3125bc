/**
 * Varied generator settings for cohorts (training, evaluation, benchmarks): fitness from sedentary
 * to elite, ramp / step / treadmill protocols, rest and warm-up lengths, breath-by-breath or
 * 5/10/15-s averaged exports, noise, outliers, gaps, tests that stop before VT2 or before VT1.
 */
import { createRng } from './random.js';
import type { GeneratorOptions, SamplingOption } from './types.js';

/** Draws one varied set of options from a seed (the seed also drives the generator itself). */
export function drawOptions(seed: number): GeneratorOptions {
  const rng = createRng(seed * 7919 + 17);
  const protocol = rng.pick(['ramp', 'ramp', 'steps', 'treadmill'] as const);
  const sampling: SamplingOption = rng.pick([
    { kind: 'breath' },
    { kind: 'breath' },
    { kind: 'breath' },
    { kind: 'averaged', window_s: 5 },
    { kind: 'averaged', window_s: 10 },
    { kind: 'averaged', window_s: 15 },
  ] as const);
  const domainCase = rng.next();
  return {
    seed,
    protocol,
    rest_s: rng.pick([0, 60, 120, 180, 240]),
    warmup_s: rng.pick([0, 60, 120, 180, 300]),
    exercise_s: Math.round(rng.uniform(420, 960)),
    recovery_s: rng.pick([0, 60, 120, 180]),
    step_s: protocol === 'steps' ? rng.pick([120, 180, 240]) : rng.pick([60, 120, 180]),
    vo2peak_ml_min: Math.round(rng.uniform(1400, 5600)),
    sampling,
    noise_cv: rng.uniform(0.03, 0.12),
    outlier_rate: rng.uniform(0, 0.02),
    gaps: rng.next() < 0.15 ? rng.int(1, 3) : 0,
    vt1_present: domainCase > 0.04,
    vt2_present: domainCase > 0.14,
    hr: rng.next() < 0.9,
  };
}
