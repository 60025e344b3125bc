import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadApiDocument, withFormatIds } from '../../src/openapi/document.js';
import { createSchemaChecker } from '../../src/openapi/schema-check.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';

describe('FormatId', () => {
  const formatId = loadApiDocument().components?.schemas?.FormatId;

  it('lists no id in the YAML, so adding a format folder touches no other file', () => {
    expect(formatId).to.be.an('object');
    expect(formatId).to.not.have.property('enum');
    expect(formatId?.pattern).to.equal('^[a-z0-9]+(-[a-z0-9]+)*$');
  });

  it('is listed in the served document from the discovered plugins, one per folder under formats/', async () => {
    const folders = readdirSync(join(PROJECT_ROOT, 'formats'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(PROJECT_ROOT, 'formats', entry.name, 'index.ts')))
      .map((entry) => entry.name);
    const ids = (await loadPlugins()).formats.map((f) => f.meta.id);
    expect(ids).to.have.members(folders);
    const served = withFormatIds(loadApiDocument(), ids);
    expect(served.components?.schemas?.FormatId.enum).to.deep.equal(ids);
    const check = createSchemaChecker(served);
    expect(check.schema('FormatId', 'canonical-json')).to.deep.equal([]);
    expect(check.schema('FormatId', 'not-installed'), 'the served enum refuses an id no plugin has').to.not.be.empty;
  });
});

describe('withFormatIds', () => {
  it('sets the enum on a copy, without duplicates, and leaves the loaded document alone', () => {
    const doc = loadApiDocument();
    const widened = withFormatIds(doc, ['canonical-json', 'acme-cart-csv', 'canonical-json']);
    expect(widened.components?.schemas?.FormatId.enum).to.deep.equal(['canonical-json', 'acme-cart-csv']);
    expect(doc.components?.schemas?.FormatId).to.not.have.property('enum');
  });

  it('refuses an empty list: a service without a format cannot read anything', () => {
    expect(() => withFormatIds(loadApiDocument(), [])).to.throw(/at least one format plugin/);
  });
});
