/**
 * The Oxynet CNN over overlapping windows with each convolution output computed once, giving the
 * bits the whole graph gives window by window (runOxynet on buildWindows), in about half the time:
 * the second convolution, three quarters of the arithmetic, is otherwise repeated for every window
 * that holds the same seconds.
 *
 * Why the bits are the same: every layer before the dense blocks is causal or local (causal Conv1D
 * of kernel 6, max-pool of 2 with stride 2, batch normalisation), so a feature step depends only on
 * the seconds of its window up to it, and on where the window starts only through the convolutions'
 * zero padding, which reaches the first three pool-1 steps and, through them, the first eight conv-2
 * steps: feature steps 0-3 (the window's first HEAD_S seconds). The trunk (split-graph.ts) is run on
 * those first seconds of every window, and once over the whole series from each second s mod 4 the
 * windows start at, whose steps (s - s mod 4) / 4 + 4 .. + 9 are the window's feature steps 4-9. The
 * same nodes run on the same values, and ONNX Runtime's convolution kernels sum each output in one
 * order whatever the width (test/analyses/vt/engines/oxynet/shared-run.test.ts compares every bit).
 */
import * as ort from 'onnxruntime-node';
import { FEATURE_CHANNELS, FEATURE_STEPS, FEATURES_NAME } from './split-graph.js';
import { INPUT_NAME, OUTPUT_COLUMNS, OUTPUT_NAME } from './run.js';
import { interleaved, OXYNET_CHANNELS } from './windows.js';

/** Seconds per feature step (two pools of 2). */
const STEP_S = 4;
/** Feature steps a window's start reaches through the zero padding, and the seconds that give them. */
const HEAD_STEPS = 4;
const HEAD_S = HEAD_STEPS * STEP_S;

/** Sessions on the two parts of one Oxynet graph. */
export interface SplitSessions {
  trunk: ort.InferenceSession;
  dense: ort.InferenceSession;
}

async function features(session: ort.InferenceSession, input: Float32Array, count: number, seconds: number): Promise<Float32Array> {
  const out = await session.run({ [INPUT_NAME]: new ort.Tensor('float32', input, [count, seconds, OXYNET_CHANNELS.length]) });
  const tensor = out[FEATURES_NAME];
  const steps = Math.floor(seconds / STEP_S);
  if (tensor?.dims.length !== 3 || tensor.dims[0] !== count || tensor.dims[1] !== steps || tensor.dims[2] !== FEATURE_CHANNELS) {
    throw new Error(`trunk output shape ${tensor ? JSON.stringify(tensor.dims) : 'missing'}, expected [${count}, ${steps}, ${FEATURE_CHANNELS}]`);
  }
  return tensor.data as Float32Array;
}

/**
 * Windows per chunk: each chunk's heads go through the trunk and its stacked features through the
 * dense part (640 floats a window) before the next chunk's, so a 20,000-s test's 10,000 windows do
 * not allocate a 25-MB array and a 10-MB one per request: one chunk's 1.3 MB is reused (the CPU time
 * is the same within noise). Every window's outputs are summed in the same order whatever the windows beside it in a run
 * (shared-run.test.ts compares every bit, chunked and not).
 */
export const WINDOW_CHUNK = 512;

/** The outputs [count, 3] of the windows at `starts` of the five scaled series, as runOxynet gives them for buildWindows(channels, starts). */
export async function runOxynetShared(sessions: SplitSessions, channels: readonly ArrayLike<number>[], starts: readonly number[], windowChunk = WINDOW_CHUNK): Promise<Float32Array> {
  const series = interleaved(channels, starts);
  const count = starts.length;
  if (count === 0) return new Float32Array(0);
  const c = OXYNET_CHANNELS.length;
  const length = series.length / c;
  // One run over the series per phase of the windows' starts against the feature steps.
  const phases: (Float32Array | undefined)[] = [];
  for (const s of starts) {
    const phase = s % STEP_S;
    if (!phases[phase]) phases[phase] = await features(sessions.trunk, series.subarray(phase * c), 1, length - phase);
  }
  // Chunks of equal size, so that no run is left with a few windows and a whole run's fixed cost.
  const chunk = Math.ceil(count / Math.ceil(count / windowChunk));
  const headValues = HEAD_S * c;
  const heads = new Float32Array(chunk * headValues);
  // Time-major features: a window's are its head's four steps, then six consecutive steps of its phase's run.
  const size = FEATURE_STEPS * FEATURE_CHANNELS;
  const headSize = HEAD_STEPS * FEATURE_CHANNELS;
  const stacked = new Float32Array(chunk * size);
  const out = new Float32Array(count * OUTPUT_COLUMNS);
  for (let first = 0; first < count; first += chunk) {
    const n = Math.min(chunk, count - first);
    for (let k = 0; k < n; k++) heads.set(series.subarray(starts[first + k] * c, starts[first + k] * c + headValues), k * headValues);
    const head = await features(sessions.trunk, n === chunk ? heads : heads.subarray(0, n * headValues), n, HEAD_S);
    for (let k = 0; k < n; k++) {
      const s = starts[first + k];
      const run = phases[s % STEP_S] as Float32Array;
      const from = ((s - (s % STEP_S)) / STEP_S + HEAD_STEPS) * FEATURE_CHANNELS;
      stacked.set(head.subarray(k * headSize, (k + 1) * headSize), k * size);
      stacked.set(run.subarray(from, from + size - headSize), k * size + headSize);
    }
    const result = await sessions.dense.run({ [FEATURES_NAME]: new ort.Tensor('float32', n === chunk ? stacked : stacked.subarray(0, n * size), [n, FEATURE_STEPS, FEATURE_CHANNELS]) });
    const tensor = result[OUTPUT_NAME];
    if (tensor?.dims.length !== 2 || tensor.dims[0] !== n || tensor.dims[1] !== OUTPUT_COLUMNS) {
      throw new Error(`output shape ${tensor ? JSON.stringify(tensor.dims) : 'missing'}, expected [${n}, ${OUTPUT_COLUMNS}]`);
    }
    out.set(tensor.data as Float32Array, first * OUTPUT_COLUMNS);
  }
  return out;
}
