/**
 * Oxynet CNN latency on a 20-minute breath-by-breath test: every window of the test batched into
 * ONE onnx run, at the app's stride 2 and at stride 1, single-threaded as the engine runs it; the
 * same with 2 intra-op threads for comparison; the whole upstream pipeline (preprocessing, run,
 * smoothing, VT rule); and whether the outputs are bit-identical across runs and across thread
 * counts. Both conversions of the weights are timed (v1.1.0, the 2-D graph the default runs, and
 * v1.0.0, the first 1-D graph), so the ratio is read from one run. Goal: at most 20 ms median for
 * the 20-min test. `npx tsx bench/run.ts oxynet`.
 */
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { createOxynetSession, runOxynet, SESSION_OPTIONS } from '../analyses/vt/engines/oxynet/run.js';
import { upstreamSeries, upstreamThresholds } from '../analyses/vt/engines/oxynet/upstream.js';
import { buildWindows, minMaxScale, WINDOW_S } from '../analyses/vt/engines/oxynet/windows.js';
import { PROJECT_ROOT } from '../src/plugins.js';
import { generateTest } from '../src/synthetic/generate.js';
import { medianMs, type BenchRow } from './harness.js';

/** The conversions timed, the default's first. */
const VERSIONS = ['v1.1.0', 'v1.0.0'] as const;
const modelFile = (version: string) => join(PROJECT_ROOT, 'models/oxynet-cnn', version, 'model.onnx');
const RUNS = 21;

const sameBits = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

export default async function oxynetBench(): Promise<{ title: string; rows: BenchRow[] }> {
  // 20 minutes: 2 rest, 3 warm-up, 13 ramp, 2 recovery.
  const rec = generateTest({ seed: 2022, protocol: 'ramp', rest_s: 120, warmup_s: 180, exercise_s: 780, recovery_s: 120 }).recording;
  const series = upstreamSeries(rec);
  const scaled = series.channels.map((c) => minMaxScale(c));
  const rows: BenchRow[] = [];
  for (const version of VERSIONS) {
    const model = modelFile(version);
    const single = await createOxynetSession(model);
    const two = await ort.InferenceSession.create(model, { ...SESSION_OPTIONS, intraOpNumThreads: 2 });
    const startup = await medianMs(async () => (await createOxynetSession(model)).release(), 7, 1);
    rows.push({ name: `ONNX session start-up (oxynet-cnn ${version})`, median_ms: startup, runs: 7 });

    for (const stride of [2, 1]) {
      const starts: number[] = [];
      for (let i = 1; i < series.time_s.length - WINDOW_S; i += stride) starts.push(i);
      const windows = buildWindows(scaled, starts);
      const reference = await runOxynet(single, windows, starts.length);
      let stable = true;
      const once = async (session: ort.InferenceSession) => {
        const out = await runOxynet(session, buildWindows(scaled, starts), starts.length);
        if (!sameBits(out, reference)) stable = false;
      };
      const ms1 = await medianMs(() => once(single), RUNS, 2);
      rows.push({
        name: `CNN ${version}, ${starts.length} windows in one run (stride ${stride}), 1 thread`,
        median_ms: ms1,
        runs: RUNS,
        extra: { test_s: series.time_s.length, bit_identical_runs: String(stable) },
      });
      const ms2 = await medianMs(() => once(two), RUNS, 2);
      rows.push({ name: `CNN ${version}, ${starts.length} windows in one run (stride ${stride}), 2 threads`, median_ms: ms2, runs: RUNS, extra: { bit_identical_to_1_thread: String(stable) } });
    }
    if (version === VERSIONS[0]) {
      for (const stride of [2, 1]) {
        const ms = await medianMs(() => upstreamThresholds(rec, single, stride), 11, 1);
        rows.push({ name: `upstream pipeline ${version} on the 20-min test (stride ${stride})`, median_ms: ms, runs: 11, extra: { breaths: rec.t_s.length } });
      }
    }
    await Promise.all([single.release(), two.release()]);
  }
  return { title: 'oxynet: CNN inference (goal <= 20 ms for a 20-min test)', rows };
}
