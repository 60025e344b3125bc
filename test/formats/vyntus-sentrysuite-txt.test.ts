import { expect } from 'chai';
import { MIN_SCORE } from '../../src/formats/detect.js';
import { checkSnapshot, ends, listFixtures, readFixture } from './fixture-helpers.js';

const ID = 'vyntus-sentrysuite-txt';
const fixture = (name: string) => {
  const f = listFixtures(ID).find((x) => x.name === name);
  if (!f) throw new Error(`fixture ${name} missing`);
  return f;
};

describe('formats/vyntus-sentrysuite-txt', () => {
  it('exports only the plugin, whose id is the folder name', async () => {
    const mod = await import('../../formats/vyntus-sentrysuite-txt/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(mod.default.meta.id).to.equal(ID);
  });

  for (const f of listFixtures(ID)) {
    it(`reads fixture ${f.name} exactly as its expected.json snapshot`, async () => {
      await checkSnapshot(f);
    });
  }

  describe("spiro's vyntus.txt (the one real file)", () => {
    it('is detected as Vyntus with the runner-up far below the threshold', async () => {
      const { recording, detection } = await readFixture(fixture('spiro-vyntus'));
      expect(recording.format).to.equal(ID);
      expect(detection.score).to.be.at.least(0.9);
      expect(detection.runner_up?.score ?? 0).to.be.below(MIN_SCORE / 2);
    });

    it("gives spiro's 7 rows with its first and last values in canonical units", async () => {
      const { recording: r } = await readFixture(fixture('spiro-vyntus'));
      expect(r.t_s).to.deep.equal([56, 60, 120, 180, 240, 300, 360]);
      expect(ends(r, 'VO2')).to.deep.equal([321, 2245]);
      expect(ends(r, 'VCO2')).to.deep.equal([267, 1927]);
      expect(ends(r, 'RF')).to.deep.equal([17.8, 26.6]);
      expect(ends(r, 'VT')).to.deep.equal([1.536, 2.141]);
      expect(ends(r, 'VE')).to.deep.equal([27, 57]);
      expect(ends(r, 'HR')).to.deep.equal([78, 112]);
      expect(r.channels.VO2?.values[2]).to.equal(1717);
    });

    it('says why PetO2, PetCO2 and Load are absent', async () => {
      const { recording: r } = await readFixture(fixture('spiro-vyntus'));
      expect(r.absent.PetO2).to.match(/no PETO2 column/);
      expect(r.absent.PetCO2).to.match(/no PETCO2 column/);
      expect(r.absent.Load).to.match(/empty/);
    });

    it('reports one-minute averages and derives the body mass of 68.1 kg with a flag', async () => {
      const { recording: r } = await readFixture(fixture('spiro-vyntus'));
      expect(r.sampling).to.include({ method: 'averaged', raw_interval_s: 60, averaging_s: 60 });
      expect(r.subject.body_mass_kg).to.equal(68.1);
      expect(r.flags.map((f) => f.code)).to.include.members(['body_mass_derived', 'sampling_from_layout']);
    });
  });

  it('converts end-tidal pressures given in kPa to mmHg, each from its own column', async () => {
    const { recording: r } = await readFixture(fixture('kpa-end-tidal'));
    expect(r.channels.PetO2?.values[0]).to.be.closeTo(13.6 * 7.50062, 1e-9);
    expect(r.channels.PetCO2?.values[0]).to.be.closeTo(5.1 * 7.50062, 1e-9);
    expect(r.channels.Load?.values.slice(0, 2)).to.deep.equal([50, 55]);
  });

  it('reads German headers with VO2 in L/min from the units row, cp1252 text and placeholder cells', async () => {
    const { recording: r } = await readFixture(fixture('german-litres-cp1252'));
    expect(r.channels.VO2?.values[0]).to.be.closeTo(450, 1e-9);
    expect(r.channels.VO2?.unit_in).to.equal('L/min');
    expect(r.channels.HR?.values[4]).to.equal(null);
    expect(r.channels.RF?.values[7]).to.equal(null);
    expect(r.sampling.method).to.equal('breath_by_breath');
  });

  it('falls back to magnitude with flags when there is no units row (French headers)', async () => {
    const { recording: r } = await readFixture(fixture('french-no-units-row'));
    expect(r.channels.VO2?.values[0]).to.be.closeTo(800, 1e-9);
    expect(r.channels.PetCO2?.values[0]).to.be.closeTo(4.9 * 7.50062, 1e-9);
    expect(r.flags.filter((f) => f.code === 'unit_inferred').length).to.be.at.least(4);
    expect(r.flags.map((f) => f.code)).to.include('time_unit_assumed');
  });

  it('reads decimal commas and UTF-16 to the same numbers as the real file', async () => {
    const base = (await readFixture(fixture('spiro-vyntus'))).recording;
    for (const name of ['decimal-comma', 'utf16-crlf']) {
      const r = (await readFixture(fixture(name))).recording;
      expect(r.t_s, name).to.deep.equal(base.t_s);
      expect(r.channels, name).to.deep.equal(base.channels);
    }
  });
});
