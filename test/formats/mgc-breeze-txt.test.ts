import { expect } from 'chai';
import { MIN_SCORE } from '../../src/formats/detect.js';
import { checkSnapshot, ends, listFixtures, readFixture } from './fixture-helpers.js';

const ID = 'mgc-breeze-txt';
const fixture = (name: string) => {
  const f = listFixtures(ID).find((x) => x.name === name);
  if (!f) throw new Error(`fixture ${name} missing`);
  return f;
};

describe('formats/mgc-breeze-txt', () => {
  it('exports only the plugin, whose id is the folder name', async () => {
    const mod = await import('../../formats/mgc-breeze-txt/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(mod.default.meta.id).to.equal(ID);
  });

  for (const f of listFixtures(ID)) {
    it(`reads fixture ${f.name} exactly as its expected.json snapshot`, async () => {
      await checkSnapshot(f);
    });
  }

  describe("gasExchangeR's Aaron_VO2max.txt (the one real file)", () => {
    it('is detected as MGC Breeze-style with the runner-up far below the threshold', async () => {
      const { recording, detection } = await readFixture(fixture('gasexchanger-aaron'));
      expect(recording.format).to.equal(ID);
      expect(detection.runner_up?.score ?? 0).to.be.below(MIN_SCORE / 2);
    });

    it('reads 672 rows, keeps 666 breaths after dropping 6 repeated one-second stamps, first and last in canonical units', async () => {
      const { recording: r } = await readFixture(fixture('gasexchanger-aaron'));
      expect(r.t_s).to.have.length(666);
      expect(r.clock.samples_dropped).to.equal(6);
      expect([r.t_s[0], r.t_s[r.t_s.length - 1]]).to.deep.equal([13, 998]);
      expect(ends(r, 'VO2')).to.deep.equal([985, 4309]);
      expect(ends(r, 'VCO2')).to.deep.equal([766, 5576]);
      expect(ends(r, 'VT')).to.deep.equal([0.833, 2.481]);
      expect(ends(r, 'VE')).to.deep.equal([24.1, 158.4]);
      expect(ends(r, 'PetO2')).to.deep.equal([96, 109]);
      expect(ends(r, 'PetCO2')).to.deep.equal([40, 40]);
      expect(ends(r, 'HR')).to.deep.equal([87, 180]);
      expect(r.channels.Speed?.values[r.t_s.length - 1]).to.be.closeTo(12.4 * 1.609344, 1e-9);
    });

    it('tells the two VO2 columns apart and derives the body mass from their ratio, with flags', async () => {
      const { recording: r } = await readFixture(fixture('gasexchanger-aaron'));
      expect(r.subject.body_mass_kg).to.be.closeTo(74.8, 0.05);
      expect(r.flags.map((f) => f.code)).to.include.members(['two_vo2_columns', 'body_mass_derived', 'unit_assumed']);
    });

    it('marks rest until Ex Time starts, then exercise; Load absent with a reason', async () => {
      const { recording: r } = await readFixture(fixture('gasexchanger-aaron'));
      expect(r.phases.map((p) => [p.phase, p.t_start_s])).to.deep.equal([
        ['rest', 13],
        ['exercise', 54],
      ]);
      expect(r.sampling.method).to.equal('breath_by_breath');
      expect(r.absent.Load).to.match(/no work-rate column/);
    });
  });

  it('reads decimal commas and a recovery phase after Ex Time ends', async () => {
    const { recording: r } = await readFixture(fixture('recovery-decimal-comma'));
    expect(r.phases.map((p) => p.phase)).to.deep.equal(['rest', 'exercise', 'recovery']);
    expect(r.channels.RER?.values[0]).to.equal(0.9);
    expect(r.flags.map((f) => f.code)).to.include('decimal_comma');
  });
});
