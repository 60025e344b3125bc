/** Every decision rule a model card may name in `pipeline.decision`. */
import type { DecisionRule } from './rule.js';
import { corroborated, gasesFirst, readToEnd } from './corroborated.js';
import { stepFit } from './step-fit.js';

export const DECISIONS: ReadonlyMap<string, DecisionRule> = new Map([stepFit, corroborated, readToEnd, gasesFirst].map((d) => [d.id, d]));
