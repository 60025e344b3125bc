/**
 * Turns generated tests into training rows: the gandalf feature vector of a second (built by the
 * service's own code, analyses/vt/features.ts) and the generator's true domain of that second.
 */
import { buildFeatures, featureCount, type FeatureSet } from '../../analyses/vt/engines/gandalf-mlp/features.js';
import { prepareTest } from '../../analyses/vt/preprocess.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions } from '../../src/synthetic/types.js';
import { withArtifacts } from './artifacts.js';
import { seededRandom } from './mlp.js';

export interface Dataset {
  x: Float32Array;
  y: Int8Array;
  tests: number;
}

/**
 * One row every `stride` seconds of each test's analysed span (rest to the VO2 peak). A share
 * `artifactShare` of the tests (chosen from each test's seed) get measurement artefacts of a random
 * strength first, so the model cannot lean on one clean cue.
 */
export function buildDataset(cohort: GeneratorOptions[], stride: number, set: FeatureSet, artifactShare = 0): Dataset {
  const xs: Float32Array[] = [];
  const ys: number[] = [];
  for (const options of cohort) {
    const { recording, truth } = generateTest(options);
    const draw = seededRandom(options.seed ^ 0x5eed);
    const test = prepareTest(draw() < artifactShare ? withArtifacts(recording, options.seed + 7, 0.3 + 0.7 * draw()) : recording);
    const rows: number[] = [];
    // The offset varies by seed so that every second of the grid is seen across the cohort.
    for (let i = options.seed % stride; i <= test.end_index; i += stride) {
      const t = test.t0_s + i;
      if (t < truth.domain_1hz.length) rows.push(i);
    }
    xs.push(buildFeatures(test, rows, set));
    for (const i of rows) ys.push(truth.domain_1hz[test.t0_s + i]);
  }
  const x = new Float32Array(ys.length * featureCount(set));
  let offset = 0;
  for (const part of xs) {
    x.set(part, offset);
    offset += part.length;
  }
  return { x, y: Int8Array.from(ys), tests: cohort.length };
}
