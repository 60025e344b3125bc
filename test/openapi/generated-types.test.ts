import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { API_DOCUMENT_PATH } from '../../src/openapi/document.js';
import { PROJECT_ROOT } from '../../src/plugins.js';

const run = promisify(execFile);

describe('generated API types', () => {
  it('src/generated/api.ts is what `npm run gen:types` produces from the current YAML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cpet-gen-'));
    try {
      const out = join(dir, 'api.ts');
      // The same command as the gen:types script, written to a temporary file.
      await run(join(PROJECT_ROOT, 'node_modules', '.bin', 'openapi-typescript'), [API_DOCUMENT_PATH, '-o', out], {
        cwd: PROJECT_ROOT,
      });
      const fresh = readFileSync(out, 'utf8');
      const committed = readFileSync(join(PROJECT_ROOT, 'src', 'generated', 'api.ts'), 'utf8');
      expect(committed === fresh, 'src/generated/api.ts is stale: run `npm run gen:types` and commit it').to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
