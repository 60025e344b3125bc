import { expect } from 'chai';
import { encodeRecording } from '../../src/store/record-codec.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { createTaskRunner } from '../../src/workers/pool.js';

/** A recording at the 20,000-sample limit: vt on it takes far longer than the budgets below. */
const LONG = generateTest({ seed: 1, protocol: 'ramp', exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } }).recording;

async function readyRunner(taskTimeoutMs: number) {
  const runner = createTaskRunner({ workers: 1, taskTimeoutMs, workerMemoryMb: 1024, queueLimit: 10 });
  for (let i = 0; i < 600 && !(await runner.ping(2000)); i++) await new Promise((r) => setTimeout(r, 100));
  return runner;
}

describe('task budgets and threads inside an inference', () => {
  it('answers an analysis past its budget at once, and its thread finishes it and serves the next task', async function () {
    this.timeout(180_000);
    const runner = await readyRunner(20);
    try {
      const analyze = () => runner.run({ kind: 'analyze', recording: { encoded: encodeRecording(LONG) }, names: ['vt'], request: { key: { tier: 'research', allowed_models: null } }, packages: [] });
      const late = await analyze();
      expect(late.ok).to.equal(false);
      if (!late.ok) expect(late.error).to.deep.include({ code: 'INFERENCE_FAILED', context: { limit: 'task_time_s', budget: 0.02 } });
      expect(await runner.ping(60_000)).to.equal(true);
    } finally {
      await runner.close();
    }
  });

  it('closes while its threads still warm up, waiting for their warm-up rather than stopping them inside it', async function () {
    this.timeout(180_000);
    for (const afterMs of [0, 300, 1000]) {
      const runner = createTaskRunner({ workers: 2, taskTimeoutMs: 60_000, workerMemoryMb: 1024, queueLimit: 10 });
      await new Promise((r) => setTimeout(r, afterMs));
      await runner.close();
    }
  });
});
