import type { Engine } from '../engine.js';
import { classicThresholds } from './thresholds.js';

/** The classic engine: breakpoints of the Wasserman criteria combined by median (thresholds.ts). */
export const wasserman: Engine = {
  id: 'wasserman',
  family: 'classic',
  answers: 'thresholds',
  async run({ test, exercise_start_index }) {
    const r = classicThresholds(test, exercise_start_index);
    const toTime = (items: typeof r.vt1_evidence) => items.map(({ index, ...rest }) => ({ ...rest, time_s: index === null ? null : test.t0_s + index }));
    return {
      kind: 'thresholds',
      vt1: r.vt1_index === null ? null : { index: r.vt1_index },
      vt2: r.vt2_index === null ? null : { index: r.vt2_index },
      evidence: { method: 'median of accepted criteria (Gaskill et al. 2001)', vt1_criteria: toTime(r.vt1_evidence), vt2_criteria: toTime(r.vt2_evidence) },
    };
  },
};
