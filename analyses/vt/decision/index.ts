/** Every decision rule a model card may name in `pipeline.decision`. */
import type { DecisionRule } from './rule.js';
import { corroborated, gasesFirst, petco2First, petco2FirstEnd, readToEnd } from './corroborated.js';
import { stepFit } from './step-fit.js';

export const DECISIONS: ReadonlyMap<string, DecisionRule> = new Map([stepFit, corroborated, readToEnd, gasesFirst, petco2First, petco2FirstEnd].map((d) => [d.id, d]));
