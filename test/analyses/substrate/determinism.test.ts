import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const child = join(dirname(fileURLToPath(import.meta.url)), 'determinism-child.ts');

function runChild(): string {
  return execFileSync(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 30000 });
}

describe('substrate determinism', () => {
  it('gives byte-identical results in two separate processes', () => {
    const first = runChild();
    const second = runChild();
    expect(first.length).to.be.greaterThan(100);
    expect(second).to.equal(first);
  });
});
