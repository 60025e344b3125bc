/**
 * `npx tsx scripts/train/reading-delay.ts`: calibrates the mean delay between the start of VT1's
 * changes and the expert's reading of it (src/synthetic/expert-reading.ts VT1_READING_DELAY). The classic engine
 * (wasserman v1.1.0, frozen: its criteria were never fitted to these cohorts) reads VT1 about a
 * minute before the experts on real labelled tests (issue 10). Run on the realistic training cohort
 * with no delay, it reads the metabolic VT1 `lag` seconds late on average; a delay of lag + 60 s
 * makes it read as early on the cohort as on real tests. The held-out cohorts are never used here.
 */
import plugin from '../../analyses/vt/index.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { CLASSIC_VT1_EARLY_ON_REAL_TESTS_S, trainingRealisticCohort, VT1_READING_DELAY } from './cohorts.js';

const errors: number[] = [];
for (const o of trainingRealisticCohort()) {
  const g = generateTest({ ...o, realism: { ...o.realism, reading_delay_s: { vt1: 0, vt2: 0 } } });
  const out = await plugin.run(g.recording, { model: 'wasserman', model_version: 'v1.1.0', key: { tier: 'research', allowed_models: null }, surface: 'web' });
  const t = out.status === 'ok' ? (out.findings.vt1_time_s as number | null) : null;
  if (t !== null && g.truth.vt1) errors.push(t - g.truth.vt1.time_s);
}
const lag = errors.reduce((a, b) => a + b, 0) / errors.length;
const delay = Math.round((lag + CLASSIC_VT1_EARLY_ON_REAL_TESTS_S) / 5) * 5;
console.log(`wasserman v1.1.0 on the realistic training cohort (${errors.length} tests with VT1): mean VT1 error against the metabolic onset ${lag.toFixed(1)} s`);
console.log(`delay that makes it ${CLASSIC_VT1_EARLY_ON_REAL_TESTS_S} s early, as on real tests: ${delay} s (rounded to 5 s); src/synthetic/expert-reading.ts uses ${VT1_READING_DELAY.mean_s} s`);
