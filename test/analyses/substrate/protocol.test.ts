import { expect } from 'chai';
import { analyseSubstrate } from '../../../analyses/substrate/analyse.js';
import { DEFAULTS } from '../../../analyses/substrate/options.js';
import { readProtocol } from '../../../analyses/substrate/protocol.js';
import { generateTest } from '../../../src/synthetic/generate.js';

function flagDetail(seedOptions: Parameters<typeof generateTest>[0], code: string): string | undefined {
  const result = analyseSubstrate(generateTest(seedOptions).recording);
  if (result.status !== 'ok') throw new Error(`${result.error}: ${result.message}`);
  return result.findings.flags.find((f) => f.code === code)?.detail;
}

describe('substrate protocol reading', () => {
  it('finds every 3-min stage of a cycle step test from the load', () => {
    const test = generateTest({ seed: 5, protocol: 'steps', step_s: 180, exercise_s: 1800 });
    const t = test.truth.phases;
    const reading = readProtocol(test.recording, { t_start_s: t.rest_end_s, t_end_s: t.exercise_end_s }, ['Load'], DEFAULTS);
    expect(reading.kind).to.equal('steps');
    // The unloaded warm-up plus ten stages.
    expect(reading.stages).to.have.length(11);
    for (const s of reading.stages.slice(1)) expect(s.t_end_s - s.t_start_s).to.be.closeTo(180, 6);
  });

  it('flags a ramp read from the load', () => {
    expect(flagDetail({ seed: 6, protocol: 'ramp' }, 'ramp_protocol')).to.match(/^Load rises without holding still/);
  });

  it('flags a ramp read from VO2 when there is no work rate', () => {
    expect(flagDetail({ seed: 6, protocol: 'ramp', load: false }, 'ramp_protocol')).to.match(/no work-rate channel/);
  });

  it('treats 1-min steps as a ramp: too short for a steady state', () => {
    expect(flagDetail({ seed: 6, protocol: 'steps', step_s: 60, exercise_s: 900 }, 'ramp_protocol')).to.match(/median constant stretch 60 s/);
  });

  it('does not flag a ramp on 3-min steps', () => {
    expect(flagDetail({ seed: 6, protocol: 'steps', step_s: 180, exercise_s: 1800 }, 'ramp_protocol')).to.equal(undefined);
  });
});
