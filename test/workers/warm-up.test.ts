import { expect } from 'chai';
import { createTaskRunner } from '../../src/workers/pool.js';
import { runTask, warmUp } from '../../src/workers/tasks.js';
import { encodeRecording } from '../../src/store/record-codec.js';
import { generateSampleTest } from '../../src/synthetic/sample.js';

describe('worker warm-up before readiness (issue 23)', () => {
  it('answers readiness only once every thread has built its sessions and run the analyses once', async function () {
    this.timeout(120_000);
    const runner = createTaskRunner({ workers: 2, taskTimeoutMs: 60_000, workerMemoryMb: 1024, queueLimit: 10 });
    try {
      // A thread spends far longer warming up (plugins, ONNX sessions, an analyze-all) than this takes to ask.
      expect(await runner.ping(50)).to.equal(false);
      let ready = false;
      for (let i = 0; i < 600 && !ready; i++) {
        ready = await runner.ping(2000);
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      expect(ready).to.equal(true);
      const rec = generateSampleTest(false).recording;
      const task = {
        kind: 'analyze' as const,
        recording: { encoded: encodeRecording(rec) },
        names: ['vt' as const, 'eov' as const, 'substrate' as const],
        request: { key: { tier: 'research' as const, allowed_models: null } },
        packages: [],
      };
      const inThread = await runner.run(task);
      const inline = await runTask({ ...task, recording: { encoded: encodeRecording(rec) } });
      const findings = (r: typeof inline) => (r.ok && r.kind === 'analyze' ? r.value.map((e) => e.findings) : r);
      expect(findings(inThread)).to.deep.equal(findings(inline));
    } finally {
      await runner.close();
    }
  });
});

describe('warm-up plan (issue 23: V8 optimises vt only after tens of calls)', () => {
  it('runs the rounds it is asked for within its budget', async function () {
    this.timeout(120_000);
    expect(await warmUp([], { rounds: 3, budget_ms: 60_000 })).to.equal(3);
  });

  it('starts no round past its budget, but always runs the first', async function () {
    this.timeout(120_000);
    expect(await warmUp([], { rounds: 1000, budget_ms: 0 })).to.equal(1);
  });

  it('builds the sessions alone with no rounds', async function () {
    this.timeout(120_000);
    expect(await warmUp([], { rounds: 0, budget_ms: 60_000 })).to.equal(0);
  });
});
