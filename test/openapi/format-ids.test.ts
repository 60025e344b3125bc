import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadApiDocument } from '../../src/openapi/document.js';
import { PROJECT_ROOT } from '../../src/plugins.js';

describe('FormatId enum', () => {
  const enumIds = (loadApiDocument().components?.schemas?.FormatId.enum ?? []).map(String);
  const folders = readdirSync(join(PROJECT_ROOT, 'formats'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(PROJECT_ROOT, 'formats', entry.name, 'index.ts')))
    .map((entry) => entry.name);

  it('names every format plugin folder under formats/', () => {
    expect(folders).to.include('canonical-json');
    const missing = folders.filter((id) => !enumIds.includes(id));
    expect(missing, 'add these ids to FormatId in openapi/cpet-api.yaml').to.deep.equal([]);
  });

  it('holds kebab-case ids without duplicates', () => {
    expect(new Set(enumIds).size).to.equal(enumIds.length);
    for (const id of enumIds) expect(id).to.match(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
