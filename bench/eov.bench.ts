/** EOV latency: the oscillating public sample (900 s at 2 s) and a 20,000-sample recording (1-s samples). */
import plugin from '../analyses/eov/index.js';
import { generateTest } from '../src/synthetic/generate.js';
import { generateSampleTest, sampleOptions } from '../src/synthetic/sample.js';
import { copiesOf, medianMs, type BenchRow } from './harness.js';

const request = { key: { tier: 'free' as const, allowed_models: null } };

export default async (): Promise<{ title: string; rows: BenchRow[] }> => {
  const sample = generateSampleTest(true).recording;
  // 20,000 samples, the spec's limit: a long test written at 1-s intervals.
  const long = generateTest({
    ...sampleOptions(true),
    rest_s: 600,
    warmup_s: 600,
    exercise_s: 18000,
    recovery_s: 800,
    sampling: { kind: 'interval', interval_s: 1 },
  }).recording;
  const n = Math.min(20000, long.t_s.length);
  const cut = {
    ...long,
    t_s: long.t_s.slice(0, n),
    channels: Object.fromEntries(Object.entries(long.channels).map(([k, c]) => [k, { ...c, values: c.values.slice(0, n) }])),
  };
  const rows: BenchRow[] = [];
  const samples = copiesOf(sample, 8);
  rows.push({ name: `eov sample (${sample.t_s.length} samples, 2 s)`, median_ms: await medianMs(() => plugin.run(samples.pop()!, request)), runs: 7 });
  const cuts = copiesOf(cut, 6);
  rows.push({
    name: `eov long recording (${n} samples, ${Math.round(cut.t_s[n - 1])} s)`,
    median_ms: await medianMs(() => plugin.run(cuts.pop()!, request), 5),
    runs: 5,
  });
  return { title: 'EOV analysis latency', rows };
};
