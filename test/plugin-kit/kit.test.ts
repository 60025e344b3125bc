import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/plugins.js';
import * as kit from '../../src/plugin-kit/index.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the plugin kit (cpet-analysis-service/plugin)', () => {
  it('is the package entry point ./plugin, resolving to the kit the sources hold', async () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string; types: string }> };
    expect(pkg.exports['./plugin']).to.deep.equal({ types: './src/plugin-kit/index.ts', default: './src/plugin-kit/index.ts' });
    const byName = await import('cpet-analysis-service/plugin');
    expect(Object.keys(byName).sort()).to.deep.equal(Object.keys(kit).sort());
  });

  it('holds the contract, the Recording builder, the refusals, the table layer and the fixture checks', () => {
    for (const name of [
      'buildRecording',
      'parserError',
      'CHANNEL_NAMES',
      'CHANNEL_UNITS',
      'MIN_SCORE',
      'FileView',
      'textTable',
      'textHead',
      'locateTable',
      'readTable',
      'textSource',
      'sheetSource',
      'readTimeColumn',
      'decideUnit',
      'nameKey',
      'vendorNames',
      'checkFixture',
      'checkClaimsNoOtherFixture',
      'listFixtureCases',
    ]) {
      expect(kit, name).to.have.property(name);
    }
  });

  it('is the only way the shipped formats reach the service: no file under formats/ imports src/', () => {
    const deep = sources(join(PROJECT_ROOT, 'formats')).filter((file) => /from '(\.\.\/)+src\//.test(readFileSync(file, 'utf8')));
    expect(deep.map((f) => relative(PROJECT_ROOT, f))).to.deep.equal([]);
  });
});
