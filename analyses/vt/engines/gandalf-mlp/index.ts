import type { Engine } from '../engine.js';
import { gandalfCurves } from './curves.js';

/** gandalf v0.x: a per-second MLP over windows of the scaled signals (features.ts). */
export const gandalfMlp: Engine = {
  id: 'gandalf-mlp',
  family: 'learned',
  answers: 'curves',
  async run({ model, test }) {
    return { kind: 'curves', curves: await gandalfCurves(model, test), evidence: {} };
  },
};
