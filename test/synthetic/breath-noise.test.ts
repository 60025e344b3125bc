import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { noiseStatistics } from '../../scripts/train/breath-statistics.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions } from '../../src/synthetic/types.js';

/** Twins of the real breath-by-breath test (test/fixtures/vt): warm-up, then a ramp to 4694 mL/min. */
const TWIN: GeneratorOptions = { seed: 0, protocol: 'ramp', rest_s: 0, warmup_s: 240, exercise_s: 733, recovery_s: 0, vo2peak_ml_min: 4694, body_mass_kg: 75, outlier_rate: 0 };
const RAMP_FROM_S = 300;

describe('synthetic measured breath noise', () => {
  it('keeps the VO2 error SD it is given, the same at low and high work rates', () => {
    for (const sd of [80, 150]) {
      const stats = [0, 1, 2, 3].map((i) => noiseStatistics(generateTest({ ...TWIN, seed: 500 + i, realism: { breath_noise: { vo2_sd_ml_min: sd } } }).recording, RAMP_FROM_S));
      const mean = stats.reduce((a, s) => a + s.sd.VO2, 0) / stats.length;
      expect(mean).to.be.within(0.85 * sd, 1.1 * sd);
      const bands = stats.flatMap((s) => s.bands);
      const low = bands.filter((b) => b.vo2_ml_min[0] < 2500);
      const high = bands.filter((b) => b.vo2_ml_min[0] >= 3500);
      const avg = (bs: typeof bands) => bs.reduce((a, b) => a + b.sd.VO2, 0) / bs.length;
      expect(avg(high) / avg(low)).to.be.within(0.8, 1.25);
      expect(avg(high.map((b) => ({ ...b, sd: { ...b.sd, VO2: b.cv.VO2 } }))) / avg(low.map((b) => ({ ...b, sd: { ...b.sd, VO2: b.cv.VO2 } })))).to.be.below(0.7);
    }
  });

  it('matches the real test: volumes moving together, end-tidal pressures against each other and with breath depth', async () => {
    const { formats } = await loadPlugins();
    const file = 'test/fixtures/vt/exercise_threshold_app_test.json';
    const real = noiseStatistics((await readUpload('exercise_threshold_app_test.json', readFileSync(file), formats)).recording, RAMP_FROM_S);
    const twins = [0, 1, 2, 3, 4, 5].map((i) =>
      noiseStatistics(generateTest({ ...TWIN, seed: 600 + i, realism: { breath_noise: { vo2_sd_ml_min: 145 }, unrecorded_warmup: true } }).recording, RAMP_FROM_S),
    );
    const mean = (pick: (s: typeof real) => number) => twins.reduce((a, s) => a + pick(s), 0) / twins.length;
    for (const k of ['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'] as const)
      expect(
        mean((s) => s.sd[k]),
        k,
      ).to.be.within(0.75 * real.sd[k], 1.3 * real.sd[k]);
    for (const k of ['ve_vo2', 've_vco2', 'vo2_vco2', 'peto2_petco2', 'peto2_ve', 'petco2_ve'] as const)
      expect(
        mean((s) => s.correlation[k]),
        k,
      ).to.be.closeTo(real.correlation[k], 0.1);
    expect(mean((s) => s.per_relative_ve.PetO2)).to.be.above(0.7 * real.per_relative_ve.PetO2);
    expect(mean((s) => s.per_relative_ve.PetCO2)).to.be.below(0.6 * real.per_relative_ve.PetCO2);
    expect(mean((s) => s.lag1.PetO2)).to.be.within(0.25, 0.6);
    expect(mean((s) => Math.abs(s.lag1.VO2))).to.be.below(0.15);
  });

  it('draws the measured SD around the reference scaled to the subject, and the same bytes for the same seed', () => {
    const small = generateTest({ ...TWIN, seed: 700, vo2peak_ml_min: 1800, realism: { breath_noise: 'measured' } });
    const big = generateTest({ ...TWIN, seed: 700, realism: { breath_noise: 'measured' } });
    const sdOf = (g: typeof small) => noiseStatistics(g.recording, RAMP_FROM_S).sd.VO2;
    expect(sdOf(small)).to.be.within(145 * Math.sqrt(1800 / 4694) * 0.7, 145 * Math.sqrt(1800 / 4694) * 1.35);
    expect(sdOf(big)).to.be.within(145 * 0.7, 145 * 1.35);
    expect(JSON.stringify(generateTest({ ...TWIN, seed: 700, realism: { breath_noise: 'measured' } }).recording)).to.equal(JSON.stringify(big.recording));
  });

  it('keeps the breath timing of the main stream and the subject of the seed', () => {
    const plain = generateTest({ seed: 8 });
    const noisy = generateTest({ seed: 8, realism: { breath_noise: 'measured' } });
    expect(noisy.truth.vt1).to.deep.equal(plain.truth.vt1);
    expect(noisy.recording.subject).to.deep.equal(plain.recording.subject);
    expect(noisy.recording.t_s[0]).to.equal(plain.recording.t_s[0]);
  });

  it('unsettles only the first seconds on the mouthpiece', () => {
    for (const seed of [40, 41, 42, 43, 44, 45]) {
      const calm = generateTest({ seed, realism: { breath_noise: 'measured' } });
      const settling = generateTest({ seed, realism: { breath_noise: 'measured', settling_s: 60 } });
      const ve = (g: typeof calm) => g.recording.channels.VE!.values as number[];
      const early = calm.recording.t_s.map((_, i) => i).filter((i) => calm.recording.t_s[i] < 50);
      const late = calm.recording.t_s.map((_, i) => i).filter((i) => calm.recording.t_s[i] >= 60);
      expect(late.map((i) => ve(settling)[i])).to.deep.equal(late.map((i) => ve(calm)[i]));
      expect(early.some((i) => Math.abs(ve(settling)[i] - ve(calm)[i]) > 0.05 * ve(calm)[i])).to.equal(true);
    }
  });

  it('sighs at rest now and then: single deep breaths that lower PetCO2', () => {
    let sighs = 0;
    for (const seed of [50, 51, 52, 53, 54, 55, 56, 57]) {
      const g = generateTest({ seed, rest_s: 600, warmup_s: 0, exercise_s: 300, realism: { breath_noise: { vo2_sd_ml_min: 60 } } });
      const ve = g.recording.channels.VE!.values as number[];
      const petco2 = g.recording.channels.PetCO2!.values as number[];
      const rest = g.recording.t_s.map((_, i) => i).filter((i) => g.recording.t_s[i] > 30 && g.recording.t_s[i] < 590);
      const median = [...rest.map((i) => ve[i])].sort((a, b) => a - b)[Math.floor(rest.length / 2)];
      const co2 = [...rest.map((i) => petco2[i])].sort((a, b) => a - b)[Math.floor(rest.length / 2)];
      sighs += rest.filter((i) => ve[i] > 1.55 * median && petco2[i] < co2 - 1.5).length;
    }
    // About 12 an hour at rest: some 15 in 8 x 9 min.
    expect(sighs).to.be.within(5, 30);
  });
});
