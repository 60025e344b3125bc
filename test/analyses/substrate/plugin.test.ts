import { expect } from 'chai';
import plugin from '../../../analyses/substrate/index.js';
import { METHOD_VERSION } from '../../../analyses/substrate/analyse.js';
import { computeSubstrateSummary, type SubstrateSummary } from '../../../analyses/substrate/summary.js';
import { generateTest } from '../../../src/synthetic/generate.js';

const request = { key: { tier: 'free' as const, allowed_models: null } };

describe('substrate plugin', () => {
  it('exports only a default plugin named substrate that needs VO2 and VCO2', async () => {
    const mod = await import('../../../analyses/substrate/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(plugin.name).to.equal('substrate');
    expect(plugin.product).to.equal('substrate');
    expect(plugin.requires).to.deep.equal(['VO2', 'VCO2']);
    expect(plugin.metrics?.map((m) => m.name)).to.deep.equal(['substrate_summary']);
  });

  it('returns findings, notes and the method version, and never an envelope', async () => {
    const test = generateTest({ seed: 3, protocol: 'steps', step_s: 180, exercise_s: 1800, fatmax_fraction: 0.5, vt1_fraction: 0.6 });
    const outcome = await plugin.run(test.recording, request);
    expect(outcome.status).to.equal('ok');
    expect(outcome.model).to.deep.equal({ name: 'substrate', version: METHOD_VERSION });
    if (outcome.status !== 'ok') return;
    expect(outcome.findings).to.include.keys('vo2peak', 'window_source', 'window_s', 'n_windows', 'windows', 'fatmax', 'crossover', 'efficiency', 'flags', 'method');
    expect(outcome.findings).to.not.have.any.keys('status', 'quality', 'provenance');
    expect(outcome.notes.length).to.be.greaterThan(0);
  });

  it('turns a missing gas into not_analysable with MISSING_CHANNEL', async () => {
    const test = generateTest({ seed: 3, protocol: 'steps' });
    delete test.recording.channels.VO2;
    const outcome = await plugin.run(test.recording, request);
    expect(outcome.status).to.equal('not_analysable');
    if (outcome.status === 'not_analysable') {
      expect(outcome.error).to.equal('MISSING_CHANNEL');
      expect(outcome.context).to.deep.include({ missing: ['VO2'] });
    }
  });
});

describe('substrate_summary metric', () => {
  it('reports FATMAX, steady state and windows above RER 1.0 from the same analysis', () => {
    const test = generateTest({ seed: 3, protocol: 'steps', step_s: 180, exercise_s: 1800, fatmax_fraction: 0.5, vt1_fraction: 0.6 });
    const result = computeSubstrateSummary(test.recording);
    expect(result.status).to.equal('ok');
    if (result.status !== 'ok') return;
    const v = result.value as SubstrateSummary;
    expect(v.fatmax_found).to.equal(true);
    expect(v.fat_peak_source).to.equal('fitted FATMAX');
    expect(v.steady_state).to.equal(true);
    expect(v.windows_above_rer_one).to.be.greaterThan(0);
    expect(v.fat_peak_load_w).to.be.a('number');
    expect(Math.abs(v.fat_peak_pct_vo2peak - 50)).to.be.below(5);
  });

  it('says steady_state false on a ramp', () => {
    const result = computeSubstrateSummary(generateTest({ seed: 1, protocol: 'ramp' }).recording);
    expect(result.status).to.equal('ok');
    if (result.status === 'ok') expect((result.value as SubstrateSummary).steady_state).to.equal(false);
  });

  it('is unavailable with a reason when too few windows lie below RER 1.0', () => {
    const result = computeSubstrateSummary(generateTest({ seed: 2, protocol: 'steps', step_s: 180, exercise_s: 600 }).recording);
    expect(result.status).to.equal('unavailable');
    if (result.status === 'unavailable') {
      expect(result.error).to.equal('INSUFFICIENT_SIGNAL');
      expect(result.message).to.match(/needs at least 4/);
    }
  });
});
