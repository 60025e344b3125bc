import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { API_DOCUMENT_PATH } from '../../src/openapi/document.js';
import { PROJECT_ROOT } from '../../src/plugins.js';

const run = promisify(execFile);

/** The files `npm run gen:types` writes: the service's types and the client package's. */
const TARGETS = ['src/generated/api.ts', 'clients/typescript/src/generated/api.ts'];

describe('generated API types', () => {
  let fresh = '';
  before(async function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), 'cpet-gen-'));
    try {
      const out = join(dir, 'api.ts');
      // The same command as the gen:types script, written to a temporary file.
      await run(join(PROJECT_ROOT, 'node_modules', '.bin', 'openapi-typescript'), [API_DOCUMENT_PATH, '-o', out], {
        cwd: PROJECT_ROOT,
      });
      fresh = readFileSync(out, 'utf8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const target of TARGETS) {
    it(`${target} is what \`npm run gen:types\` produces from the current YAML`, () => {
      const committed = readFileSync(join(PROJECT_ROOT, target), 'utf8');
      expect(committed === fresh, `${target} is stale: run \`npm run gen:types\` and commit it`).to.equal(true);
    });
  }
});
