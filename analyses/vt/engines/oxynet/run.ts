/**
 * Runs the Oxynet CNN (models/oxynet-cnn/<version>/model.onnx) on a batch of windows with
 * onnxruntime-node. Sessions are single-threaded and sequential, as for gandalf, so the same
 * windows give the same bits on every run.
 */
import * as ort from 'onnxruntime-node';
import { OXYNET_CHANNELS, WINDOW_S } from './windows.js';

/** The graph's input and output names (scripts/oxynet/cnn-graph.ts). */
export const INPUT_NAME = 'windows';
export const OUTPUT_NAME = 'probabilities';
/** Columns of the output, in the model's own order (not moderate, heavy, severe: see upstream.ts). */
export const OUTPUT_COLUMNS = 3;

/** Session options every Oxynet run uses. */
export const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

/** Opens a session on an ONNX file (or its bytes) with SESSION_OPTIONS. */
export function createOxynetSession(model: string | Uint8Array): Promise<ort.InferenceSession> {
  // Two overloads of create, one per argument kind.
  return typeof model === 'string' ? ort.InferenceSession.create(model, SESSION_OPTIONS) : ort.InferenceSession.create(model, SESSION_OPTIONS);
}

/** Runs `count` windows ([count, 40, 5] from buildWindows) in one call; returns the sigmoid outputs [count, 3], row-major. */
export async function runOxynet(session: ort.InferenceSession, windows: Float32Array, count: number): Promise<Float32Array> {
  if (windows.length !== count * WINDOW_S * OXYNET_CHANNELS.length) throw new Error(`${windows.length} values do not make ${count} windows of ${WINDOW_S} x ${OXYNET_CHANNELS.length}`);
  if (count === 0) return new Float32Array(0);
  const out = await session.run({ [INPUT_NAME]: new ort.Tensor('float32', windows, [count, WINDOW_S, OXYNET_CHANNELS.length]) });
  const tensor = out[OUTPUT_NAME];
  if (tensor?.dims.length !== 2 || tensor.dims[0] !== count || tensor.dims[1] !== OUTPUT_COLUMNS) {
    throw new Error(`output shape ${tensor ? JSON.stringify(tensor.dims) : 'missing'}, expected [${count}, ${OUTPUT_COLUMNS}]`);
  }
  return tensor.data as Float32Array;
}
