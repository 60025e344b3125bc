/**
 * The CPU-heavy work of a request, as plain functions over plain data: parse an upload, run
 * analyses, compute metrics, compute domain probabilities. They run in a worker thread (pool.ts) or
 * inline; either way the result is the same. Errors come back as data, because a ServiceError does
 * not survive the thread boundary as a class.
 */
import { performance } from 'node:perf_hooks';
import * as threads from 'node:worker_threads';
import type { AnalysisName, AnalysisRequest, KeyScope } from '../analyses/analysis-plugin.js';
import { runAnalyses, type Envelope } from '../analyses/run.js';
import { ServiceError, type ErrorCode } from '../errors.js';
import { readUpload, type ReadResult } from '../formats/read-upload.js';
import type { MetricOptions, MetricResult } from '../metrics/metric-entry.js';
import { createMetricRegistry, type MetricRegistry } from '../metrics/registry.js';
import { loadPlugins, type Plugins } from '../plugins.js';
import type { Recording } from '../recording/recording.js';
import { recordingOf, type RecordingPayload } from '../server/stored-record.js';
import { recordingSummary, type RecordingSummary } from '../server/summary.js';
import { encodeRecording, type EncodedRecording } from '../store/record-codec.js';
import { generateTest } from '../synthetic/generate.js';
import { generateSampleTest } from '../synthetic/sample.js';

export type Task =
  | { kind: 'parse'; filename: string; bytes: Uint8Array; packages: string[] }
  | { kind: 'analyze'; recording: RecordingPayload; names: AnalysisName[]; request: AnalysisRequest; packages: string[] }
  | { kind: 'compute'; recording: RecordingPayload; names: string[]; options?: Partial<MetricOptions>; packages: string[] }
  | { kind: 'domains'; recording: RecordingPayload; model: string | null; model_version: string | null; key: KeyScope; packages: string[] }
  | { kind: 'ping' };

/** An upload as the worker leaves it: encoded for the store, with the recording's part of the summary, so the request thread parses nothing. */
export interface ParsedUpload {
  detection: ReadResult['detection'];
  bytes: number;
  summary: RecordingSummary;
  encoded: EncodedRecording;
}

/** The web application's per-second curves, or why the recording cannot give them (analyses/vt/domains.ts). */
export type DomainCurves =
  | { status: 'ok'; t_s: number[]; moderate: number[]; heavy: number[]; severe: number[]; model: { name: string; version: string } }
  | { status: 'not_analysable'; error: string; message: string; context: Record<string, unknown>; model: { name: string; version: string } };

export type TaskResult =
  | { ok: true; kind: 'parse'; value: ParsedUpload }
  | { ok: true; kind: 'analyze'; value: Envelope[] }
  | { ok: true; kind: 'compute'; value: Record<string, MetricResult> }
  | { ok: true; kind: 'domains'; value: DomainCurves }
  | { ok: true; kind: 'ping'; value: 'pong' }
  | { ok: false; error: { code: ErrorCode; message: string; context: Record<string, unknown> } };

interface Loaded {
  plugins: Plugins;
  metrics: MetricRegistry;
}

/** Per thread, by the plugin packages asked for: a warm-up with none must not hide a task's packages. */
const loaded = new Map<string, Promise<Loaded>>();

/** Plugins and the metric registry, loaded once per thread and list of plugin packages. */
export function loadRegistries(packages: string[] = []): Promise<Loaded> {
  const key = JSON.stringify(packages);
  let registries = loaded.get(key);
  if (!registries) {
    registries = loadPlugins({ packages }).then((plugins) => ({
      plugins,
      metrics: createMetricRegistry(plugins.analyses.flatMap((a) => a.metrics ?? [])),
    }));
    loaded.set(key, registries);
  }
  return registries;
}

/** How long a thread warms up before it takes tasks (worker.mjs). */
export interface WarmUpPlan {
  /** Rounds of analyze-all and compute-all over the warm-up recordings. */
  rounds: number;
  /** Wall-clock ceiling: no round starts past it (a loaded machine delays readiness no further). */
  budget_ms: number;
}

/** One round: the sessions are built and the code has run once (a one-shot CLI run pays no more). */
export const ONE_ROUND: WarmUpPlan = { rounds: 1, budget_ms: 0 };

/**
 * What the first request of a thread would otherwise pay for (issue 23: 127 ms against a warm call's
 * 20): the plugins and registries, every analysis's lazily built state (model sessions), and the
 * compiled code of the analyses and metrics, by running each on recordings decoded from a stored
 * block as a request's recording is. The sample alone (2-s rows, no oscillation) left the code of
 * breath-by-breath recordings and of oscillating ones to the first real test, several times a warm
 * call: so also a breath-by-breath ramp and the oscillating sample. One round builds the sessions, but
 * V8 optimises a function only once it has run often enough, and vt's functions kept being optimised
 * until about its 45th call (node --trace-opt), at about 1.4 times its steady-state CPU time over its first calls:
 * the service's plan (config.ts WARM_UP_ROUNDS) runs more rounds. Run once per thread before it takes
 * tasks (worker.mjs). Returns the rounds it ran.
 */
export async function warmUp(packages: string[] = [], plan: WarmUpPlan = ONE_ROUND): Promise<number> {
  const until = performance.now() + plan.budget_ms;
  const { plugins, metrics } = await loadRegistries(packages);
  for (const analysis of plugins.analyses) await analysis.warmUp?.();
  const names = plugins.analyses.map((a) => a.name);
  const metricNames = metrics.list().map((m) => m.name);
  const encoded = warmUpRecordings().map(encodeRecording);
  let round = 0;
  for (; round < plan.rounds && (round === 0 || performance.now() < until); round++) {
    for (const block of encoded) {
      await runAnalyses(recordingOf({ encoded: block }), names, plugins.analyses, { key: { tier: 'research', allowed_models: null } });
      metrics.compute(recordingOf({ encoded: block }), metricNames);
    }
  }
  return round;
}

/**
 * The tests a thread warms up on. Besides the sample's 2-s rows, a breath-by-breath ramp and an
 * oscillating test: a treadmill test (speed and grade, no load) and a ramp with the gas channels alone,
 * as many exports carry. V8 compiles property reads for the hidden classes it has seen, and a
 * recording's channels object has one per set of channels: trained on one set, vt's functions were
 * deoptimised ("wrong map", node --trace-deopt) on the first real test, which had another.
 */
function warmUpRecordings(): Recording[] {
  const ramp = generateTest({ seed: 1, protocol: 'ramp' }).recording;
  const { VO2, VCO2, VE, PetO2, PetCO2 } = ramp.channels;
  return [
    generateSampleTest(false).recording,
    ramp,
    generateSampleTest(true).recording,
    generateTest({ seed: 2, protocol: 'treadmill' }).recording,
    { ...ramp, channels: { VO2, VCO2, VE, PetO2, PetCO2 } },
  ];
}

/** Frees every analysis's native resources in this thread (worker.mjs, when the pool closes). */
export async function release(packages: string[] = []): Promise<void> {
  const { plugins } = await loadRegistries(packages);
  for (const analysis of plugins.analyses) await analysis.release?.();
}

/** Runs one task; never throws. */
export async function runTask(task: Task): Promise<TaskResult> {
  if (task.kind === 'ping') return { ok: true, kind: 'ping', value: 'pong' };
  try {
    const { plugins, metrics } = await loadRegistries(task.packages);
    switch (task.kind) {
      case 'parse': {
        const read = await readUpload(task.filename, Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength), plugins.formats);
        return { ok: true, kind: 'parse', value: { detection: read.detection, bytes: read.bytes, summary: recordingSummary(read.recording), encoded: encodeRecording(read.recording) } };
      }
      case 'analyze':
        return { ok: true, kind: 'analyze', value: await runAnalyses(recordingOf(task.recording), task.names, plugins.analyses, task.request) };
      case 'compute':
        return { ok: true, kind: 'compute', value: metrics.compute(recordingOf(task.recording), task.names, task.options) };
      case 'domains':
        return { ok: true, kind: 'domains', value: await domains(task) };
    }
  } catch (err) {
    if (err instanceof ServiceError) return { ok: false, error: { code: err.code, message: err.message, context: err.context } };
    return { ok: false, error: { code: 'INTERNAL_ERROR', message: `Unexpected failure: ${(err as Error).message}`, context: {} } };
  }
}

/** The per-second domain probabilities of the threshold model, for the web application only. */
async function domains(task: Extract<Task, { kind: 'domains' }>): Promise<DomainCurves> {
  const mod = (await import('../../analyses/vt/domains.js').catch(() => null)) as {
    domainProbabilities?: (rec: Recording, opts: { model?: string; model_version?: string; key: KeyScope }) => Promise<DomainCurves>;
  } | null;
  if (!mod?.domainProbabilities) throw new ServiceError('MODEL_NOT_FOUND', 'No threshold model is installed.', {});
  return mod.domainProbabilities(recordingOf(task.recording), { model: task.model ?? undefined, model_version: task.model_version ?? undefined, key: task.key });
}

/**
 * The bytes of a view in a transferable buffer of their own: the view itself when it spans its whole
 * buffer, else a copy (a pooled Buffer shares its buffer with others). From Node 21 Buffers' memory
 * is marked untransferable (postMessage throws "Cannot transfer object of unsupported type"), so
 * such a view is copied too; Node 20 has no such mark (nor isMarkedAsUntransferable).
 */
function owned(view: Uint8Array): Uint8Array {
  const whole = view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
  return whole && !threads.isMarkedAsUntransferable?.(view.buffer) ? view : new Uint8Array(view);
}

/**
 * The task as a thread receives it and the buffers it takes over: the upload's bytes or the stored
 * block move to the worker without a copy (the sender no longer reads them).
 */
export function handOver(task: Task): { task: Task; transfer: ArrayBuffer[] } {
  if (task.kind === 'parse') {
    const bytes = owned(task.bytes);
    return { task: { ...task, bytes }, transfer: [bytes.buffer as ArrayBuffer] };
  }
  if (task.kind !== 'ping' && 'encoded' in task.recording) {
    const block = owned(task.recording.encoded.block);
    return { task: { ...task, recording: { encoded: { ...task.recording.encoded, block } } }, transfer: [block.buffer as ArrayBuffer] };
  }
  return { task, transfer: [] };
}

/** The buffers a result hands back (the encoded block of a parsed upload). */
export function transferablesOfResult(result: TaskResult): ArrayBuffer[] {
  return result.ok && result.kind === 'parse' ? [result.value.encoded.block.buffer as ArrayBuffer] : [];
}

interface TaskValues {
  ping: 'pong';
  parse: ParsedUpload;
  analyze: Envelope[];
  compute: Record<string, MetricResult>;
  domains: DomainCurves;
}

/** Turns a task result back into a value, rethrowing its error as a ServiceError. */
export function unwrap<K extends keyof TaskValues>(result: TaskResult, kind: K): TaskValues[K] {
  if (!result.ok) throw new ServiceError(result.error.code, result.error.message, result.error.context);
  if (result.kind !== kind) throw new Error(`worker answered ${result.kind} to a ${kind} task`);
  return result.value as TaskValues[K];
}
