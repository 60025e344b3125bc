/**
 * Compute latency of every built-in metric (the registry's compute, as POST /v1/cpet/{id}/compute
 * runs it): on the sample-like recording (seed 1, 900 s at 2-s samples), on the public sample, on
 * a breath-by-breath test, and on a recording at the 20,000-sample limit. Each run gets a fresh
 * copy of the recording, so the per-recording phase cache never flatters the figure.
 */
import { createMetricRegistry } from '../src/metrics/registry.js';
import type { Recording } from '../src/recording/recording.js';
import { generateTest } from '../src/synthetic/generate.js';
import { sampleOptions } from '../src/synthetic/sample.js';
import { type BenchRow, medianMs } from './harness.js';

const registry = createMetricRegistry();
const names = registry.list().map((e) => e.name);

async function row(name: string, rec: Recording, runs: number): Promise<BenchRow> {
  const copies = Array.from({ length: runs + 1 }, () => structuredClone(rec));
  const results = registry.compute(structuredClone(rec), names);
  const median_ms = await medianMs(() => registry.compute(copies.pop()!, names), runs);
  const ok = Object.values(results).filter((r) => r.status === 'ok').length;
  return { name: `${name} (${rec.t_s.length} samples)`, median_ms, runs, extra: { metrics: names.length, ok } };
}

/** The slowest single metrics on the largest recording, to show where the time goes. */
async function perMetric(rec: Recording): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const n of names) {
    const copies = Array.from({ length: 6 }, () => structuredClone(rec));
    rows.push({ name: `  ${n} alone, 20,000 samples`, median_ms: await medianMs(() => registry.compute(copies.pop()!, [n]), 5), runs: 5 });
  }
  return rows.sort((a, b) => b.median_ms - a.median_ms).slice(0, 4);
}

export default async (): Promise<{ title: string; rows: BenchRow[] }> => {
  const sampleLike = generateTest({ seed: 1, protocol: 'ramp', rest_s: 120, warmup_s: 120, exercise_s: 540, recovery_s: 120, sampling: { kind: 'interval', interval_s: 2 } });
  const sample = generateTest(sampleOptions(false));
  const breath = generateTest({ seed: 2, protocol: 'ramp' });
  // 2160 s sampled every 0.108 s: 20,000 samples, the per-recording limit.
  const big = generateTest({ seed: 1, protocol: 'ramp', exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } });
  // Let the JIT compile every path first, so the first row does not carry compilation time.
  for (let i = 0; i < 20; i++) for (const t of [sampleLike, sample, breath]) registry.compute(structuredClone(t.recording), names);
  return {
    title: 'metrics (registry compute of every built-in metric)',
    rows: [
      await row('sample-like ramp, seed 1, 900 s at 2 s', sampleLike.recording, 21),
      await row('public sample (GET /v1/sample)', sample.recording, 21),
      await row('ramp, breath by breath', breath.recording, 21),
      await row('ramp at the 20,000-sample limit', big.recording, 7),
      ...(await perMetric(big.recording)),
    ],
  };
};
