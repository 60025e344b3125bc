import { expect } from 'chai';
import plugin from '../../formats/exercise-threshold-app-json/index.js';
import { ServiceError } from '../../src/errors.js';
import { MIN_SCORE } from '../../src/formats/detect.js';
import { FileView } from '../../src/formats/file-view.js';
import { checkSnapshot, ends, listFixtures, readFixture } from './fixture-helpers.js';

const ID = 'exercise-threshold-app-json';
const fixture = (name: string) => {
  const f = listFixtures(ID).find((x) => x.name === name);
  if (!f) throw new Error(`fixture ${name} missing`);
  return f;
};

describe('formats/exercise-threshold-app-json', () => {
  it('exports only the plugin, whose id is the folder name', async () => {
    const mod = await import('../../formats/exercise-threshold-app-json/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(mod.default.meta.id).to.equal(ID);
  });

  for (const f of listFixtures(ID)) {
    it(`reads fixture ${f.name} exactly as its expected.json snapshot`, async () => {
      await checkSnapshot(f);
    });
  }

  describe("pyoxynet's exercise_threshold_app_test.json (the one real file)", () => {
    it('is detected as the app JSON, not as canonical JSON', async () => {
      const { recording, detection } = await readFixture(fixture('pyoxynet-app-test'));
      expect(recording.format).to.equal(ID);
      expect(detection.runner_up?.score ?? 0).to.be.below(MIN_SCORE / 2);
    });

    it('reads 394 breaths, keeps 389 after 5 repeated stamps, and shifts t from -240 s to 0 with a flag', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-app-test'));
      expect(r.t_s).to.have.length(389);
      expect(r.clock.samples_dropped).to.equal(5);
      expect([r.t_s[0], r.t_s[r.t_s.length - 1]]).to.deep.equal([0, 973]);
      expect(r.flags.map((f) => f.code)).to.include.members(['time_origin_shifted', 'duplicate_times_dropped']);
      expect(ends(r, 'VO2')).to.deep.equal([1680, 4723]);
      expect(ends(r, 'VCO2')).to.deep.equal([1090, 5536]);
      expect(ends(r, 'VE')).to.deep.equal([31.3, 210.4]);
      expect(ends(r, 'PetO2')).to.deep.equal([76.506, 103.6252]);
      expect(ends(r, 'PetCO2')).to.deep.equal([37.0712, 30.4158]);
      expect(ends(r, 'RER')).to.deep.equal([0.65, 1.17]);
    });

    it('stores LT 3150 and RCP 3700 mL/min as embedded VT1/VT2, never as channels, and ignores VO2max', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-app-test'));
      expect(r.embedded_thresholds).to.deep.equal([
        { name: 'VT1', label: 'LT', vo2_ml_min: 3150, time_s: null },
        { name: 'VT2', label: 'RCP', vo2_ml_min: 3700, time_s: null },
      ]);
      expect(Object.keys(r.channels)).to.have.members(['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2', 'RER']);
      expect(JSON.stringify(r)).not.to.include('4694');
    });

    it('is breath by breath, with the negative times as rest before the test', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-app-test'));
      expect(r.sampling.method).to.equal('breath_by_breath');
      expect(r.phases.map((p) => [p.phase, p.t_start_s, p.t_end_s])).to.deep.equal([
        ['rest', 0, 240],
        ['exercise', 240, 973],
      ]);
      expect(r.absent.HR).to.equal('not in the file');
    });
  });

  it('reads only the first test of an array of two, with a flag', async () => {
    const { recording: r } = await readFixture(fixture('array-of-two-tests'));
    expect(r.t_s).to.have.length(40);
    expect(r.flags.map((f) => f.code)).to.include('first_test_only');
  });

  it('reads a single object with RF and HR, gases in L/min and end-tidal in kPa, and LT/RCP in L/min', async () => {
    const { recording: r } = await readFixture(fixture('single-object-litres-kpa'));
    expect(r.channels.VO2?.values[0]).to.be.closeTo(900, 1e-9);
    expect(r.channels.PetCO2?.values[0]).to.be.closeTo(5.0 * 7.50062, 1e-9);
    expect(r.channels.HR?.values[0]).to.equal(null);
    expect(r.channels.RF?.values[0]).to.equal(18);
    expect(r.embedded_thresholds.map((t) => t.vo2_ml_min)).to.deep.equal([2100, 3200]);
  });

  it('refuses a file of a million breaths as too long, never by overflowing the call stack', async () => {
    const data = Array.from({ length: 1_000_000 }, (_, i) => ({ t: i - 100, VE: 30, VO2: 1500, VCO2: 1300, PetO2: 99, PetCO2: 38 }));
    let caught: unknown;
    try {
      await plugin.parse(new FileView('long.json', Buffer.from(JSON.stringify([{ id: 'long', data }]))));
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(ServiceError);
    expect((caught as ServiceError).code).to.equal('RECORDING_TOO_LONG');
  });
});
