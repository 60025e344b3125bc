/** Prints the EOV outcome of the oscillating sample as JSON; the determinism test runs it in two processes. */
import plugin from '../../../analyses/eov/index.js';
import { generateSampleTest } from '../../../src/synthetic/sample.js';

void plugin.run(generateSampleTest(true).recording, { key: { tier: 'free', allowed_models: null } }).then((out) => {
  process.stdout.write(JSON.stringify(out));
});
