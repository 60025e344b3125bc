import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

function runOnce(): string {
  const r = spawnSync('npx', ['tsx', join(here, 'print-findings.ts')], { encoding: 'utf8', cwd: join(here, '../../..') });
  expect(r.status, r.stderr).to.equal(0);
  return r.stdout;
}

describe('EOV determinism', () => {
  it('gives byte-identical JSON for the same recording in two separate processes', () => {
    const a = runOnce();
    const b = runOnce();
    expect(JSON.parse(a).status).to.equal('ok');
    expect(a).to.equal(b);
  });
});
