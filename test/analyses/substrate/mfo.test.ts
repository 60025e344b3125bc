import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseSubstrate, type SubstrateFindings } from '../../../analyses/substrate/analyse.js';
import { readUpload } from '../../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT } from '../../../src/plugins.js';
import type { Recording } from '../../../src/recording/recording.js';

const DIR = join(PROJECT_ROOT, 'test', 'fixtures', 'substrate', 'mfo');
/** VO2max of the subject's graded test (VO2max_df.csv), mL/min: the package's reference for %VO2max. */
const PACKAGE_VO2MAX_L_MIN = 2.048;

async function read(name: string): Promise<Recording> {
  const { formats } = await loadPlugins();
  return (await readUpload(name, readFileSync(join(DIR, name)), formats)).recording;
}

function findings(rec: Recording, input: Parameters<typeof analyseSubstrate>[2]): SubstrateFindings {
  const r = analyseSubstrate(rec, {}, input);
  if (r.status !== 'ok') throw new Error(r.message);
  return r.findings;
}

/** The service beside the R package MFO on the package's own example (analyses/substrate/README.md, "Held against a peer"). */
describe('substrate on the MFO package example data', () => {
  it('the VO2max file is the graded test whose peak the package uses', async () => {
    const rec = await read('VO2max_df.csv');
    expect(Math.max(...(rec.channels.VO2?.values ?? []).map((v) => v ?? 0))).to.equal(2048);
  });

  it("with the 3-min stages given, the stage means match the package's and the measured maximum is its MFO", async () => {
    const rec = await read('MFO_df.csv');
    const f = findings(rec, { kind: 'steps', stage_s: 180 });
    expect(f.window_source).to.equal('protocol stages');
    expect(f.windows.map((w) => w.fat_g_min)).to.deep.equal([0.1856, 0.1757, 0.1351, 0.0341, null]);
    // The last stage (RER above 1.0) gives a negative fat rate: withheld here, set to 0 by the package.
    expect(f.windows[4].withheld).to.equal(true);
    // Fat falls from the first stage on, so the cubic has no interior maximum; the measured maximum is stage 1.
    expect(f.fatmax.found).to.equal(false);
    expect(f.fatmax.measured?.fat_g_min).to.equal(0.1856);
    const pctVo2max = ((f.fatmax.measured?.pct_vo2peak ?? 0) * f.vo2peak) / PACKAGE_VO2MAX_L_MIN;
    // The package: MFO 0.1846 g/min at 35.72 %VO2max (a quadratic through the basal point).
    expect(f.fatmax.measured!.fat_g_min - 0.1846).to.be.within(-0.005, 0.005);
    expect(pctVo2max).to.be.within(34, 36);
  });

  it("without the protocol, 60-s clock bins give a fitted FATMAX near the package's", async () => {
    const f = findings(await read('MFO_df.csv'), null);
    expect(f.window_source).to.equal('clock bins');
    expect(f.fatmax.found).to.equal(true);
    if (!f.fatmax.found) return;
    expect(f.fatmax.fit.model).to.equal('cubic through the origin');
    expect(f.fatmax.fat_g_min).to.equal(0.2131);
    const pctVo2max = (f.fatmax.pct_vo2peak * f.vo2peak) / PACKAGE_VO2MAX_L_MIN;
    expect(pctVo2max).to.be.within(32, 34);
  });
});
