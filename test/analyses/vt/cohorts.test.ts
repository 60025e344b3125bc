import { expect } from 'chai';
import { heldOutArtifactCohort, heldOutCohort, heldOutRealisticCohort, heldOutWideCohort, realisticRows, trainingCohort, trainingRealisticCohort } from '../../../scripts/train/cohorts.js';
import { oxynetRows } from '../../../scripts/train/oxynet-rows.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { heldOutAveragedCohort, heldOutShortTailCohort } from '../../../scripts/train/evaluation-cohorts.js';

describe('vt training and evaluation cohorts', () => {
  it('never share a seed, so every held-out cohort is unseen by training and by the others', () => {
    const train = new Set([...trainingCohort(900, 'v1'), ...trainingCohort(900, 'v2'), ...trainingRealisticCohort(240)].map((o) => o.seed));
    const held = [...heldOutCohort(30), ...heldOutWideCohort(20), ...heldOutArtifactCohort(20), ...heldOutRealisticCohort(240), ...heldOutShortTailCohort(30), ...heldOutAveragedCohort(20)];
    expect(heldOutCohort(30).length).to.be.at.least(300);
    for (const o of held) expect(train.has(o.seed)).to.equal(false);
    expect(new Set(held.map((o) => o.seed)).size).to.equal(held.length);
  });

  it('spans all three protocols and four fitness levels in the held-out cohort', () => {
    const held = heldOutCohort(30);
    expect(new Set(held.map((o) => o.protocol))).to.deep.equal(new Set(['ramp', 'steps', 'treadmill']));
    const peaks = held.map((o) => o.vo2peak_ml_min as number);
    expect(Math.min(...peaks)).to.be.below(1800);
    expect(Math.max(...peaks)).to.be.above(4300);
  });

  it('draws the same settings on every call', () => {
    expect(JSON.stringify(trainingCohort(50))).to.equal(JSON.stringify(trainingCohort(50)));
    expect(JSON.stringify(heldOutCohort(5))).to.equal(JSON.stringify(heldOutCohort(5)));
  });

  it('splits the Oxynet rows in two: even rows held out, odd rows for training, every row used once', () => {
    const held = realisticRows(0);
    const train = realisticRows(1);
    const key = (r: { file: string; row: number }) => `${r.file}:${r.row}`;
    expect(held.every((r) => r.row % 2 === 0)).to.equal(true);
    expect(train.every((r) => r.row % 2 === 1)).to.equal(true);
    const all = [...oxynetRows('resting'), ...oxynetRows('ramp')];
    expect(all.length).to.equal(228);
    expect(new Set([...held, ...train].map(key))).to.deep.equal(new Set(all.map(key)));
    expect(held.filter((r) => r.rest).length).to.equal(90);
    expect(held.filter((r) => !r.rest).length).to.equal(24);
  });

  it('mirrors each held-out row: the truth lands on its VT1 and VT2, exercise ends at its duration or 10-60 s after VT2', function () {
    // 114 generated tests at about 270 ms each idle: the suite's 60-s budget leaves no margin on a loaded machine.
    this.timeout(240_000);
    const options = heldOutRealisticCohort();
    const rows = realisticRows(0);
    expect(options.length).to.equal(114);
    const sampling = new Set<string>();
    let plateaus = 0;
    let shortEnds = 0;
    const delays: number[] = [];
    for (const [i, o] of options.entries()) {
      const { truth, recording } = generateTest(o);
      const row = rows[i];
      expect(truth.vt1?.time_s, `test ${i}`).to.equal(row.vt1_s);
      expect(truth.vt2?.time_s, `test ${i}`).to.equal(row.vt2_s);
      const end = truth.phases.exercise_end_s;
      if (end !== row.duration_s) {
        shortEnds++;
        expect(end - row.vt2_s, `test ${i}`).to.be.within(10, 60);
      }
      // The criteria the engines read sit around the metabolic VT1, a reading delay before the expert's.
      delays.push(row.vt1_s - o.realism!.vt1_at_s!);
      expect(truth.phases.rest_end_s > 0).to.equal(row.rest);
      expect(o.vo2peak_ml_min).to.equal(row.vo2peak_ml_min);
      expect(Object.values(truth.criteria).filter((c) => c === null).length).to.be.at.most(1);
      sampling.add(o.sampling!.kind);
      if (o.realism!.plateau_s! > 0) plateaus++;
      expect(recording.t_s.length).to.be.at.least(30);
    }
    expect([...sampling].sort()).to.deep.equal(['averaged', 'breath', 'interpolated_1hz', 'rolling_breaths', 'rolling_time']);
    expect(plateaus / options.length).to.be.within(0.25, 0.55);
    expect(shortEnds / options.length).to.be.within(0.2, 0.45);
    const meanDelay = delays.reduce((a, b) => a + b, 0) / delays.length;
    expect(meanDelay).to.be.within(70, 100);
    expect(Math.min(...delays)).to.be.at.least(10);
  });

  it('mirrors the odd rows in the realistic training cohort the same way', () => {
    const options = trainingRealisticCohort(20);
    const rows = realisticRows(1);
    for (const [i, o] of options.entries()) {
      const { truth } = generateTest(o);
      expect(truth.vt1?.time_s).to.equal(rows[i].vt1_s);
      expect(truth.vt2?.time_s).to.equal(rows[i].vt2_s);
    }
    expect(trainingRealisticCohort().length).to.equal(114);
  });

  it('draws the same realistic settings on every call', () => {
    expect(JSON.stringify(heldOutRealisticCohort())).to.equal(JSON.stringify(heldOutRealisticCohort()));
    expect(JSON.stringify(heldOutRealisticCohort(130).slice(0, 114))).to.equal(JSON.stringify(heldOutRealisticCohort()));
  });
});
