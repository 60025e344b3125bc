/**
 * A pool of worker threads for parsing, analyses and metrics, so one large upload or a model
 * inference never stalls other requests. With 0 workers the same tasks run in the calling thread.
 *
 * Every task has a budget: a wall-clock limit (the thread is stopped and replaced past it; an
 * analysis past it is answered, and its thread, maybe inside an inference, left to finish) and a
 * heap limit per thread (only that thread's task fails past it), so a pathological file fails alone
 * and fast. Admission is fair between keys (fair-queue.ts).
 */
import { Piscina } from 'piscina';
import { ServiceError, serviceUnavailable } from '../errors.js';
import { FairQueue, QueueFullError } from './fair-queue.js';
import { handOver, ONE_ROUND, runTask, type Task, type TaskResult, type WarmUpPlan } from './tasks.js';

export interface TaskRunner {
  /** Runs a task for `owner` (the API key id), waiting its turn among the other keys' tasks. */
  run(task: Task, owner?: string): Promise<TaskResult>;
  /** True when every thread has warmed up (worker.mjs) and a worker answers a trivial task within `timeoutMs` (readiness). */
  ping(timeoutMs: number): Promise<boolean>;
  /** Tasks waiting for a thread, and tasks running. */
  load(): { waiting: number; running: number };
  /** Stops taking tasks, lets queued and running ones finish, then ends the threads. */
  close(): Promise<void>;
}

export interface RunnerOptions {
  workers: number;
  /** Wall-clock budget of one task once it runs. */
  taskTimeoutMs: number;
  /** Old-generation heap limit of each thread. */
  workerMemoryMb: number;
  /** Tasks that may wait for a thread before new ones are refused with 503. */
  queueLimit: number;
  /** Format plugin packages, loaded by each thread as it warms up (the tasks name the same). */
  packages?: string[];
  /** How each thread warms up before it takes tasks (tasks.ts); default one round. */
  warmUp?: WarmUpPlan;
}

/** The task a worker thread runs when readiness asks whether the pool answers. */
const PING: Task = { kind: 'ping' };

/** Slots of the counters the threads share with the pool (worker.mjs). */
const WARM = 0;
const STARTED = 1;
const CLOSING = 2;
/** Longest a thread waits for the others to release their sessions when the pool closes (worker.mjs). */
const RELEASE_WAIT_MS = 10_000;
/** Longest wait of a closing pool for threads still warming up: several times a warm-up on a loaded machine. */
const WARM_UP_WAIT_MS = 60_000;

/** A runner with `workers` threads (0: inline, no budget). */
export function createTaskRunner(options: RunnerOptions): TaskRunner {
  if (options.workers === 0) {
    // Inline (tests, debugging): nothing warms up, the first request pays for what it builds.
    return { run: runTask, ping: async () => (await runTask(PING)).ok, load: () => ({ waiting: 0, running: 0 }), close: async () => {} };
  }
  // Threads that finished warming up and threads that started (worker.mjs adds one to each), whether
  // the pool is closing, and threads that released their sessions: readiness waits for every thread,
  // and closing for every warm-up and then every release.
  const warm = new Int32Array(new SharedArrayBuffer(16));
  const pool = new Piscina({
    // worker.mjs loads the built tasks.js when there is one, else the TypeScript source through tsx.
    filename: new URL('./worker.mjs', import.meta.url).href,
    // Every thread starts (and warms up) with the pool, so no request waits for a thread to be built.
    minThreads: options.workers,
    maxThreads: options.workers,
    workerData: { packages: options.packages ?? [], warm: warm.buffer, warm_up: options.warmUp ?? ONE_ROUND },
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: options.workerMemoryMb },
  });
  const queue = new FairQueue<TaskResult>(options.workers, options.queueLimit);
  let closing = false;

  const execute = async (given: Task): Promise<TaskResult> => {
    const { task, transfer } = handOver(given);
    if (task.kind === 'analyze' || task.kind === 'domains') {
      // A thread stopped inside an onnxruntime inference aborts the whole process ("terminate called
      // after throwing an instance of 'Napi::Error'", seen in the bench's HTTP part on a loaded
      // machine). Past its budget such a task is answered at once and its thread left to finish: its
      // work is bounded by the recording's sample limit, unlike a parse of an arbitrary file.
      let late: ReturnType<typeof setTimeout> | undefined;
      const overrun = new Promise<TaskResult>((resolve) => {
        late = setTimeout(() => resolve(overBudget(task, new Error('past its budget'), true, options)), options.taskTimeoutMs);
      });
      const ran = (pool.run(task, { transferList: transfer }) as Promise<TaskResult>).catch((err: Error) => overBudget(task, err, false, options));
      try {
        return await Promise.race([ran, overrun]);
      } finally {
        clearTimeout(late);
      }
    }
    const signal = AbortSignal.timeout(options.taskTimeoutMs);
    try {
      return (await pool.run(task, { transferList: transfer, signal })) as TaskResult;
    } catch (err) {
      return overBudget(task, err as Error, signal.aborted, options);
    }
  };

  /** Waits (at most WARM_UP_WAIT_MS) until no thread is warming up: a thread stopped inside its warm-up's inferences aborts the process too. */
  const warmUpsDone = async (): Promise<void> => {
    Atomics.store(warm, CLOSING, 1);
    const until = Date.now() + WARM_UP_WAIT_MS;
    while (Atomics.load(warm, STARTED) > Atomics.load(warm, WARM) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  };

  /**
   * One release task per thread (worker.mjs): a thread ended while it holds onnxruntime sessions,
   * idle or not, aborts the process about once in ten closes ("terminate called after throwing an
   * instance of 'Napi::Error'"). No signal: stopping a thread inside its release is that same abort.
   */
  const releaseThreads = async (): Promise<void> => {
    const threads = pool.threads.length;
    await Promise.allSettled(Array.from({ length: threads }, () => pool.run({ kind: 'release', threads, wait_ms: RELEASE_WAIT_MS })));
  };

  return {
    run: (task, owner = 'anonymous') => {
      if (closing) return Promise.reject(serviceUnavailable('The service is shutting down; retry on another instance.', 'shutting_down', 1));
      // Analyses, metrics and curves read a stored recording, which the upload limits bound; a parse reads any file.
      return queue
        .push(owner, () => execute(task), task.kind !== 'parse')
        .catch((err: unknown) => {
          if (err instanceof QueueFullError) throw serviceUnavailable(`Every worker is busy and ${err.limit} tasks are waiting; retry shortly.`, 'workers_busy', 2);
          throw err;
        });
    },
    ping: async (timeoutMs) => {
      if (Atomics.load(warm, WARM) < options.workers) return false;
      try {
        const result = (await pool.run(PING, { signal: AbortSignal.timeout(timeoutMs) })) as TaskResult;
        return result.ok;
      } catch {
        return false;
      }
    },
    load: () => ({ waiting: queue.waiting, running: queue.active }),
    close: async () => {
      closing = true;
      await queue.idle();
      await warmUpsDone();
      await releaseThreads();
      await pool.close();
    },
  };
}

/**
 * A task the thread could not finish: past its time budget, past its heap limit, or a crashed
 * thread. An upload answers 422 (the file is the cause); the analyses and metrics answer with their
 * failure code, since a bounded recording should never get here.
 */
function overBudget(task: Task, err: Error, timedOut: boolean, options: RunnerOptions): TaskResult {
  const outOfMemory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
  const limit = timedOut ? { limit: 'task_time_s', budget: options.taskTimeoutMs / 1000 } : outOfMemory ? { limit: 'worker_memory_mb', budget: options.workerMemoryMb } : null;
  const why = timedOut
    ? `it took longer than the ${options.taskTimeoutMs / 1000} s budget of one task`
    : outOfMemory
      ? `it needed more than the ${options.workerMemoryMb} MB memory budget of one task`
      : `the worker stopped (${err.message})`;
  const context = limit ? { limit: limit.limit, budget: limit.budget } : {};
  const error =
    task.kind === 'parse'
      ? new ServiceError('PARSER_ERROR', `The file could not be read: ${why}.`, context)
      : new ServiceError(task.kind === 'compute' ? 'INTERNAL_ERROR' : 'INFERENCE_FAILED', `The ${task.kind} task could not finish: ${why}.`, context);
  return { ok: false, error: { code: error.code, message: error.message, context: error.context } };
}
