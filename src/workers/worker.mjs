// Piscina entry point. Plain JavaScript so that it loads in any thread: after `npm run build` it
// sits beside the compiled tasks.js and imports it directly (no devDependency at run time); in the
// source tree it registers tsx's loader for this thread, then loads the TypeScript task runner (and
// through it the format and analysis plugins).
import { existsSync } from 'node:fs';
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';

// Counters shared with the pool (pool.ts): [threads warm, threads started, pool closing].
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
  await tasks.warmUp(workerData?.packages ?? []).catch(() => undefined);
}
if (shared) Atomics.add(shared, 0, 1);

/** Runs a task; the block of a parsed upload moves back to the request thread rather than being copied. */
export default async function run(task) {
  const result = await tasks.runTask(task);
  const transfer = tasks.transferablesOfResult(result);
  return transfer.length ? move({ [transferableSymbol]: transfer, [valueSymbol]: result }) : result;
}
