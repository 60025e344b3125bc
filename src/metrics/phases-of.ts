/**
 * Phase boundaries of a recording, computed once per Recording object and shared by every metric
 * of one compute call (detection walks the whole record).
 */
import type { Recording } from '../recording/recording.js';
import { detectPhases, type PhaseBoundaries } from '../signal/phases.js';

const cache = new WeakMap<Recording, PhaseBoundaries | null>();

/** `detectPhases(rec)`, memoised on the object (a Recording is not mutated once built). */
export function phasesOf(rec: Recording): PhaseBoundaries | null {
  if (!cache.has(rec)) cache.set(rec, detectPhases(rec));
  return cache.get(rec) ?? null;
}
