import { expect } from 'chai';
import { domainProbabilities } from '../../../analyses/vt/domains.js';
import { ServiceError } from '../../../src/errors.js';
import { generateSampleTest } from '../../../src/synthetic/sample.js';
import { withoutChannel } from './helpers.js';

const sample = generateSampleTest(false);
const research = { tier: 'research' as const, allowed_models: null };

async function failure(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a ServiceError');
}

describe('vt domain probabilities (internal web route)', () => {
  it('gives one probability triple per second up to the VO2 peak, each summing to one', async () => {
    const d = await domainProbabilities(sample.recording, { key: research });
    if (d.status !== 'ok') throw new Error(`expected curves, got ${d.error}`);
    expect(d.model.name).to.equal('gandalf');
    expect(d.t_s.length).to.equal(d.moderate.length);
    expect(d.t_s[1] - d.t_s[0]).to.equal(1);
    expect(d.t_s.at(-1)).to.be.below(sample.truth.phases.end_s);
    for (let i = 0; i < d.t_s.length; i += 50) expect(d.moderate[i] + d.heavy[i] + d.severe[i]).to.be.closeTo(1, 1e-3);
    // Moderate at rest, severe the likeliest domain near the peak of the ramp.
    expect(d.moderate[0]).to.be.above(0.9);
    expect(d.severe.at(-1)).to.be.above(Math.max(d.moderate.at(-1)!, d.heavy.at(-1)!));
  });

  it('refuses the classic engine, which has no curves, and an unknown model with MODEL_NOT_FOUND', async () => {
    expect((await failure(domainProbabilities(sample.recording, { model: 'wasserman', key: research }))).code).to.equal('MODEL_NOT_FOUND');
    expect((await failure(domainProbabilities(sample.recording, { model: 'gollum', key: research }))).code).to.equal('MODEL_NOT_FOUND');
  });

  it('chooses the model as analyze does for the key: restricted keys get MODEL_NOT_ALLOWED', async () => {
    const restricted = { tier: 'research' as const, allowed_models: ['wasserman'] };
    expect((await failure(domainProbabilities(sample.recording, { model: 'gandalf', key: restricted }))).code).to.equal('MODEL_NOT_ALLOWED');
  });

  it('answers a recording without PetCO2 as analyze does: not_analysable with MISSING_CHANNEL naming it', async () => {
    const d = await domainProbabilities(withoutChannel(sample.recording, 'PetCO2'), { key: research });
    expect(d).to.deep.include({ status: 'not_analysable', error: 'MISSING_CHANNEL' });
    if (d.status === 'not_analysable') expect(d.context).to.deep.include({ missing: ['PetCO2'] });
  });
});
