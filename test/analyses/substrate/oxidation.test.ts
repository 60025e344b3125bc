import { expect } from 'chai';
import { analyseSubstrate } from '../../../analyses/substrate/analyse.js';
import { choGMin, fatGMin, metabolicPowerW, pctEnergyFromFat } from '../../../analyses/substrate/oxidation.js';
import type { Recording } from '../../../src/recording/recording.js';

/**
 * A stepped cycle test built by hand: 120 s of rest at 0 W, then eight 180-s stages at
 * 50 + 25 k W with VO2 = 1000 + 300 k mL/min and RER = 0.80 + 0.025 k, every value constant
 * within its stage, sampled every 2 s.
 */
function handBuiltTest(): Recording {
  const t_s: number[] = [];
  const vo2: number[] = [];
  const vco2: number[] = [];
  const load: number[] = [];
  for (let t = 0; t < 120 + 8 * 180; t += 2) {
    t_s.push(t);
    if (t < 120) {
      vo2.push(400);
      vco2.push(340);
      load.push(0);
      continue;
    }
    const k = Math.floor((t - 120) / 180);
    const o = 1000 + 300 * k;
    vo2.push(o);
    vco2.push(o * (0.8 + 0.025 * k));
    load.push(50 + 25 * k);
  }
  return {
    t_s,
    channels: {
      VO2: { values: vo2, unit_in: 'mL/min' },
      VCO2: { values: vco2, unit_in: 'mL/min' },
      Load: { values: load, unit_in: 'W' },
    },
    absent: {},
    sampling: { method: 'averaged', raw_interval_s: 2, interval_known: true, averaging_s: 2 },
    phases: [],
    subject: {},
    embedded_thresholds: [],
    flags: [],
    clock: { raw_span_s: t_s[t_s.length - 1], repaired_span_s: t_s[t_s.length - 1], samples_dropped: 0, repair_applied: null, monotonic_as_read: true },
    format: 'canonical-json',
  };
}

describe('substrate oxidation equations', () => {
  it('give the hand-computed fat, carbohydrate and energy share for VO2 1.000 and VCO2 0.800 L/min', () => {
    // fat = 1.695 * 1.000 - 1.701 * 0.800 = 1.695 - 1.3608 = 0.3342 g/min
    // cho = 4.585 * 0.800 - 3.226 * 1.000 = 3.668 - 3.226 = 0.4420 g/min
    // energy: fat 0.3342 * 9.75 = 3.25845, cho 0.4420 * 4.18 = 1.84756 kcal/min; total 5.10601
    // share from fat = 3.25845 / 5.10601 = 63.8160 %
    expect(fatGMin(1, 0.8)).to.be.closeTo(0.3342, 1e-12);
    expect(choGMin(1, 0.8)).to.be.closeTo(0.442, 1e-12);
    expect(pctEnergyFromFat(0.3342, 0.442)).to.be.closeTo(63.816, 1e-3);
    // metabolic power = 5.10601 kcal/min * 4184 J/kcal / 60 s = 356.0591 W
    expect(metabolicPowerW(0.3342, 0.442)).to.be.closeTo(356.0591, 1e-3);
  });

  it('let the fat rate read negative above RER 1.0 instead of clipping it', () => {
    // RER 1.1: fat = 1.695 * 2 - 1.701 * 2.2 = 3.39 - 3.7422 = -0.3522 g/min
    expect(fatGMin(2, 2.2)).to.be.closeTo(-0.3522, 1e-12);
  });
});

describe('substrate window arithmetic', () => {
  it('reports the first stage of a hand-built test with the hand-computed rates, share and efficiency', () => {
    const result = analyseSubstrate(handBuiltTest());
    expect(result.status).to.equal('ok');
    if (result.status !== 'ok') return;
    const f = result.findings;
    expect(f.window_source).to.equal('protocol stages');
    expect(f.windows).to.have.length(8);
    const w = f.windows[0];
    // The last 60 s of stage 0 (240-300 s): VO2 1.000 L/min, VCO2 0.800 L/min, 50 W.
    expect(w.t_start).to.equal(240);
    expect(w.vo2).to.equal(1);
    expect(w.vco2).to.equal(0.8);
    expect(w.rer).to.equal(0.8);
    expect(w.fat_g_min).to.equal(0.3342);
    expect(w.cho_g_min).to.equal(0.442);
    expect(w.pct_ee_fat).to.equal(63.82);
    expect(w.fat_valid).to.equal(true);
    expect(w.load_w).to.equal(50);
    // VO2peak is the top stage, 1000 + 300 * 7 = 3100 mL/min, so 1.000 L/min is 32.26 %.
    expect(f.vo2peak).to.equal(3.1);
    expect(w.pct_vo2peak).to.equal(32.26);
    // Gross efficiency = 50 W / 356.0591 W = 14.04 %.
    expect(f.efficiency.available).to.equal(true);
    if (f.efficiency.available) expect(f.efficiency.windows[0].gross_efficiency_pct).to.equal(14.04);
    // The rest at 0 W is dropped and said so.
    expect(f.flags.map((x) => x.code)).to.include('trimmed_to_exercise');
  });

  it('marks the stages above RER 1.0 as not valid and withholds their impossible negative fat rate', () => {
    const result = analyseSubstrate(handBuiltTest());
    if (result.status !== 'ok') throw new Error(result.message);
    // The highest stage has RER 0.975: none is above 1.0, so there is no rer_above_one flag.
    expect(result.findings.windows.every((w) => w.fat_valid)).to.equal(true);
    expect(result.findings.flags.map((x) => x.code)).to.not.include('rer_above_one');
    const steep = handBuiltTest();
    const vco2 = steep.channels.VCO2!.values;
    const vo2 = steep.channels.VO2!.values;
    // Push the last stage (t >= 120 + 7 * 180) to RER 1.10.
    steep.t_s.forEach((t, i) => {
      if (t >= 1380) vco2[i] = 1.1 * (vo2[i] as number);
    });
    const r2 = analyseSubstrate(steep);
    if (r2.status !== 'ok') throw new Error(r2.message);
    const last = r2.findings.windows[7];
    expect(last.fat_valid).to.equal(false);
    // fat = 1.695 * 3.1 - 1.701 * 3.41 = 5.2545 - 5.80041 = -0.54591 g/min: impossible, so withheld with its share.
    expect(last.withheld).to.equal(true);
    expect(last.fat_g_min).to.equal(null);
    expect(last.pct_ee_fat).to.equal(null);
    expect(r2.findings.flags.find((x) => x.code === 'impossible_values')?.detail).to.match(/^1 of 8 windows/);
    const rer = r2.findings.flags.find((x) => x.code === 'rer_above_one');
    expect(rer?.detail).to.match(/^1 of 8 windows/);
  });
});
