/**
 * vt latency: each engine through the plugin (what provenance.latency_ms reports, minus the
 * envelope) on the public sample, the two real tests and a 20,000-sample recording, the ONNX session
 * start-up cost paid once per worker thread, and the default model's CNN on a real test's windows run
 * whole and with its convolutions shared between overlapping windows (engines/oxynet/shared-run.ts).
 * `npx tsx bench/run.ts vt`.
 */
import * as ort from 'onnxruntime-node';
import { averagedRowsOf, averagedSmoothingOf } from '../analyses/vt/card.js';
import { oxynetCurves, readingOf } from '../analyses/vt/engines/oxynet/curves.js';
import { runOxynet } from '../analyses/vt/engines/oxynet/run.js';
import { runOxynetShared } from '../analyses/vt/engines/oxynet/shared-run.js';
import { splitSessionsFor } from '../analyses/vt/engines/oxynet/split-sessions.js';
import { buildWindows } from '../analyses/vt/engines/oxynet/windows.js';
import { loadedSession } from '../analyses/vt/engines/onnx-session.js';
import plugin from '../analyses/vt/index.js';
import { checkInput } from '../analyses/vt/input-check.js';
import { placeAveragedRows } from '../analyses/vt/preprocess.js';
import { registryFor, type RegisteredModel } from '../analyses/vt/registry.js';
import type { Recording } from '../src/recording/recording.js';
import { generateTest } from '../src/synthetic/generate.js';
import { generateSampleTest } from '../src/synthetic/sample.js';
import { copiesOf, medianMs, type BenchRow } from './harness.js';
import { benchRecordings } from './recordings.js';

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
  const { real, real2 } = await benchRecordings();
  for (const r of [real, real2]) {
    const copies = copiesOf(r.recording, 21);
    const ms = await medianMs(() => plugin.run(copies.pop()!, { key }), 20, 1);
    rows.push({ name: `vt default model alone (eov's grade for its note included), ${r.label}`, median_ms: ms, runs: 20 });
  }
  if (gandalf) rows.push(...(await cnnRows(gandalf, real.recording, real.label)));
  return { title: 'vt: threshold engines', rows };
}

/** The default model's CNN on the windows it reads on a recording: the whole graph per window, and with the convolutions shared. */
async function cnnRows(model: RegisteredModel, recorded: Recording, label: string): Promise<BenchRow[]> {
  const split = await splitSessionsFor(model);
  if (!split) return [];
  const session = await loadedSession(model);
  const rec = placeAveragedRows(recorded, averagedRowsOf(model.card));
  const checked = checkInput(rec, model.card.inputs);
  if (!checked.ok) return [];
  const inputs: { channels: readonly Float64Array[]; starts: readonly number[] }[] = [];
  await oxynetCurves(
    async (channels, starts) => {
      inputs.push({ channels, starts });
      return runOxynet(session, buildWindows(channels, starts), starts.length);
    },
    rec,
    checked.test,
    readingOf(model),
    checked.exercise_start_index,
    averagedSmoothingOf(model.card),
  );
  if (inputs.length === 0) return [];
  const { channels, starts } = inputs[0];
  const whole = await runOxynet(session, buildWindows(channels, starts), starts.length);
  const shared = await runOxynetShared(split, channels, starts);
  const identical = Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).equals(Buffer.from(shared.buffer, shared.byteOffset, shared.byteLength));
  const name = `CNN ${model.card.name} ${model.card.version}, ${starts.length} windows of the ${label}`;
  return [
    { name: `${name}: whole graph per window`, median_ms: await medianMs(() => runOxynet(session, buildWindows(channels, starts), starts.length), 21, 2), runs: 21 },
    { name: `${name}: convolutions shared`, median_ms: await medianMs(() => runOxynetShared(split, channels, starts), 21, 2), runs: 21, extra: { bit_identical_to_whole: String(identical) } },
  ];
}
