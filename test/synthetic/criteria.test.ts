import { expect } from 'chai';
import { drawCriteriaOffsets } from '../../src/synthetic/criteria.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { createStreamRng } from '../../src/synthetic/random.js';
import type { CriteriaOffsets, GeneratedTest } from '../../src/synthetic/types.js';

/** Where each criterion landed relative to the threshold it marks (s). */
function landedOffsets(g: GeneratedTest): Record<keyof CriteriaOffsets, number | null> {
  const c = g.truth.criteria;
  const vt1 = g.truth.vt1!.time_s;
  const vt2 = g.truth.vt2!.time_s;
  const rel = (t: number | null, base: number) => (t === null ? null : t - base);
  return {
    peto2_nadir_s: rel(c.peto2_nadir_s, vt1),
    ve_vo2_nadir_s: rel(c.ve_vo2_nadir_s, vt1),
    petco2_peak_s: rel(c.petco2_peak_s, vt2),
    ve_vco2_nadir_s: rel(c.ve_vco2_nadir_s, vt2),
  };
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

describe('synthetic ventilatory criteria', () => {
  it('records where the default curves put them: the PetO2 nadir at VT1, the VE/VO2 nadir well before it', () => {
    for (const seed of SEEDS) {
      const off = landedOffsets(generateTest({ seed }));
      expect(Math.abs(off.peto2_nadir_s!)).to.be.at.most(1);
      expect(Math.abs(off.petco2_peak_s!)).to.be.at.most(1);
      expect(off.ve_vo2_nadir_s!).to.be.at.most(0);
    }
    const early = SEEDS.map((seed) => landedOffsets(generateTest({ seed })).ve_vo2_nadir_s!);
    expect(Math.min(...early)).to.be.below(-60);
  });

  it('lands explicit offsets where they are asked for on a ramp', () => {
    const asked: CriteriaOffsets = { peto2_nadir_s: -35, ve_vo2_nadir_s: 25, petco2_peak_s: 15, ve_vco2_nadir_s: -45 };
    for (const seed of SEEDS) {
      const off = landedOffsets(generateTest({ seed, realism: { criteria: asked } }));
      expect(off.peto2_nadir_s).to.be.closeTo(asked.peto2_nadir_s, 2);
      expect(off.ve_vo2_nadir_s).to.be.closeTo(asked.ve_vo2_nadir_s, 2);
      expect(off.petco2_peak_s).to.be.closeTo(asked.petco2_peak_s, 2);
      expect(off.ve_vco2_nadir_s).to.be.closeTo(asked.ve_vco2_nadir_s, 10);
    }
  });

  it('moves the end-tidal criteria on steps too, where each stage onset dips VE/VO2 on its own', () => {
    const asked: CriteriaOffsets = { peto2_nadir_s: -35, ve_vo2_nadir_s: 25, petco2_peak_s: 15, ve_vco2_nadir_s: -45 };
    for (const seed of SEEDS) {
      const off = landedOffsets(generateTest({ seed, protocol: 'steps', realism: { criteria: asked } }));
      expect(off.peto2_nadir_s).to.be.closeTo(asked.peto2_nadir_s, 2);
      expect(off.petco2_peak_s).to.be.closeTo(asked.petco2_peak_s, 2);
    }
  });

  it('lands drawn offsets where they were drawn, and leaves the metabolic truth where it was', () => {
    for (const seed of SEEDS) {
      const plain = generateTest({ seed });
      const g = generateTest({ seed, realism: { criteria: 'drawn' } });
      expect(g.truth.vt1).to.deep.equal(plain.truth.vt1);
      expect(g.truth.vt2).to.deep.equal(plain.truth.vt2);
      expect(Array.from(g.truth.domain_1hz)).to.deep.equal(Array.from(plain.truth.domain_1hz));
      const drawn = drawCriteriaOffsets(createStreamRng(seed, 1), g.truth.vt1!.time_s, g.truth.vt2!.time_s, g.truth.phases.warmup_end_s);
      const off = landedOffsets(g);
      expect(off.peto2_nadir_s).to.be.closeTo(drawn.peto2_nadir_s, 2);
      expect(off.ve_vo2_nadir_s).to.be.closeTo(drawn.ve_vo2_nadir_s, 2);
      expect(off.petco2_peak_s).to.be.closeTo(drawn.petco2_peak_s, 2);
      expect(off.ve_vco2_nadir_s).to.be.closeTo(drawn.ve_vco2_nadir_s, 10);
    }
  });

  it('draws offsets spread as chosen: VT1 criteria around +15 s, the PetCO2 peak just before VT2, the VE/VCO2 nadir before it', () => {
    const draws = Array.from({ length: 400 }, (_, i) => drawCriteriaOffsets(createStreamRng(i, 1), 600, 800, 240));
    const mean = (k: keyof CriteriaOffsets) => draws.reduce((a, d) => a + d[k], 0) / draws.length;
    const sd = (k: keyof CriteriaOffsets) => Math.sqrt(draws.reduce((a, d) => a + (d[k] - mean(k)) ** 2, 0) / draws.length);
    expect(mean('ve_vo2_nadir_s')).to.be.within(8, 22);
    expect(sd('ve_vo2_nadir_s')).to.be.within(20, 35);
    expect(mean('petco2_peak_s')).to.be.within(-16, -4);
    for (const d of draws) {
      expect(d.ve_vco2_nadir_s).to.be.within(-0.45 * 200, 0);
      expect(d.peto2_nadir_s).to.be.within(-90, 0.35 * 200);
    }
    const r = (a: keyof CriteriaOffsets, b: keyof CriteriaOffsets) => draws.reduce((s, d) => s + (d[a] - mean(a)) * (d[b] - mean(b)), 0) / draws.length / sd(a) / sd(b);
    expect(r('peto2_nadir_s', 've_vo2_nadir_s')).to.be.above(0.6);
  });

  it('records a criterion the test ended before as not reached', () => {
    const g = generateTest({ seed: 4, realism: { criteria: { peto2_nadir_s: 0, ve_vo2_nadir_s: 10, petco2_peak_s: 40, ve_vco2_nadir_s: -30 }, end_after_vt2_s: 15 } });
    expect(g.truth.criteria.petco2_peak_s).to.equal(null);
    expect(g.truth.criteria.ve_vo2_nadir_s! - g.truth.vt1!.time_s).to.be.closeTo(10, 2);
  });

  it('fits the VE/VCO2 slope it reports to the designed ventilation', () => {
    const g = generateTest({ seed: 11, noise_cv: 0, outlier_rate: 0, sampling: { kind: 'averaged', window_s: 10 }, realism: { criteria: 'drawn' } });
    const { recording, truth } = g;
    const ve = recording.channels.VE!.values as number[];
    const vco2 = recording.channels.VCO2!.values as number[];
    const idx = recording.t_s.map((_, i) => i).filter((i) => recording.t_s[i] > truth.phases.warmup_end_s + 10 && recording.t_s[i] < truth.vt2!.time_s);
    const mx = idx.reduce((a, i) => a + vco2[i] / 1000, 0) / idx.length;
    const my = idx.reduce((a, i) => a + ve[i], 0) / idx.length;
    const slope = idx.reduce((a, i) => a + (vco2[i] / 1000 - mx) * (ve[i] - my), 0) / idx.reduce((a, i) => a + (vco2[i] / 1000 - mx) ** 2, 0);
    expect(slope).to.be.closeTo(truth.ve_vco2_slope, 1);
  });
});
