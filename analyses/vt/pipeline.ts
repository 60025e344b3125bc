/**
 * What a model card's `pipeline` names, resolved and run: its engine and, when the engine answers
 * curves, its decision rule.
 */
import type { ModelCard } from './card.js';
import type { DomainCurves } from './decision/curves.js';
import { DECISIONS } from './decision/index.js';
import type { Decision, DecisionRule } from './decision/rule.js';
import type { Engine, EngineInput } from './engines/engine.js';
import { ENGINES } from './engines/index.js';
import { readSpan, type ReadSpan } from './read-span.js';

export interface Pipeline {
  engine: Engine;
  decision: DecisionRule | null;
}

/** The card's engine and rule; throws with the reason when the card names none or an unknown one. */
export function pipelineOf(card: Pick<ModelCard, 'pipeline' | 'engine'>): Pipeline {
  const named = card.pipeline;
  if (!named || typeof named.engine !== 'string') throw new Error('the card names no pipeline.engine');
  const engine = ENGINES.get(named.engine);
  if (!engine) throw new Error(`pipeline.engine ${named.engine} is not one of ${[...ENGINES.keys()].join(', ')}`);
  if (engine.family !== card.engine) throw new Error(`engine ${engine.id} is ${engine.family}, the card says ${card.engine}`);
  if (engine.answers === 'thresholds') {
    if (named.decision !== undefined) throw new Error(`engine ${engine.id} places thresholds itself and takes no decision rule`);
    return { engine, decision: null };
  }
  const decision = named.decision === undefined ? undefined : DECISIONS.get(named.decision);
  if (!decision) throw new Error(`engine ${engine.id} answers curves and needs a pipeline.decision, one of ${[...DECISIONS.keys()].join(', ')}`);
  return { engine, decision };
}

/** VT1 and VT2 of a checked recording as the model's pipeline places them. */
export async function runPipeline(input: EngineInput): Promise<Decision> {
  const { engine, decision } = pipelineOf(input.model.card);
  const out = await engine.run(input);
  if (out.kind === 'thresholds') return { vt1: out.vt1, vt2: out.vt2, evidence: out.evidence, notes: out.notes, vt2_not_sought: out.vt2_not_sought };
  const d = (decision as DecisionRule).decide(out.curves, input, out.evidence);
  // A rule that reads past the VO2 peak says how far it read; otherwise the curves are read to the peak.
  return { ...d, read_span: (d.evidence.read_span as ReadSpan | undefined) ?? readSpan(input.test, out.curves) };
}

/** The per-second curves of a model whose engine answers curves; null for an engine that places thresholds itself. */
export async function curvesOf(input: EngineInput): Promise<DomainCurves | null> {
  const { engine } = pipelineOf(input.model.card);
  if (engine.answers !== 'curves') return null;
  const out = await engine.run(input);
  return out.kind === 'curves' ? out.curves : null;
}
