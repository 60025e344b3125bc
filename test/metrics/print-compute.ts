/**
 * Prints the JSON of every built-in metric on one generated recording; the determinism test runs
 * it in two separate processes and compares the output byte for byte.
 */
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { generateTest } from '../../src/synthetic/generate.js';

const seed = Number(process.argv[2] ?? 1);
const reg = createMetricRegistry();
const { recording } = generateTest({ seed });
process.stdout.write(
  JSON.stringify(
    reg.compute(
      recording,
      reg.list().map((e) => e.name),
    ),
  ),
);
