// Piscina entry point. Plain JavaScript so that it loads in any thread: after `npm run build` it
// sits beside the compiled tasks.js and imports it directly (no devDependency at run time); in the
// source tree it registers tsx's loader for this thread, then loads the TypeScript task runner (and
// through it the format and analysis plugins).
import { existsSync } from 'node:fs';

const built = new URL('./tasks.js', import.meta.url);
let tasks;
if (existsSync(built)) {
  tasks = await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  tasks = await import('./tasks.ts');
}

export default function run(task) {
  return tasks.runTask(task);
}
