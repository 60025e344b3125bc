// Piscina entry point. Plain JavaScript so that it loads in any thread, whether or not the parent
// process was started under tsx: it registers tsx's loader for this thread, then loads the
// TypeScript task runner (and through it the format and analysis plugins).
import { register } from 'tsx/esm/api';

register();
const { runTask } = await import('./tasks.ts');

export default function run(task) {
  return runTask(task);
}
