/**
 * Substrate analysis latency: on the sample-like recording (seed 1, 900 s at 2-s samples), on the
 * public sample itself, on a stepped FATMAX test, and on a recording at the 20,000-sample limit.
 */
import { analyseSubstrate } from '../analyses/substrate/analyse.js';
import { sampleOptions } from '../src/synthetic/sample.js';
import { generateTest } from '../src/synthetic/generate.js';
import type { Recording } from '../src/recording/recording.js';
import { medianMs, type BenchRow } from './harness.js';

async function row(name: string, rec: Recording, runs: number): Promise<BenchRow> {
  const result = analyseSubstrate(rec);
  const median_ms = await medianMs(() => analyseSubstrate(rec), runs);
  return {
    name: `${name} (${rec.t_s.length} samples)`,
    median_ms,
    runs,
    extra: { status: result.status, windows: result.status === 'ok' ? result.findings.n_windows : 0 },
  };
}

export default async (): Promise<{ title: string; rows: BenchRow[] }> => {
  const sampleLike = generateTest({ seed: 1, protocol: 'ramp', rest_s: 120, warmup_s: 120, exercise_s: 540, recovery_s: 120, sampling: { kind: 'interval', interval_s: 2 } });
  const sample = generateTest(sampleOptions(false));
  const steps = generateTest({ seed: 3, protocol: 'steps', step_s: 180, exercise_s: 1800, fatmax_fraction: 0.5 });
  // 2160 s sampled every 0.108 s: 20,000 samples, the per-recording limit.
  const big = generateTest({ seed: 1, protocol: 'steps', step_s: 180, exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } });
  const bigRamp = generateTest({ seed: 1, protocol: 'ramp', exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } });
  return {
    title: 'substrate analysis (analyseSubstrate, windows to FATMAX and efficiency)',
    rows: [
      await row('sample-like ramp, seed 1, 900 s at 2 s', sampleLike.recording, 21),
      await row('public sample (GET /v1/sample)', sample.recording, 21),
      await row('stepped FATMAX test, breath by breath', steps.recording, 21),
      await row('stepped test at the 20,000-sample limit', big.recording, 11),
      await row('ramp at the 20,000-sample limit (clock bins)', bigRamp.recording, 11),
    ],
  };
};
