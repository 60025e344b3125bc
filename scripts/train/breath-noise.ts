/**
 * `npx tsx scripts/train/breath-noise.ts`: the breath-noise calibration, printed. The real
 * breath-by-breath test (test/fixtures/vt/exercise_threshold_app_test.json, read by the project's
 * own format plugin) beside synthetic twins of it written with the measured noise model (same
 * VO2peak, warm-up and ramp length, the calibrated VO2 error SD), through the same statistics
 * (breath-statistics.ts). Only residuals around the trend are compared, never the thresholds.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { noiseStatistics, type NoiseStatistics } from './breath-statistics.js';

const FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/vt/exercise_threshold_app_test.json');
const TWINS = 20;
/** The real test: 240 s of light pedalling recorded before a ramp of 733 s to a VO2max of 4694 mL/min. */
const TWIN = { protocol: 'ramp', rest_s: 0, warmup_s: 240, exercise_s: 733, recovery_s: 0, vo2peak_ml_min: 4694, body_mass_kg: 75, outlier_rate: 0 } as const;
/**
 * Compared from a minute into the ramp: the real warm-up ran at about 1.4 L/min, the twin's at the
 * generator's unloaded level (0.8 L/min), and the relative noise of so different levels is not comparable.
 */
const FROM_S = 300;

const { formats } = await loadPlugins();
const real = noiseStatistics((await readUpload('exercise_threshold_app_test.json', readFileSync(FILE), formats)).recording, FROM_S);
const twins = Array.from({ length: TWINS }, (_, i) =>
  noiseStatistics(generateTest({ ...TWIN, seed: 31_000 + i, realism: { breath_noise: { vo2_sd_ml_min: 145 }, criteria: 'drawn', unrecorded_warmup: true } }).recording, FROM_S),
);

const avg = (pick: (s: NoiseStatistics) => number): number => Math.round((twins.reduce((a, s) => a + pick(s), 0) / twins.length) * 1000) / 1000;
const rows: [string, (s: NoiseStatistics) => number][] = [
  ['VO2 residual SD (mL/min)', (s) => s.sd.VO2],
  ['VCO2 residual SD (mL/min)', (s) => s.sd.VCO2],
  ['VE residual SD (L/min)', (s) => s.sd.VE],
  ['PetO2 residual SD (mmHg)', (s) => s.sd.PetO2],
  ['PetCO2 residual SD (mmHg)', (s) => s.sd.PetCO2],
  ['r VE-VO2', (s) => s.correlation.ve_vo2],
  ['r VE-VCO2', (s) => s.correlation.ve_vco2],
  ['r VO2-VCO2', (s) => s.correlation.vo2_vco2],
  ['r PetO2-PetCO2', (s) => s.correlation.peto2_petco2],
  ['r PetO2-VE', (s) => s.correlation.peto2_ve],
  ['r PetCO2-VE', (s) => s.correlation.petco2_ve],
  ['PetO2 per relative VE (mmHg)', (s) => s.per_relative_ve.PetO2],
  ['PetCO2 per relative VE (mmHg)', (s) => s.per_relative_ve.PetCO2],
  ['lag-1 r VE', (s) => s.lag1.VE],
  ['lag-1 r VO2', (s) => s.lag1.VO2],
  ['lag-1 r PetO2', (s) => s.lag1.PetO2],
  ['lag-1 r PetCO2', (s) => s.lag1.PetCO2],
  ['kurtosis VO2', (s) => s.kurtosis.VO2],
  ['kurtosis PetO2', (s) => s.kurtosis.PetO2],
  ['kurtosis PetCO2', (s) => s.kurtosis.PetCO2],
];
console.log(`real test: ${real.breaths} breaths; synthetic twins: ${TWINS} tests, mean of each figure`);
console.log(`${'figure'.padEnd(32)}${'real'.padStart(10)}${'synthetic'.padStart(12)}`);
for (const [name, pick] of rows) console.log(`${name.padEnd(32)}${String(pick(real)).padStart(10)}${String(avg(pick)).padStart(12)}`);

console.log('\nby VO2 band (real | synthetic mean): VO2 SD, VE SD, PetO2 SD, PetCO2 SD');
for (const band of real.bands) {
  const same = twins.map((s) => s.bands.find((b) => b.vo2_ml_min[0] === band.vo2_ml_min[0])).filter((b) => b !== undefined);
  const m = (k: 'VO2' | 'VE' | 'PetO2' | 'PetCO2'): string => (same.length ? (same.reduce((a, b) => a + b.sd[k], 0) / same.length).toFixed(2) : 'n/a');
  console.log(
    `${band.vo2_ml_min.join('-').padEnd(11)} n ${String(band.n).padStart(3)}  ${band.sd.VO2} ${band.sd.VE} ${band.sd.PetO2} ${band.sd.PetCO2} | ${m('VO2')} ${m('VE')} ${m('PetO2')} ${m('PetCO2')}`,
  );
}
