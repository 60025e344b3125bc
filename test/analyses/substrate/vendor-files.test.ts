import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT, type Plugins } from '../../../src/plugins.js';
import type { AnalysisPlugin } from '../../../src/analyses/analysis-plugin.js';
import type { SubstrateFindings } from '../../../analyses/substrate/analyse.js';

/** Every real vendor file the format plugins keep as fixtures: formats/<id>/fixtures/<case>/input.<ext>. */
function vendorInputs(): { format: string; fixture: string; path: string }[] {
  const out: { format: string; fixture: string; path: string }[] = [];
  const root = join(PROJECT_ROOT, 'formats');
  for (const format of readdirSync(root).sort()) {
    const fixtures = join(root, format, 'fixtures');
    if (!existsSync(fixtures)) continue;
    for (const entry of readdirSync(fixtures, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const input = readdirSync(join(fixtures, entry.name)).find((name) => name.startsWith('input.'));
      if (input) out.push({ format, fixture: entry.name, path: join(fixtures, entry.name, input) });
    }
  }
  return out;
}

const REFUSALS = ['MISSING_CHANNEL', 'INSUFFICIENT_SIGNAL', 'SUBSTRATE_FAILED'];
/** Fixtures with a load in watts that the analysis accepted, filled as the loop runs. */
const acceptedWithLoad: string[] = [];

describe('substrate on every real vendor fixture', () => {
  let plugins: Plugins;
  let substrate: AnalysisPlugin;
  before(async () => {
    plugins = await loadPlugins();
    const found = plugins.analyses.find((a) => a.name === 'substrate');
    if (!found) throw new Error('the substrate plugin is not discovered');
    substrate = found;
  });

  const inputs = vendorInputs();
  it('finds vendor fixtures to run on', () => {
    expect(inputs.length).to.be.greaterThan(0);
  });

  for (const { format, fixture, path } of inputs) {
    it(`${format}/${fixture}: ok, or refused with a reason`, async () => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const { recording } = await readUpload(name, readFileSync(path), plugins.formats);
      const outcome = await substrate.run(recording, { key: { tier: 'free', allowed_models: null } });
      expect(outcome.model.name).to.equal('substrate');
      const hasGases = recording.channels.VO2 !== undefined && recording.channels.VCO2 !== undefined;
      if (outcome.status === 'not_analysable') {
        expect(REFUSALS).to.include(outcome.error);
        expect(outcome.message).to.be.a('string').and.not.equal('');
        if (!hasGases) expect(outcome.error).to.equal('MISSING_CHANNEL');
        return;
      }
      expect(hasGases).to.equal(true);
      const f = outcome.findings as unknown as SubstrateFindings;
      expect(f.n_windows).to.equal(f.windows.length);
      for (const w of f.windows) {
        for (const v of [w.vo2, w.vco2, w.rer, w.pct_vo2peak]) expect(Number.isFinite(v)).to.equal(true);
        expect(w.fat_valid).to.equal(w.rer <= 1);
        // A rate oxidation cannot produce is withheld, never shown: no share of energy from fat outside 0-100 %.
        if (w.withheld) expect([w.fat_g_min, w.cho_g_min, w.pct_ee_fat]).to.deep.equal([null, null, null]);
        else {
          expect(w.fat_g_min).to.be.at.least(0);
          expect(w.cho_g_min).to.be.at.least(0);
          expect(w.pct_ee_fat).to.be.within(0, 100);
        }
      }
      const loadInWatts = recording.channels.Load?.values.some((v) => v !== null && v > 0) ?? false;
      if (loadInWatts) {
        // A load in watts gives watts on every window and gross efficiency.
        expect(f.windows.every((w) => typeof w.load_w === 'number')).to.equal(true);
        expect(f.efficiency.available).to.equal(true);
        acceptedWithLoad.push(`${format}/${fixture}`);
      } else {
        expect(f.windows.some((w) => w.load_w !== undefined)).to.equal(false);
        expect(f.efficiency.available).to.equal(false);
        expect(f.flags.map((x) => x.code)).to.include('no_load');
      }
    });
  }

  it('gives watts and gross efficiency on at least one real file with a load (Parvo TrueOne xlsx, WorkR)', () => {
    expect(acceptedWithLoad).to.include('parvo-trueone/xlsx-30s-bins');
  });

  it('never reads the Cortex xlsx W column (cumulative kcal) as a load', async () => {
    const cortex = inputs.find((i) => i.format === 'cortex-metasoft' && i.path.endsWith('.xlsx'));
    if (!cortex) throw new Error('the Cortex MetaSoft xlsx fixture is missing');
    const { recording } = await readUpload('input.xlsx', readFileSync(cortex.path), plugins.formats);
    expect(recording.channels.Load).to.equal(undefined);
    const outcome = await substrate.run(recording, { key: { tier: 'free', allowed_models: null } });
    if (outcome.status === 'ok') {
      const f = outcome.findings as unknown as SubstrateFindings;
      expect(f.windows.some((w) => w.load_w !== undefined)).to.equal(false);
      expect(f.efficiency.available).to.equal(false);
    }
  });
});
