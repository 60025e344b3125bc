/**
 * Prints the vt findings of both engines and the gandalf domain curves for the sample, as one JSON
 * line. The determinism test runs it in two separate processes and compares the output strings.
 */
import plugin from '../../../analyses/vt/index.js';
import { domainProbabilities } from '../../../analyses/vt/domains.js';
import { generateSampleTest } from '../../../src/synthetic/sample.js';

const rec = generateSampleTest(true).recording;
const key = { tier: 'research' as const, allowed_models: null };
const gandalf = await plugin.run(rec, { key });
const wasserman = await plugin.run(rec, { key, model: 'wasserman', surface: 'web' });
const curves = await domainProbabilities(rec, { key });
process.stdout.write(`${JSON.stringify({ gandalf, wasserman, curves })}\n`);
