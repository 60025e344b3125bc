/**
 * Sessions on the two parts of a model's Oxynet graph (split-graph.ts), one pair per weights file per
 * thread, created on first use or at warm-up with the options of every Oxynet run (run.ts). A graph
 * that has no such cut (v1.0.0's 1-D layout) gives null, and runs whole.
 */
import { readFile } from 'node:fs/promises';
import type { RegisteredModel } from '../../registry.js';
import { createOxynetSession } from './run.js';
import type { SplitSessions } from './shared-run.js';
import { splitOxynetGraph } from './split-graph.js';

const sessions = new Map<string, Promise<SplitSessions | null>>();

async function open(path: string): Promise<SplitSessions | null> {
  let parts: { trunk: Uint8Array; dense: Uint8Array };
  try {
    parts = splitOxynetGraph(new Uint8Array(await readFile(path)));
  } catch {
    return null;
  }
  const [trunk, dense] = await Promise.all([createOxynetSession(parts.trunk), createOxynetSession(parts.dense)]);
  return { trunk, dense };
}

/** The split sessions of a model's weights, or null when its graph runs whole; rejects when the file cannot be read or loaded. */
export function splitSessionsFor(model: RegisteredModel): Promise<SplitSessions | null> {
  if (model.problem || !model.weights_path) return Promise.resolve(null);
  const key = `${model.weights_path}#${model.card.weights?.sha256}`;
  let pair = sessions.get(key);
  if (!pair) {
    pair = open(model.weights_path);
    // A file that fails to load is not cached, so a repaired file is picked up on the next request.
    pair.catch(() => sessions.delete(key));
    sessions.set(key, pair);
  }
  return pair;
}

/** Releases every pair and forgets it (before the thread ends: see AnalysisPlugin.release). */
export async function releaseSplitSessions(): Promise<void> {
  const pairs = [...sessions.values()];
  sessions.clear();
  for (const pair of await Promise.allSettled(pairs)) {
    if (pair.status === 'fulfilled' && pair.value) await Promise.all([pair.value.trunk.release(), pair.value.dense.release()]);
  }
}
