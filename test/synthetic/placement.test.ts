import { expect } from 'chai';
import { generateTest } from '../../src/synthetic/generate.js';
import type { GeneratorOptions } from '../../src/synthetic/types.js';

/** Noise-free breaths: each reading is the true signal at the breath's end. */
const CLEAN: Partial<GeneratorOptions> = { noise_cv: 0, outlier_rate: 0 };

describe('synthetic timeline placement', () => {
  it('puts the VT1 and VT2 crossings on the seconds asked for, with rest, warm-up or neither', () => {
    const cases = [
      { rest_s: 120, warmup_s: 120, exercise_s: 600, vt1_at_s: 480, vt2_at_s: 690 },
      { rest_s: 180, warmup_s: 0, exercise_s: 540, vt1_at_s: 420, vt2_at_s: 600 },
      { rest_s: 0, warmup_s: 0, exercise_s: 620, vt1_at_s: 230, vt2_at_s: 470 },
    ];
    for (const [k, c] of cases.entries()) {
      for (const seed of [21, 22, 23]) {
        const { vt1_at_s, vt2_at_s, ...phases } = c;
        const g = generateTest({ seed, ...phases, realism: { vt1_at_s, vt2_at_s, unrecorded_warmup: k === 2 } });
        expect(g.truth.vt1?.time_s).to.equal(vt1_at_s);
        expect(g.truth.vt2?.time_s).to.equal(vt2_at_s);
      }
    }
  });

  for (const after of [10, 30, 60]) {
    it(`ends exercise ${after} s after the true VT2 and leaves the thresholds where the uncut test has them`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const uncut = generateTest({ seed, exercise_s: 800 });
        const cut = generateTest({ seed, exercise_s: 800, realism: { end_after_vt2_s: after } });
        expect(cut.truth.vt1).to.deep.equal(uncut.truth.vt1);
        expect(cut.truth.vt2).to.deep.equal(uncut.truth.vt2);
        expect(cut.truth.phases.exercise_end_s - cut.truth.vt2!.time_s).to.equal(after);
        const lastExercise = cut.recording.t_s.filter((t) => t <= cut.truth.phases.exercise_end_s).at(-1)!;
        expect(lastExercise).to.be.within(cut.truth.vt2!.time_s + after - 12, cut.truth.vt2!.time_s + after);
        const before = uncut.recording.t_s.filter((t) => t < cut.truth.phases.exercise_end_s - 1).length;
        expect(cut.recording.channels.VO2!.values.slice(0, before)).to.deep.equal(uncut.recording.channels.VO2!.values.slice(0, before));
      }
    });
  }

  it('runs the ramp on past its planned end when VT2 plus the wait comes later', () => {
    const g = generateTest({ seed: 9, exercise_s: 500, vt2_fraction: 0.95, realism: { end_after_vt2_s: 60 } });
    expect(g.truth.phases.exercise_end_s).to.equal(g.truth.vt2!.time_s + 60);
    expect(g.truth.phases.exercise_end_s).to.be.above(g.truth.phases.warmup_end_s + 500);
  });

  for (const plateau of [0, 30, 60]) {
    it(`reaches VO2peak ${plateau ? `${plateau} s before the end and holds it` : 'in the last second, still rising'}`, () => {
      for (const seed of [31, 32, 33]) {
        const g = generateTest({ seed, ...CLEAN, realism: { plateau_s: plateau } });
        const end = g.truth.phases.exercise_end_s;
        const t = g.recording.t_s;
        const vo2 = g.recording.channels.VO2!.values as number[];
        const peak = Math.round(g.truth.vo2peak_ml_min * 10) / 10;
        const held = t.map((_, i) => i).filter((i) => t[i] <= end && t[i] > end - plateau + 2);
        for (const i of held) expect(vo2[i]).to.equal(peak);
        const climbing = t.map((_, i) => i).filter((i) => t[i] < end - plateau - 3 && t[i] > end - plateau - 60);
        for (const i of climbing) expect(vo2[i]).to.be.below(peak);
        expect(climbing.length).to.be.above(3);
        const exercise = t.map((_, i) => i).filter((i) => t[i] <= end - 1 && t[i] > g.truth.phases.warmup_end_s);
        if (plateau === 0) expect(vo2[exercise.at(-1)!]).to.equal(Math.max(...exercise.map((i) => vo2[i])));
      }
    });
  }

  it('starts a test with no rest in exercise, at the first load rather than at rest, when the warm-up went unrecorded', () => {
    const seated = generateTest({ seed: 5, rest_s: 0, warmup_s: 0, ...CLEAN });
    const warm = generateTest({ seed: 5, rest_s: 0, warmup_s: 0, ...CLEAN, realism: { unrecorded_warmup: true } });
    expect(warm.recording.phases.map((p) => p.phase)).to.deep.equal(['exercise', 'recovery']);
    const first = (g: typeof warm) => g.recording.channels.VO2!.values[0] as number;
    expect(first(warm)).to.be.above(first(seated) * 1.5);
  });

  it('refuses a threshold the protocol cannot place', () => {
    expect(() => generateTest({ seed: 1, rest_s: 300, warmup_s: 0, realism: { vt1_at_s: 200 } })).to.throw(/vt1_at_s/);
    expect(() => generateTest({ seed: 1, exercise_s: 600, realism: { vt2_at_s: 800, plateau_s: 200 } })).to.throw(/vt2_at_s/);
  });
});

describe('synthetic expert reading delay', () => {
  it('moves only the truth: the recording is the default one, VT1 read the delay later at the VO2 there', () => {
    const plain = generateTest({ seed: 1 });
    const read = generateTest({ seed: 1, realism: { reading_delay_s: { vt1: 60, vt2: 0 } } });
    expect(JSON.stringify(read.recording)).to.equal(JSON.stringify(plain.recording));
    expect(read.truth.vt1!.time_s).to.equal(plain.truth.vt1!.time_s + 60);
    expect(read.truth.vt1!.vo2_ml_min).to.be.above(plain.truth.vt1!.vo2_ml_min);
    expect(read.truth.vt2).to.deep.equal(plain.truth.vt2);
    expect(read.truth.domain_1hz[plain.truth.vt1!.time_s + 30]).to.equal(0);
    expect(read.truth.domain_1hz[plain.truth.vt1!.time_s + 60]).to.equal(1);
  });

  it('reports no VT1 (and so no VT2) when exercise ends before the expert would read it', () => {
    const plain = generateTest({ seed: 1 });
    const late = plain.truth.phases.exercise_end_s - plain.truth.vt1!.time_s + 5;
    const read = generateTest({ seed: 1, realism: { reading_delay_s: { vt1: late, vt2: 0 } } });
    expect(read.truth.vt1).to.equal(null);
    expect(read.truth.vt2).to.equal(null);
  });
});
