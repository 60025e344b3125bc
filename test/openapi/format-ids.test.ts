import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadApiDocument, withFormatIds } from '../../src/openapi/document.js';
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

describe('withFormatIds', () => {
  it('adds the ids of plugins loaded from elsewhere to a copy, keeping the listed order', () => {
    const doc = loadApiDocument();
    const listed = (doc.components?.schemas?.FormatId.enum ?? []).map(String);
    const widened = withFormatIds(doc, ['canonical-json', 'acme-cart-csv']);
    expect(widened.components?.schemas?.FormatId.enum).to.deep.equal([...listed, 'acme-cart-csv']);
    expect(doc.components?.schemas?.FormatId.enum).to.deep.equal(listed);
  });
});
