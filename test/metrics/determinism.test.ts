import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { generateTest } from '../../src/synthetic/generate.js';

const run = promisify(execFile);

describe('metric determinism', () => {
  it('gives byte-identical JSON for the same recording in two separate processes', async () => {
    const script = join(PROJECT_ROOT, 'test', 'metrics', 'print-compute.ts');
    const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
    const [a, b] = await Promise.all([run(tsx, [script, '7'], { cwd: PROJECT_ROOT }), run(tsx, [script, '7'], { cwd: PROJECT_ROOT })]);
    expect(a.stdout.length).to.be.greaterThan(1000);
    expect(a.stdout).to.equal(b.stdout);
    // And the same as in this process.
    const reg = createMetricRegistry();
    const here = JSON.stringify(
      reg.compute(
        generateTest({ seed: 7 }).recording,
        reg.list().map((e) => e.name),
      ),
    );
    expect(here).to.equal(a.stdout);
    const parsed = JSON.parse(a.stdout) as Record<string, { status: string }>;
    // Seed 7 is a ramp, which has no stages for stage_summary.
    expect(Object.entries(parsed).every(([name, r]) => r.status === (name === 'stage_summary' ? 'unavailable' : 'ok'))).to.equal(true);
  });
});
