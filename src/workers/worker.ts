/** Piscina entry point: each worker thread runs tasks with its own plugin registries. */
import { runTask, type Task, type TaskResult } from './tasks.js';

export default function (task: Task): Promise<TaskResult> {
  return runTask(task);
}
