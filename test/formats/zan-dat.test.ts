import { expect } from 'chai';
import { MIN_SCORE } from '../../src/formats/detect.js';
import { checkSnapshot, ends, listFixtures, readFixture } from './fixture-helpers.js';

const ID = 'zan-dat';
const fixture = (name: string) => {
  const f = listFixtures(ID).find((x) => x.name === name);
  if (!f) throw new Error(`fixture ${name} missing`);
  return f;
};
const round2 = (x: number | null | undefined) => (x === null || x === undefined ? x : Math.round(x * 100) / 100);

describe('formats/zan-dat', () => {
  it('exports only the plugin, whose id is the folder name', async () => {
    const mod = await import('../../formats/zan-dat/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(mod.default.meta.id).to.equal(ID);
  });

  for (const f of listFixtures(ID)) {
    it(`reads fixture ${f.name} exactly as its expected.json snapshot`, async () => {
      await checkSnapshot(f);
    });
  }

  describe("spiro's zan_gxt (the one real file)", () => {
    it('is detected as ZAN, also without an extension, with the runner-up far below the threshold', async () => {
      const f = fixture('spiro-zan-gxt');
      for (const name of ['input.dat', 'zan_gxt']) {
        const { recording, detection } = await readFixture(f, undefined, name);
        expect(recording.format).to.equal(ID);
        expect(detection.runner_up?.score ?? 0).to.be.below(MIN_SCORE / 2);
      }
    });

    it("gives spiro's 1,997 breaths, first row t 3.44 VO2 393 VCO2 320 RF 13.62 VT 0.79 VE 10.76, last t 3009.23 VO2 4307", async () => {
      const { recording: r } = await readFixture(fixture('spiro-zan-gxt'));
      expect(r.t_s).to.have.length(1997);
      expect(round2(r.t_s[0])).to.equal(3.44);
      expect(round2(r.t_s[1996])).to.equal(3009.23);
      expect(ends(r, 'VO2')).to.deep.equal([393, 4307]);
      expect(ends(r, 'VCO2')).to.deep.equal([320, 4231]);
      expect(round2(r.channels.RF?.values[0])).to.equal(13.62);
      expect(round2(r.channels.VT?.values[0])).to.equal(0.79);
      expect(round2(r.channels.VE?.values[0])).to.equal(10.76);
      expect(round2(r.channels.RF?.values[1996])).to.equal(52.45);
      expect(round2(r.channels.VT?.values[1996])).to.equal(2.34);
      expect(round2(r.channels.VE?.values[1996])).to.equal(122.94);
      expect(round2(r.channels.VE?.values[1])).to.equal(10.51);
    });

    it('reads Geschw. (m/h) as km/h and Steig. as grade in %', async () => {
      const { recording: r } = await readFixture(fixture('spiro-zan-gxt'));
      const speed = r.channels.Speed?.values.filter((v): v is number => v !== null) ?? [];
      expect(Math.max(...speed)).to.equal(18.719);
      expect(r.channels.Grade?.values[0]).to.equal(1);
    });

    it('says why HR, PetO2, PetCO2 and Load are absent', async () => {
      const { recording: r } = await readFixture(fixture('spiro-zan-gxt'));
      expect(r.channels.HR).to.equal(undefined);
      expect(r.absent.HR).to.match(/reading zero throughout/);
      expect(r.absent.PetCO2).to.match(/no end-tidal/);
      expect(r.absent.Load).to.match(/treadmill/);
    });

    it('keeps sex, height 180 and body mass 66 and drops name and birth date', async () => {
      const { recording: r } = await readFixture(fixture('spiro-zan-gxt'));
      expect(r.subject).to.deep.equal({ sex: 'male', height_cm: 180, body_mass_kg: 66 });
      const text = JSON.stringify(r);
      for (const personal of ['Nolte', 'Simon', '04.10.1998', '000142466458']) expect(text).not.to.include(personal);
    });

    it('is breath by breath with the [Start] phases', async () => {
      const { recording: r } = await readFixture(fixture('spiro-zan-gxt'));
      expect(r.sampling.method).to.equal('breath_by_breath');
      expect(r.phases.map((p) => [p.phase, p.t_start_s])).to.deep.equal([
        ['rest', 3.435],
        ['exercise', 59],
        ['recovery', 3002],
      ]);
    });
  });

  describe('the synthetic cycle-ergometer file with a corrupt tail', () => {
    it('drops the rows after the latest time and the non-breath line, with flags', async () => {
      const { recording: r } = await readFixture(fixture('cycle-corrupt-tail'));
      expect(r.t_s).to.have.length(20);
      const codes = r.flags.map((f) => f.code);
      expect(codes).to.include.members(['rows_after_max_time_dropped', 'non_breath_rows_skipped', 'zero_read_as_missing']);
    });

    it('keeps Last as Load when there is no treadmill speed, and reads geschlecht=W and a decimal-comma weight', async () => {
      const { recording: r } = await readFixture(fixture('cycle-corrupt-tail'));
      expect(ends(r, 'Load')).to.deep.equal([0, 75]);
      expect(r.absent.Speed).to.match(/reading zero/);
      expect(r.subject).to.deep.equal({ sex: 'female', height_cm: 168, body_mass_kg: 61.5 });
      expect(r.channels.HR?.values[3]).to.equal(null);
    });
  });
});
