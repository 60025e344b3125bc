/** Child process of the determinism test: prints the substrate result of two fixed synthetic tests as JSON. */
import { analyseSubstrate } from '../../../analyses/substrate/analyse.js';
import { generateTest } from '../../../src/synthetic/generate.js';

const steps = generateTest({ seed: 3, protocol: 'steps', step_s: 180, exercise_s: 1800, fatmax_fraction: 0.5, vt1_fraction: 0.6 });
const ramp = generateTest({ seed: 1, protocol: 'ramp', sampling: { kind: 'interval', interval_s: 2 } });
process.stdout.write(JSON.stringify([analyseSubstrate(steps.recording), analyseSubstrate(ramp.recording)]));
