import { expect } from 'chai';
import { runEov } from '../../../analyses/eov/run.js';
import { generateSampleTest } from '../../../src/synthetic/sample.js';

const key = { tier: 'research' as const, allowed_models: null };

describe('eov outcome kept per recording (vt reads the same grade for its note)', () => {
  it('gives each caller its own copy of the same outcome', async () => {
    const rec = generateSampleTest(true).recording;
    const first = await runEov(rec, { key });
    first.notes.push('changed by the first caller');
    const second = await runEov(rec, { key });
    expect(second.notes).to.not.include('changed by the first caller');
    expect(second).to.deep.equal(await runEov(structuredClone(rec), { key }));
  });

  it('keeps outcomes apart by medication list, the one part of a request the analysis reads', async () => {
    const rec = generateSampleTest(true).recording;
    const none = await runEov(rec, { key });
    const opioid = await runEov(rec, { key, medications: ['opioid'] });
    expect(opioid).to.deep.equal(await runEov(structuredClone(rec), { key, medications: ['opioid'] }));
    expect(JSON.stringify(opioid)).to.not.equal(JSON.stringify(none));
  });
});
