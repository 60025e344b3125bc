/** The substrate analysis plugin: fat and carbohydrate oxidation, FATMAX, crossover, gross efficiency. */
import type { AnalysisOutcome, AnalysisPlugin } from '../../src/analyses/analysis-plugin.js';
import { analyseSubstrate, METHOD_VERSION } from './analyse.js';
import { substrateSummaryMetric } from './summary.js';

const MODEL = { name: 'substrate', version: METHOD_VERSION } as const;

const plugin: AnalysisPlugin = {
  name: 'substrate',
  product: 'substrate',
  requires: ['VO2', 'VCO2'],
  description: 'Fat and carbohydrate oxidation per window, FATMAX (a fitted turning point), crossover, gross efficiency with a load in watts.',
  async run(recording, request): Promise<AnalysisOutcome> {
    const result = analyseSubstrate(recording, {}, request.protocol ?? null);
    if (result.status === 'ok') return { status: 'ok', findings: { ...result.findings }, notes: result.notes, model: { ...MODEL } };
    return { status: 'not_analysable', error: result.error, message: result.message, context: result.context, notes: [], model: { ...MODEL } };
  },
  metrics: [substrateSummaryMetric],
};

export default plugin;
