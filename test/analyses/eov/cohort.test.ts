import { expect } from 'chai';
import plugin from '../../../analyses/eov/index.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import type { GeneratorOptions, SamplingOption } from '../../../src/synthetic/types.js';

const request = { key: { tier: 'free' as const, allowed_models: null } };
const PROTOCOLS = ['ramp', 'steps', 'treadmill'] as const;
const SAMPLINGS: SamplingOption[] = [{ kind: 'breath' }, { kind: 'interval', interval_s: 2 }, { kind: 'averaged', window_s: 10 }];
const SEEDS = Array.from({ length: 18 }, (_, k) => 100 + k);

/** Protocol and sampling vary with the seed, so the cohort covers every pair. */
function base(seed: number): GeneratorOptions {
  return { seed, protocol: PROTOCOLS[seed % 3], sampling: SAMPLINGS[Math.floor(seed / 3) % 3] };
}

describe('EOV over a small synthetic cohort', () => {
  it('grades none of 18 tests without oscillation, across protocols and samplings', async () => {
    const graded: number[] = [];
    for (const seed of SEEDS) {
      const out = await plugin.run(generateTest(base(seed)).recording, request);
      if (out.status === 'ok' && out.findings.grade !== 'none') graded.push(seed);
    }
    expect(graded).to.deep.equal([]);
  });

  it('grades at least 16 of 18 placed oscillations (40-120 s, 15-40 %) within 10 % of their period', async () => {
    let found = 0;
    for (const seed of SEEDS) {
      const period = 40 + ((seed * 37) % 80);
      const test = generateTest({ ...base(seed), oscillation: { period_s: period, amplitude_fraction: 0.15 + ((seed * 13) % 25) / 100 } });
      const out = await plugin.run(test.recording, request);
      if (out.status !== 'ok' || out.findings.grade === 'none') continue;
      const event = out.findings.event as { period_peak_s: number };
      expect(event.period_peak_s, `seed ${seed}`).to.be.within(period * 0.9, period * 1.1);
      found++;
    }
    expect(found).to.be.at.least(16);
  });
});
