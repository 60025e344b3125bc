/**
 * The recordings the analysis and HTTP benchmarks share: the public sample, a real breath-by-breath
 * test of about 350 breaths, and two recordings at the spec's 20,000-sample limit (one second
 * apart over 5.6 hours, the worst case for every analysis; and a 36-minute test sampled every
 * 0.108 s, as a fast-sampling cart exports).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT } from '../src/plugins.js';
import type { Recording } from '../src/recording/recording.js';
import { toCanonicalJson } from '../src/synthetic/canonical-json.js';
import { generateTest } from '../src/synthetic/generate.js';
import { generateSample } from '../src/synthetic/sample.js';

/** A recording with the file an upload sends for it. */
export interface BenchRecording {
  label: string;
  recording: Recording;
  file: { name: string; bytes: Buffer };
}

/** The Exercise Threshold App test (389 breaths over 969 s of test) held for the vt tests; test/fixtures/vt/README.md gives its source. */
const REAL_TEST = join(PROJECT_ROOT, 'test/fixtures/vt/exercise_threshold_app_test.json');
/** A second real test: the MGC export Aaron_VO2max.txt of gasExchangeR (666 breaths, 985 s); formats/mgc-breeze-txt/fixtures/README.md gives its source. */
const REAL_TEST_2 = join(PROJECT_ROOT, 'formats/mgc-breeze-txt/fixtures/gasexchanger-aaron/input.txt');

export async function benchRecordings(): Promise<{ sample: BenchRecording; real: BenchRecording; real2: BenchRecording; longest: BenchRecording; fastest: BenchRecording }> {
  const sample = generateSample(false);
  const { formats } = await loadPlugins();
  const realBytes = readFileSync(REAL_TEST);
  const real = (await readUpload('exercise_threshold_app_test.json', realBytes, formats)).recording;
  const real2Bytes = readFileSync(REAL_TEST_2);
  const real2 = (await readUpload('Aaron_VO2max.txt', real2Bytes, formats)).recording;
  const sampleRecording = (await readUpload(sample.filename, Buffer.from(sample.content), formats)).recording;
  // 5.6 hours at 1-s intervals (as vt.bench.ts and web-render.bench.ts): every analysis sees 20,000 s.
  const longest = generateTest({ seed: 31337, protocol: 'ramp', rest_s: 300, warmup_s: 300, exercise_s: 19_000, recovery_s: 399, sampling: { kind: 'interval', interval_s: 1 } }).recording;
  // 2160 s sampled every 0.108 s (as metrics.bench.ts and substrate.bench.ts).
  const fastest = generateTest({ seed: 1, protocol: 'ramp', exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } }).recording;
  const asUpload = (label: string, name: string, recording: Recording): BenchRecording => ({ label, recording, file: { name, bytes: Buffer.from(toCanonicalJson(recording)) } });
  return {
    sample: { label: `sample (${sampleRecording.t_s.length} samples)`, recording: sampleRecording, file: { name: sample.filename, bytes: Buffer.from(sample.content) } },
    real: { label: `real test (${real.t_s.length} breaths, Exercise Threshold App)`, recording: real, file: { name: 'exercise_threshold_app_test.json', bytes: realBytes } },
    real2: { label: `real test (${real2.t_s.length} breaths, MGC Aaron_VO2max.txt)`, recording: real2, file: { name: 'Aaron_VO2max.txt', bytes: real2Bytes } },
    longest: asUpload(`${longest.t_s.length} samples at 1 s (5.6 h)`, 'long-1s.json', longest),
    fastest: asUpload(`${fastest.t_s.length} samples at 0.108 s (36 min)`, 'long-0108s.json', fastest),
  };
}
