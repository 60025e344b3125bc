import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/plugins.js';
import * as kit from '../../packages/plugin-kit/src/index.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the plugin kit (cpet-plugin-kit, the service export cpet-analysis-service/plugin)', () => {
  it("is the service's entry point ./plugin, resolving to the kit package's sources", async () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string; types: string }> };
    expect(pkg.exports['./plugin']).to.deep.equal({ types: './packages/plugin-kit/src/index.ts', default: './packages/plugin-kit/src/index.ts' });
    const byName = await import('cpet-analysis-service/plugin');
    expect(Object.keys(byName).sort()).to.deep.equal(Object.keys(kit).sort());
  });

  it('is the same module by its package name in the repository, so a walkthrough plugin and the service share one Recording', async () => {
    const byPackage = await import('cpet-plugin-kit');
    const byService = await import('cpet-analysis-service/plugin');
    expect(byPackage.FileView).to.equal(byService.FileView);
    expect(byPackage.buildRecording).to.equal(byService.buildRecording);
  });

  it("declares as the package's dependencies the npm packages the service's own copy resolves, at the same versions", () => {
    const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { name: string; dependencies: Record<string, string> };
    const service = read(join(PROJECT_ROOT, 'package.json'));
    const own = read(join(PROJECT_ROOT, 'packages', 'plugin-kit', 'package.json'));
    expect(own.name).to.equal('cpet-plugin-kit');
    for (const [name, range] of Object.entries(own.dependencies)) expect(range, name).to.equal(service.dependencies[name]);
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
