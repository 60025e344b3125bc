/**
 * A pool of worker threads for parsing, analyses and metrics, so one large upload or a model
 * inference never stalls other requests. With 0 workers the same tasks run in the calling thread.
 */
import { Piscina } from 'piscina';
import { runTask, type Task, type TaskResult } from './tasks.js';

export interface TaskRunner {
  run(task: Task): Promise<TaskResult>;
  close(): Promise<void>;
}

/** A runner with `workers` threads (0: inline). */
export function createTaskRunner(workers: number): TaskRunner {
  if (workers === 0) return { run: runTask, close: async () => {} };
  const pool = new Piscina({
    filename: new URL('./worker.mjs', import.meta.url).href,
    minThreads: 1,
    maxThreads: workers,
    idleTimeout: 60_000,
  });
  return {
    run: (task) => {
      const transfer = task.kind === 'parse' ? [task.bytes.buffer as ArrayBuffer] : [];
      return pool.run(task, { transferList: transfer }) as Promise<TaskResult>;
    },
    close: () => pool.destroy(),
  };
}
