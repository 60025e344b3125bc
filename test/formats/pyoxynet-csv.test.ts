import { expect } from 'chai';
import { MIN_SCORE } from '../../src/formats/detect.js';
import { checkSnapshot, ends, listFixtures, readFixture } from './fixture-helpers.js';

const ID = 'pyoxynet-csv';
const fixture = (name: string) => {
  const f = listFixtures(ID).find((x) => x.name === name);
  if (!f) throw new Error(`fixture ${name} missing`);
  return f;
};

describe('formats/pyoxynet-csv', () => {
  it('exports only the plugin, whose id is the folder name', async () => {
    const mod = await import('../../formats/pyoxynet-csv/index.js');
    expect(Object.keys(mod)).to.deep.equal(['default']);
    expect(mod.default.meta.id).to.equal(ID);
  });

  for (const f of listFixtures(ID)) {
    it(`reads fixture ${f.name} exactly as its expected.json snapshot`, async () => {
      await checkSnapshot(f);
    });
  }

  describe("pyoxynet's data_test.csv (the one real file)", () => {
    it('is detected as pyoxynet CSV with the runner-up far below the threshold', async () => {
      const { recording, detection } = await readFixture(fixture('pyoxynet-data-test'));
      expect(recording.format).to.equal(ID);
      expect(detection.runner_up?.score ?? 0).to.be.below(MIN_SCORE / 2);
    });

    it('reads 775 one-second rows from t 5 to 779 s with the first and last values as written', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-data-test'));
      expect(r.t_s).to.have.length(775);
      expect([r.t_s[0], r.t_s[774]]).to.deep.equal([5, 779]);
      expect(ends(r, 'VO2')).to.deep.equal([1109.942527770996, 4590.856434263289]);
      expect(ends(r, 'VCO2')).to.deep.equal([1051.4672584533691, 5276.291555771604]);
      expect(ends(r, 'VE')).to.deep.equal([39.29059672355652, 180.56348763463757]);
      expect(ends(r, 'PetCO2')).to.deep.equal([30.34317085146904, 34.154726010441664]);
      expect(ends(r, 'HR')).to.deep.equal([122.62221145629883, 196.5166278568213]);
    });

    it('reads VO2_I 3346 at t 465 s and 4102 at t 655 s, where the domain labels put VT1 and VT2', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-data-test'));
      const at = (t: number) => r.channels.VO2?.values[r.t_s.indexOf(t)] ?? null;
      expect(Math.round(at(465) as number)).to.equal(3346);
      expect(Math.round(at(655) as number)).to.equal(4102);
    });

    it('never imports the ratio columns or the domain labels, and keeps age, height in cm and weight', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-data-test'));
      expect(Object.keys(r.channels)).to.have.members(['VO2', 'VCO2', 'VE', 'RF', 'PetO2', 'PetCO2', 'HR']);
      expect(r.embedded_thresholds).to.deep.equal([]);
      expect(r.phases).to.deep.equal([]);
      expect(r.subject).to.deep.equal({ age_years: 18, height_cm: 177, body_mass_kg: 65 });
      expect(r.subject.sex).to.equal(undefined);
    });

    it('reports 1-s averages flagged as interpolated upstream', async () => {
      const { recording: r } = await readFixture(fixture('pyoxynet-data-test'));
      expect(r.sampling).to.include({ method: 'averaged', raw_interval_s: 1, averaging_s: 1 });
      expect(r.flags.map((f) => f.code)).to.include('interpolated_upstream');
    });
  });

  it('reads a semicolon-separated re-save with decimal commas to the same numbers', async () => {
    const base = (await readFixture(fixture('pyoxynet-data-test'))).recording;
    const { recording: r } = await readFixture(fixture('semicolon-decimal-comma'));
    expect(r.t_s).to.deep.equal(base.t_s.slice(0, 60));
    expect(r.channels.VO2?.values).to.deep.equal(base.channels.VO2?.values.slice(0, 60));
    expect(r.flags.map((f) => f.code)).to.include('decimal_comma');
  });
});
