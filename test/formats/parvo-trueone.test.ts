import { expect } from 'chai';
import { fixtureInput, itDetectsAndSnapshotsEveryFixture, resavedAsXls } from './summary-snapshot.js';
import parvo from '../../formats/parvo-trueone/index.js';
import { ServiceError } from '../../src/errors.js';
import { chooseFormat } from '../../src/formats/detect.js';
import { FileView } from '../../src/formats/file-view.js';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';

const BINNED = 'csv-binned';
const BXB = 'csv-breath-by-breath';
const XLSX = 'xlsx-30s-bins';

const input = (name: string) => fixtureInput('parvo-trueone', name);

function peak(rec: Recording, name: 'VO2'): number {
  return Math.max(...(rec.channels[name]?.values ?? []).filter((v): v is number => v !== null));
}

describe('parvo-trueone format', () => {
  let plugins: readonly FormatPlugin[];
  before(async () => {
    plugins = (await loadPlugins()).formats;
  });

  itDetectsAndSnapshotsEveryFixture(parvo);

  describe('binned CSV (epl parvo_binned.CSV)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(BINNED);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it("holds epl's 179 rows with TIME in seconds (row 1 18.1 s, row 3 49.5 s)", () => {
      expect(rec.t_s).to.have.length(179);
      expect(rec.t_s[0]).to.be.closeTo(18.1, 0.05);
      expect(rec.t_s[2]).to.be.closeTo(49.5, 0.05);
    });

    it("matches epl's row 1 with VO2 in mL/min and VE brought from STPD to BTPS by the file's factor", () => {
      expect(rec.channels.VO2?.values[0]).to.be.closeTo(404.114, 1e-6);
      expect(rec.channels.VCO2?.values[0]).to.be.closeTo(419.141, 1e-6);
      expect(rec.channels.RER?.values[0]).to.be.closeTo(1.04, 0.005);
      expect(rec.channels.RF?.values[0]).to.be.closeTo(13.3, 0.05);
      expect(rec.channels.VT?.values[0]).to.be.closeTo(1.11, 0.005);
      // epl keeps VE as written (12.1 L/min STPD); the canonical channel is BTPS.
      expect(rec.channels.VE?.values[0]).to.be.closeTo(12.110677 * 1.218243, 1e-6);
      expect(rec.flags.map((f) => f.code)).to.include('ve_stpd_to_btps');
    });

    it('reads HR 0 as not recorded and HR 107 from row 3', () => {
      expect(rec.channels.HR?.values[0]).to.equal(null);
      expect(rec.channels.HR?.values[2]).to.equal(107);
    });

    it('agrees with its own "Max VO2" trailer (4.001054 L/min)', () => {
      expect(peak(rec, 'VO2')).to.be.closeTo(4001.054, 1e-6);
    });

    it('is binned (Breath# counts several breaths per row) at about 15 s', () => {
      expect(rec.sampling.method).to.equal('averaged');
      expect(rec.sampling.averaging_s).to.equal(15);
    });

    it('turns Start/Stop Exercise events into exercise and recovery phases (epl: 240 s Start, 540 s Stop)', () => {
      expect(rec.phases.slice(0, 2).map((p) => [p.phase, p.t_start_s, p.t_end_s])).to.deep.equal([
        ['exercise', 240, 540],
        ['recovery', 540, 900],
      ]);
      expect(rec.phases.filter((p) => p.phase === 'exercise')).to.have.length(5);
    });

    it('keeps sex, height and weight but drops the name, the test date and the event free text', () => {
      expect(rec.subject).to.deep.equal({ sex: 'male', height_cm: 176, body_mass_kg: 71 });
      const text = JSON.stringify({ subject: rec.subject, phases: rec.phases, flags: rec.flags, absent: rec.absent, thresholds: rec.embedded_thresholds });
      expect(text).not.to.match(/TW02|RPE|Cadence|265W|2025/);
    });
  });

  describe('breath-by-breath CSV (epl parvo_bxb.CSV)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(BXB);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it('holds 1,056 breaths, breath by breath, agreeing with its "Max VO2" of 5.173391 L/min', () => {
      expect(rec.t_s).to.have.length(1056);
      expect(rec.sampling.method).to.equal('breath_by_breath');
      expect(rec.t_s[0]).to.be.closeTo(0.082433 * 60, 1e-9);
      expect(peak(rec, 'VO2')).to.be.closeTo(5173.391, 1e-6);
      expect(rec.absent.Load).to.equal('not in the file');
      expect(rec.absent.PetCO2).to.equal('not in the file');
    });
  });

  describe('xlsx (epl parvo_excel.xlsx)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(XLSX);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it("holds epl's 55 rows of 30-s bins with m:ss TIME text in seconds", () => {
      expect(rec.t_s).to.have.length(55);
      expect(rec.t_s[0]).to.equal(31);
      expect(rec.t_s[54]).to.equal(1650);
      expect(rec.sampling).to.include({ method: 'averaged', averaging_s: 30 });
    });

    it('takes the BTPS one of the two VE columns, WorkR as load in W and PetCO2 in mmHg', () => {
      expect(rec.channels.VE?.values[0]).to.be.closeTo(12.4567289352417, 1e-9);
      expect(rec.channels.Load?.values[54]).to.be.closeTo(180, 1e-3);
      expect(rec.channels.PetCO2?.unit_in).to.equal('mmHg');
      expect(rec.channels.PetCO2?.values[0]).to.be.closeTo(15.8626, 1e-4);
      expect(rec.channels.HR?.values[0]).to.equal(72);
      expect(peak(rec, 'VO2')).to.be.closeTo(2566.2017, 1e-3);
    });

    it('keeps age, sex, height and weight, and the Warm Up / Start Exercise events as phases', () => {
      expect(rec.subject).to.deep.equal({ age_years: 53, sex: 'female', height_cm: 169.4, body_mass_kg: 85.35 });
      expect(rec.phases.map((p) => [p.phase, Math.round(p.t_start_s * 100) / 100])).to.deep.equal([
        ['warmup', 510.39],
        ['exercise', 570.39],
      ]);
    });
  });

  it('exports only the plugin from index.ts', async () => {
    expect(Object.keys(await import('../../formats/parvo-trueone/index.js'))).to.deep.equal(['default']);
  });

  it('reads the xlsx fixture re-saved as a BIFF8 .xls (OLE container) to the same numbers', async () => {
    const { bytes } = input(XLSX);
    const file = new FileView('resaved.xls', resavedAsXls(bytes));
    expect(file.container).to.equal('ole');
    expect(chooseFormat(file, plugins).plugin.meta.id).to.equal('parvo-trueone');
    const original = await parvo.parse(new FileView('a.xlsx', bytes));
    const rec = await parvo.parse(file);
    expect(rec.t_s).to.deep.equal(original.t_s);
    expect(rec.channels.VO2?.values).to.deep.equal(original.channels.VO2?.values);
    expect(rec.subject).to.deep.equal(original.subject);
  });

  describe('mutations', () => {
    it('reads the CSV re-encoded as UTF-16 LE and as cp1252 to the same numbers', async () => {
      const { bytes } = input(BINNED);
      const original = await parvo.parse(new FileView('a.csv', bytes));
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.toString('latin1'), 'utf16le')]);
      const cp1252 = Buffer.from(bytes.toString('latin1'), 'latin1');
      for (const variant of [utf16, cp1252]) {
        const rec = await parvo.parse(new FileView('b.csv', variant));
        expect(rec.t_s).to.deep.equal(original.t_s);
        expect(rec.channels.VO2?.values).to.deep.equal(original.channels.VO2?.values);
        expect(rec.phases).to.deep.equal(original.phases);
      }
    });

    for (const name of [BINNED, BXB, XLSX]) {
      for (const fraction of [0.3, 0.6, 0.9]) {
        it(`reads ${name} cut at ${fraction * 100} % with a flag, or refuses it with a ServiceError`, async () => {
          const { filename, bytes } = input(name);
          const cut = Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));
          try {
            const { recording } = await readUpload(filename, cut, plugins);
            expect(recording.format).to.equal('parvo-trueone');
            expect(recording.flags.map((f) => f.code)).to.include('trailer_missing');
          } catch (err) {
            expect(err).to.be.instanceOf(ServiceError);
            const code = (err as ServiceError).code;
            if (code === 'UNSUPPORTED_FORMAT') {
              // A cut archive loses its directory: nothing can attribute it, and the parser itself says PARSER_ERROR.
              expect(parvo.detect(new FileView(filename, cut)).score).to.be.below(0.5);
              expect(() => parvo.parse(new FileView(filename, cut)))
                .to.throw(ServiceError)
                .with.property('code', 'PARSER_ERROR');
            } else {
              expect(code).to.equal('PARSER_ERROR');
            }
          }
        });
      }

      for (const other of ['input.txt', 'input.xls', 'input']) {
        it(`detects ${name} renamed to ${other} the same`, async () => {
          const { recording } = await readUpload(other, input(name).bytes, plugins);
          expect(recording.format).to.equal('parvo-trueone');
        });
      }
    }
  });
});
