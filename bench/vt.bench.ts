/**
 * vt latency: each engine through the plugin (what provenance.latency_ms reports, minus the
 * envelope) on the public sample and on a 20,000-sample recording, and the ONNX session start-up
 * cost paid once per worker thread. `npx tsx bench/run.ts vt`.
 */
import * as ort from 'onnxruntime-node';
import plugin from '../analyses/vt/index.js';
import { registryFor } from '../analyses/vt/registry.js';
import { generateTest } from '../src/synthetic/generate.js';
import { generateSampleTest } from '../src/synthetic/sample.js';
import { copiesOf, medianMs, type BenchRow } from './harness.js';

export default async function vtBench(): Promise<{ title: string; rows: BenchRow[] }> {
  const sample = generateSampleTest(false).recording;
  // 20,000 one-second samples: the spec's sample limit, as a very long ramp.
  const long = generateTest({ seed: 31337, protocol: 'ramp', rest_s: 300, warmup_s: 300, exercise_s: 19_000, recovery_s: 399, sampling: { kind: 'interval', interval_s: 1 } }).recording;
  const key = { tier: 'research' as const, allowed_models: null };
  const rows: BenchRow[] = [];
  const gandalf = registryFor().find('gandalf', 'latest');
  if (gandalf?.weights_path) {
    const path = gandalf.weights_path;
    const startup = await medianMs(
      async () => {
        const s = await ort.InferenceSession.create(path, { intraOpNumThreads: 1, interOpNumThreads: 1 });
        await s.release();
      },
      7,
      1,
    );
    rows.push({ name: `ONNX session start-up (gandalf ${gandalf.card.version})`, median_ms: startup, runs: 7 });
  }
  for (const [label, rec] of [
    ['sample', sample],
    [`${long.t_s.length}-sample recording`, long],
  ] as const) {
    for (const model of ['gandalf', 'wasserman']) {
      const runs = rec === sample ? 15 : 5;
      const copies = copiesOf(rec, runs + 1);
      const ms = await medianMs(() => plugin.run(copies.pop()!, { key, model, surface: 'web' }), runs, 1);
      rows.push({ name: `vt ${model} on the ${label}`, median_ms: ms, runs, extra: { samples: rec.t_s.length } });
    }
  }
  return { title: 'vt: threshold engines', rows };
}
