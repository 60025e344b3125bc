// Piscina entry point. Plain JavaScript so that it loads in any thread: after `npm run build` it
// sits beside the compiled tasks.js and imports it directly (no devDependency at run time); in the
// source tree it registers tsx's loader for this thread, then loads the TypeScript task runner (and
// through it the format and analysis plugins).
import { existsSync } from 'node:fs';
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';

// Counters shared with the pool (pool.ts): [threads warm, threads started, pool closing, threads released].
const shared = workerData?.warm ? new Int32Array(workerData.warm) : null;
if (shared) Atomics.add(shared, 1, 1);

const built = new URL('./tasks.js', import.meta.url);
let tasks;
if (existsSync(built)) {
  tasks = await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  tasks = await import('./tasks.ts');
}

// Piscina hands this thread tasks only once this module has loaded, so the warm-up is paid here, at start.
// A warm-up that fails leaves the same failure to the request that meets it, which reports it in its answer.
// A pool already closing skips it: the thread would only be stopped in the middle of it.
if (!shared || Atomics.load(shared, 2) === 0) {
  await tasks.warmUp(workerData?.packages ?? [], workerData?.warm_up).catch(() => undefined);
}
if (shared) Atomics.add(shared, 0, 1);

/**
 * The pool's last task for each thread before it closes (pool.ts): an onnxruntime session finalised
 * while its thread is torn down aborts the whole process, so the sessions are released first. The
 * thread then holds until every thread has released (or `wait_ms` passes), so that the pool's
 * `threads` release tasks land on as many threads.
 */
async function releaseThread({ threads, wait_ms }) {
  await tasks.release(workerData?.packages ?? []).catch(() => undefined);
  if (!shared) return { ok: true, kind: 'release', value: 1 };
  const until = Date.now() + wait_ms;
  let seen = Atomics.add(shared, 3, 1) + 1;
  Atomics.notify(shared, 3);
  while (seen < threads && Date.now() < until) {
    Atomics.wait(shared, 3, seen, until - Date.now());
    seen = Atomics.load(shared, 3);
  }
  return { ok: true, kind: 'release', value: seen };
}

/** Runs a task; the block of a parsed upload moves back to the request thread rather than being copied. */
export default async function run(task) {
  if (task.kind === 'release') return releaseThread(task);
  const result = await tasks.runTask(task);
  const transfer = tasks.transferablesOfResult(result);
  return transfer.length ? move({ [transferableSymbol]: transfer, [valueSymbol]: result }) : result;
}
