import { expect } from 'chai';
import { heldOutArtifactCohort, heldOutCohort, heldOutWideCohort, trainingCohort } from '../../../scripts/train/cohorts.js';

describe('vt training and evaluation cohorts', () => {
  it('never share a seed, so every held-out cohort is unseen by training and by the others', () => {
    const train = new Set([...trainingCohort(900, 'v1'), ...trainingCohort(900, 'v2')].map((o) => o.seed));
    const held = [...heldOutCohort(30), ...heldOutWideCohort(20), ...heldOutArtifactCohort(20)];
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
});
