/**
 * ONNX sessions of the learned engines: one per weights file per thread, created on first use,
 * single-threaded so the same input gives the same bits on every run (spec rule 5).
 */
import * as ort from 'onnxruntime-node';
import type { RegisteredModel } from '../registry.js';

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/** An engine failure the plugin reports as INFERENCE_FAILED. */
export class InferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InferenceError';
  }
}

/** The cached session of a model's weights (created on first call). */
export function sessionFor(model: RegisteredModel): Promise<ort.InferenceSession> {
  if (model.problem || !model.weights_path) return Promise.reject(new InferenceError(model.problem ?? 'the model has no weights'));
  const key = `${model.weights_path}#${model.card.weights?.sha256}`;
  let session = sessions.get(key);
  if (!session) {
    session = ort.InferenceSession.create(model.weights_path, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
    // A file that fails to load is not cached, so a repaired file is picked up on the next request.
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

/** Releases every cached session and forgets it (before the thread ends: see AnalysisPlugin.release). */
export async function releaseSessions(): Promise<void> {
  const open = [...sessions.values()];
  sessions.clear();
  for (const session of await Promise.allSettled(open)) {
    if (session.status === 'fulfilled') await session.value.release();
  }
}

/** The model's session, with a load failure turned into an InferenceError naming the model. */
export async function loadedSession(model: RegisteredModel): Promise<ort.InferenceSession> {
  try {
    return await sessionFor(model);
  } catch (err) {
    throw new InferenceError(`model ${model.card.name} ${model.card.version} could not be loaded: ${(err as Error).message}`);
  }
}

/** Runs a session on one float tensor and checks the output is [rows, columns]; failures become InferenceErrors. */
export async function runMatrix(model: RegisteredModel, session: ort.InferenceSession, input: ort.Tensor, rows: number, columns: number): Promise<Float32Array> {
  try {
    const out = await session.run({ [session.inputNames[0]]: input });
    const tensor = out[session.outputNames[0]];
    if (tensor?.dims.length !== 2 || tensor.dims[0] !== rows || tensor.dims[1] !== columns) {
      throw new Error(`output shape ${tensor ? JSON.stringify(tensor.dims) : 'missing'}, expected [${rows}, ${columns}]`);
    }
    return tensor.data as Float32Array;
  } catch (err) {
    throw new InferenceError(`model ${model.card.name} ${model.card.version} failed to run: ${(err as Error).message}`);
  }
}
