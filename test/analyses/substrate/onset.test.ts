import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseSubstrate, type SubstrateFindings } from '../../../analyses/substrate/analyse.js';
import { readUpload } from '../../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT } from '../../../src/plugins.js';
import type { Recording } from '../../../src/recording/recording.js';
import { generateTest } from '../../../src/synthetic/generate.js';

function ok(rec: Recording): SubstrateFindings {
  const r = analyseSubstrate(rec);
  if (r.status !== 'ok') throw new Error(r.message);
  return r.findings;
}

describe('substrate onset and FATMAX on ramps with rest and unloaded pedalling', () => {
  for (const withLoad of [true, false]) {
    it(`starts the windows at the end of unloaded pedalling (${withLoad ? 'with' : 'without'} a load column), and flags it`, () => {
      // Two minutes of rest, three of unloaded pedalling, then the ramp at 300 s.
      const rec = structuredClone(generateTest({ seed: 5, protocol: 'ramp', rest_s: 120, warmup_s: 180, exercise_s: 600, vo2peak_ml_min: 3000 }).recording);
      rec.phases = [];
      if (!withLoad) delete rec.channels.Load;
      const f = ok(rec);
      expect(f.onset).to.equal('end of warm-up');
      // From the load the boundary is within about 10 s; from the gases, VO2 lags by 30-45 s.
      expect(f.exercise.t_start).to.be.within(290, withLoad ? 310 : 360);
      expect(f.windows[0].t_start).to.equal(f.exercise.t_start);
      expect(f.flags.find((x) => x.code === 'onset')?.detail).to.match(/end of the warm-up \(unloaded pedalling\)/);
      expect(f.flags.find((x) => x.code === 'trimmed_to_exercise')?.detail).to.match(/unloaded warm-up/);
    });
  }

  it('with one minute of rest, too short to tell from unloaded pedalling, the windows still start at the ramp', () => {
    const rec = structuredClone(generateTest({ seed: 5, protocol: 'ramp', rest_s: 60, warmup_s: 180, exercise_s: 600, vo2peak_ml_min: 3000 }).recording);
    rec.phases = [];
    delete rec.channels.Load;
    const f = ok(rec);
    expect(f.exercise.t_start).to.be.within(230, 300);
  });

  for (const [format, fixture, name] of [
    ['exercise-threshold-app-json', 'pyoxynet-app-test', 'input.json'],
    ['mgc-breeze-txt', 'gasexchanger-aaron', 'input.txt'],
  ]) {
    it(`finds FATMAX on the real ramp ${format}/${fixture}, where fat oxidation rises then falls, with the fit and the measured maximum`, async () => {
      const { formats } = await loadPlugins();
      const path = join(PROJECT_ROOT, 'formats', format, 'fixtures', fixture, name);
      const f = ok((await readUpload(name, readFileSync(path), formats)).recording);
      expect(f.fatmax.found).to.equal(true);
      if (!f.fatmax.found) return;
      expect(f.fatmax.fit.model).to.equal('cubic through the origin');
      expect(f.fatmax.pct_vo2peak).to.be.within(f.fatmax.fit.pct_vo2peak_from, f.fatmax.fit.pct_vo2peak_to);
      expect(f.fatmax.measured.at_edge).to.equal(false);
      expect(f.fatmax.measured.fat_g_min).to.be.at.least(f.fatmax.fat_g_min * 0.9);
      expect(f.method.join(' ')).to.match(/Achten, Gleeson and Jeukendrup 2002/);
    });
  }
});
