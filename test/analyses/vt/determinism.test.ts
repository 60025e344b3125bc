import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');

function runOnce(): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(here, 'run-sample.ts')], { cwd: root, encoding: 'utf8' });
}

describe('vt determinism', () => {
  it('gives the same findings and curves, bit for bit, in two separate processes', function () {
    this.timeout(60000);
    const a = runOnce();
    const b = runOnce();
    const parsed = JSON.parse(a) as { gandalf: { status: string }; wasserman: { status: string }; curves: { t_s: number[] } };
    expect(parsed.gandalf.status).to.equal('ok');
    expect(parsed.wasserman.status).to.equal('ok');
    expect(parsed.curves.t_s.length).to.be.greaterThan(500);
    expect(b).to.equal(a);
  });
});
