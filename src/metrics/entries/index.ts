/** The built-in metric entries, in the order of spec section 2.3 (substrate_summary comes from its analysis). */
import type { MetricEntry } from '../metric-entry.js';
import { clockIntegrity } from './clock-integrity.js';
import { gasQuality } from './gas-quality.js';
import { landmarks } from './landmarks.js';
import { o2Pulse, rermax, vemax, vo2max } from './peak-window.js';
import { phasesMetric } from './phases.js';
import { vo2maxRelative, vo2Plateau } from './relative-and-plateau.js';
import { samplingAdequacy } from './sampling-adequacy.js';
import { stageSummary } from './stage-summary.js';
import { veVco2Slope } from './ve-vco2-slope.js';

/** Every metric this folder defines. */
export const BUILTIN_METRICS: readonly MetricEntry[] = [
  vo2max,
  vemax,
  rermax,
  o2Pulse,
  veVco2Slope,
  phasesMetric,
  landmarks,
  gasQuality,
  samplingAdequacy,
  clockIntegrity,
  stageSummary,
  vo2maxRelative,
  vo2Plateau,
];
