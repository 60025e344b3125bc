import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { checkClaimsNoOtherFixture, checkFixture, listFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { generateSample } from '../../src/synthetic/sample.js';
import plugin from '../../formats/canonical-json/index.js';

const DIR = join(PROJECT_ROOT, 'formats', 'canonical-json');

describe('formats/canonical-json', () => {
  const cases = listFixtureCases(DIR);

  it('exports only the plugin, whose id is the folder name, and has the three fixture cases its README lists', async () => {
    const mod = await import('../../formats/canonical-json/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(plugin.meta.id).to.equal('canonical-json');
    const readme = readFileSync(join(DIR, 'fixtures', 'README.md'), 'utf8');
    expect(cases.map((c) => c.name)).to.deep.equal(['gaps-and-markers', 'minimal', 'synthetic-sample']);
    for (const c of cases) expect(readme, c.name).to.include(`\`${c.name}/input.json\``);
  });

  for (const fixture of listFixtureCases(DIR)) {
    it(`reads fixture ${fixture.name} through the upload path exactly as its expected.json`, async () => {
      await checkFixture(plugin, fixture);
    });
  }

  it("claims no other format's fixture", () => {
    checkClaimsNoOtherFixture(plugin);
  });

  it('keeps the synthetic-sample fixture equal to the bytes GET /v1/sample serves', () => {
    const fixture = cases.find((c) => c.name === 'synthetic-sample');
    expect(readFileSync(fixture?.input as string, 'utf8')).to.equal(generateSample(false).content);
  });

  it("carries what a converter writes: nulls stay missing, phases, subject and the cart's thresholds are kept", async () => {
    const { recording } = await checkFixture(plugin, cases.find((c) => c.name === 'gaps-and-markers') as (typeof cases)[number]);
    expect(recording.channels.VE?.values[2]).to.equal(null);
    expect(recording.phases.map((p) => [p.phase, p.source])).to.deep.equal([
      ['rest', 'file'],
      ['exercise', 'file'],
      ['recovery', 'file'],
    ]);
    expect(recording.subject).to.include({ body_mass_kg: 68.5, sex: 'female' });
    expect(recording.embedded_thresholds.map((t) => [t.name, t.label])).to.deep.equal([
      ['VT1', 'AT'],
      ['VT2', 'RCP'],
    ]);
    expect(recording.sampling).to.include({ method: 'averaged', averaging_s: 10 });
  });
});
