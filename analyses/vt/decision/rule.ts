/**
 * A decision rule turns an engine's per-second domain curves into VT1 and VT2, saying in its
 * evidence what placed each one. A model card names its rule in `pipeline.decision`.
 */
import type { EngineInput, PlacedThreshold } from '../engines/engine.js';
import type { DomainCurves } from './curves.js';
import type { ReadSpan } from '../read-span.js';

export interface Decision {
  vt1: PlacedThreshold | null;
  vt2: PlacedThreshold | null;
  evidence: Record<string, unknown>;
  /** Reading notes for the envelope, in words, where the evidence alone would leave a reader to infer them. */
  notes?: string[];
  /** Why VT2 could not be sought at all (the engine had no criterion it could run), said instead of "not reached". */
  vt2_not_sought?: string;
  /** The seconds the engine's curves describe (set by the pipeline for engines that answer curves). */
  read_span?: ReadSpan;
}

export interface DecisionRule {
  id: string;
  decide(curves: DomainCurves, input: EngineInput, engineEvidence: Record<string, unknown>): Decision;
}
