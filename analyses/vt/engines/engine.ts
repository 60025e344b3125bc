/**
 * The one seam of the vt analysis (design section 5): an engine turns a prepared test into
 * per-second domain curves (learned engines, which a decision rule then turns into thresholds) or
 * into thresholds with their evidence (engines that decide for themselves). A model card names its
 * engine and, for curves, its decision rule (`pipeline`), so adding a model touches its engine's
 * folder, its card and nothing else.
 */
import type { Recording } from '../../../src/recording/recording.js';
import type { DomainCurves } from '../decision/curves.js';
import type { PreparedTest } from '../preprocess.js';
import type { RegisteredModel } from '../registry.js';

/** What an engine reads: the model, the recording as parsed, and the shared 1-Hz preparation. */
export interface EngineInput {
  model: RegisteredModel;
  rec: Recording;
  test: PreparedTest;
  /** Grid index of the exercise onset (src/signal/phases.ts, the onset every analysis uses). */
  exercise_start_index: number;
}

/**
 * A threshold on the prepared grid (time `test.t0_s + index`). An engine that reads VO2 its own way
 * (a faithful port of another pipeline) gives it; otherwise the shared smoothed VO2 at the index is
 * reported.
 */
export interface PlacedThreshold {
  index: number;
  vo2_ml_min?: number;
}

export type EngineOutput =
  | { kind: 'curves'; curves: DomainCurves; evidence: Record<string, unknown> }
  | {
      kind: 'thresholds';
      vt1: PlacedThreshold | null;
      vt2: PlacedThreshold | null;
      evidence: Record<string, unknown>;
      /** Reading notes for the envelope (e.g. which criteria could not run on this file's channels). */
      notes?: string[];
      /** Why VT2 could not be sought at all (no criterion of it could run), said instead of "not reached". */
      vt2_not_sought?: string;
    };

export interface Engine {
  /** What a card's `pipeline.engine` names. */
  id: string;
  /** Reported as `findings.engine`. */
  family: 'learned' | 'classic';
  /** Whether the engine answers curves (and so needs a decision rule) or thresholds. */
  answers: EngineOutput['kind'];
  run(input: EngineInput): Promise<EngineOutput>;
  /** Builds what the engine would otherwise build on a model's first request (called at start, before the service is ready). */
  warmUp?(model: RegisteredModel): Promise<void>;
  /** Frees the native sessions the engine holds of its own (the plugin's `release`). */
  release?(): Promise<void>;
}
