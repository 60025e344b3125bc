/** Runs every file through the engine, `jobs` at a time, and answers the outcomes in input order. */
import type { Engine } from './engine.js';
import type { InputFile } from './inputs.js';
import type { FileOutcome } from './outcome.js';

export async function runBatch(files: readonly InputFile[], engine: Engine, jobs: number, onDone: (outcome: FileOutcome, file: InputFile) => void | Promise<void>): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(files.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length) {
      const i = next++;
      outcomes[i] = await engine.analyze(files[i].path, files[i].display);
      await onDone(outcomes[i], files[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, lane));
  return outcomes;
}
