import { expect } from 'chai';
import { configFromEnv, OPERATIONS_DEFAULTS } from '../src/config.js';

describe('configuration: the workers warm-up (issue 23)', () => {
  it('warms up twenty rounds within five seconds unless told otherwise', () => {
    const ops = configFromEnv({}).operations;
    expect(ops?.warmUpRounds).to.equal(OPERATIONS_DEFAULTS.warmUpRounds).and.equal(20);
    expect(ops?.warmUpBudgetMs).to.equal(OPERATIONS_DEFAULTS.warmUpBudgetMs).and.equal(5_000);
  });

  it('reads WARM_UP_ROUNDS and WARM_UP_BUDGET_S (seconds)', () => {
    const ops = configFromEnv({ WARM_UP_ROUNDS: '0', WARM_UP_BUDGET_S: '2' }).operations;
    expect(ops?.warmUpRounds).to.equal(0);
    expect(ops?.warmUpBudgetMs).to.equal(2_000);
  });

  it('refuses a warm-up that is not a whole number', () => {
    expect(() => configFromEnv({ WARM_UP_ROUNDS: 'many' })).to.throw(/WARM_UP_ROUNDS/);
    expect(() => configFromEnv({ WARM_UP_BUDGET_S: '-1' })).to.throw(/WARM_UP_BUDGET_S/);
  });
});
