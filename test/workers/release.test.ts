import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { sessionFor } from '../../analyses/vt/engines/onnx-session.js';
import { createVtPlugin } from '../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, registryFor } from '../../analyses/vt/registry.js';
import { generateSampleTest } from '../../src/synthetic/sample.js';

/** Closes pools of two threads that hold ONNX sessions, idle or inside an inference, in a process of its own: an abort there is an exit code here. */
const CLOSES = `
const at = (path) => new URL(path, ${JSON.stringify(new URL('../../', import.meta.url).href)}).href;
const { createTaskRunner } = await import(at('src/workers/pool.ts'));
const { encodeRecording } = await import(at('src/store/record-codec.ts'));
const { generateTest } = await import(at('src/synthetic/generate.ts'));
const recording = generateTest({ seed: 1, protocol: 'ramp', exercise_s: 1800, sampling: { kind: 'interval', interval_s: 0.108 } }).recording;
for (let round = 0; round < 6; round++) {
  // A budget far below the analysis: each task is answered at once and its thread left inside the inference.
  const runner = createTaskRunner({ workers: 2, taskTimeoutMs: 5 + 20 * round, workerMemoryMb: 1024, queueLimit: 10 });
  while (!(await runner.ping(2000))) await new Promise((r) => setTimeout(r, 50));
  const task = () => ({ kind: 'analyze', recording: { encoded: encodeRecording(recording) }, names: ['vt'], request: { key: { tier: 'research', allowed_models: null } }, packages: [] });
  await Promise.all([runner.run(task()), runner.run(task()), runner.run(task())]);
  await new Promise((r) => setTimeout(r, 100 * round));
  await runner.close();
}
console.log('closed cleanly');
`;

describe('releasing model sessions before threads end', () => {
  it("vt's release() frees the cached sessions, and the next run builds them again", async function () {
    this.timeout(60_000);
    const vt = createVtPlugin();
    const model = registryFor(DEFAULT_MODELS_DIR).models.find((m) => m.weights_path && !m.problem)!;
    const before = await sessionFor(model);
    await vt.release!();
    const after = await sessionFor(model);
    expect(after).to.not.equal(before);
    const outcome = await vt.run(generateSampleTest(false).recording, { key: { tier: 'research', allowed_models: null } });
    expect(outcome.status).to.equal('ok');
  });

  it('a pool whose idle threads hold sessions closes without aborting the process (it did about once in ten closes)', function () {
    this.timeout(300_000);
    const script = join(mkdtempSync(join(tmpdir(), 'cpet-release-')), 'closes.mts');
    writeFileSync(script, CLOSES);
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 280_000 });
    expect(child.stderr).to.not.include('Napi::Error');
    expect(child.status, child.stderr).to.equal(0);
    expect(child.stdout).to.include('closed cleanly');
  });
});
