import { expect } from 'chai';
import { fixtureInput, itDetectsAndSnapshotsEveryFixture, resavedAsXls } from './summary-snapshot.js';
import { readSheets, writeWorkbook } from '../../src/formats/workbook.js';
import cosmed from '../../formats/cosmed-xlsx/index.js';
import { ServiceError } from '../../src/errors.js';
import { chooseFormat } from '../../src/formats/detect.js';
import { FileView } from '../../src/formats/file-view.js';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';

const OMNIA = 'omnia-de-10s-averages';
const PFT = 'pft-suite-en-breath-by-breath';

const input = (name: string) => fixtureInput('cosmed-xlsx', name);

async function parseBytes(filename: string, bytes: Buffer): Promise<Recording> {
  return cosmed.parse(new FileView(filename, bytes));
}

describe('cosmed-xlsx format', () => {
  let plugins: readonly FormatPlugin[];
  before(async () => {
    plugins = (await loadPlugins()).formats;
  });

  itDetectsAndSnapshotsEveryFixture(cosmed);

  describe('Omnia German file (spiro cosmed.xlsx)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(OMNIA);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it('holds the 10 rows spiro reads, with its rows 1, 4 and 10 in canonical units', () => {
      expect(rec.t_s).to.have.length(10);
      const at = (i: number) => ({
        t: rec.t_s[i],
        VO2: rec.channels.VO2?.values[i],
        VCO2: rec.channels.VCO2?.values[i],
        RF: rec.channels.RF?.values[i],
        VT: rec.channels.VT?.values[i],
        VE: rec.channels.VE?.values[i],
        Speed: rec.channels.Speed?.values[i],
        PetO2: rec.channels.PetO2?.values[i],
        PetCO2: rec.channels.PetCO2?.values[i],
      });
      const spiro = [
        [0, 30, 506.16, 440.98, 34.9, 0.56, 19.4, 12, 128, 20],
        [3, 60, 988.91, 896.52, 26.2, 1.34, 35.2, 12, 126, 22],
        [9, 120, 2707.73, 2212.42, 26.6, 2.37, 62.9, 13, 114, 31],
      ];
      for (const [i, t, vo2, vco2, rf, vt, ve, speed, peto2, petco2] of spiro) {
        const r = at(i);
        expect(r.t).to.be.closeTo(t, 1e-6);
        expect(r.VO2).to.be.closeTo(vo2, 0.01);
        expect(r.VCO2).to.be.closeTo(vco2, 0.01);
        expect(r.RF).to.be.closeTo(rf, 1e-9);
        expect(r.VT).to.be.closeTo(vt, 0.01);
        expect(r.VE).to.be.closeTo(ve, 1e-9);
        expect(r.Speed).to.equal(speed);
        expect(r.PetO2).to.equal(peto2);
        expect(r.PetCO2).to.equal(petco2);
      }
    });

    it('reads body mass 71.5 kg from "Gewicht (kg)", not the 67.1 spiro derives', () => {
      expect(rec.subject).to.deep.equal({ sex: 'male', age_years: 45, height_cm: 179, body_mass_kg: 71.5 });
    });

    it('reports HF reading zero throughout as absent, and no load on a treadmill', () => {
      expect(rec.channels.HR).to.equal(undefined);
      expect(rec.absent.HR).to.match(/reading zero/);
      expect(rec.absent.Load).to.equal('not in the file');
      expect(rec.absent.SpO2).to.match(/reading zero/);
    });

    it('is 10-s averages with WARMUP then EXERCISE phases from the Phase column', () => {
      expect(rec.sampling).to.include({ method: 'averaged', raw_interval_s: 10, averaging_s: 10 });
      expect(rec.phases.map((p) => [p.phase, p.t_start_s])).to.deep.equal([
        ['warmup', 30],
        ['exercise', 70],
      ]);
      expect(rec.flags.map((f) => f.code)).to.include('time_excel_day_fraction');
    });

    it('finds no embedded thresholds because VT1 and VT2 in Ergebnisse are empty', () => {
      expect(rec.embedded_thresholds).to.deep.equal([]);
    });
  });

  describe('PFT Suite English file (whippr example_cosmed.xlsx)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(PFT);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it('holds the 754 breaths whippr reads, rows 1-3 matching its README', () => {
      expect(rec.t_s).to.have.length(754);
      expect(rec.t_s.slice(0, 3)).to.deep.equal([2, 4, 8]);
      expect(rec.t_s[753]).to.equal(2160);
      const vo2 = rec.channels.VO2?.values ?? [];
      const vco2 = rec.channels.VCO2?.values ?? [];
      expect(vo2[0]).to.be.closeTo(380, 0.5);
      expect(vo2[1]).to.be.closeTo(864, 0.5);
      expect(vo2[2]).to.be.closeTo(1317, 0.5);
      expect(vco2[0]).to.be.closeTo(301, 0.5);
      expect(vco2[1]).to.be.closeTo(665, 0.5);
      expect(vco2[2]).to.be.closeTo(1075, 0.5);
      expect(rec.channels.RF?.values[0]).to.be.closeTo(8.08, 0.005);
      expect(rec.channels.VT?.values[0]).to.be.closeTo(1.19, 0.005);
      expect(rec.channels.VE?.values[0]).to.be.closeTo(9.6, 0.005);
    });

    it('reads PetCO2 from PetCO2 (mmHg), never from P(a-et)CO2 (kPa)', () => {
      expect(rec.channels.PetCO2?.unit_in).to.equal('mmHg');
      expect(rec.channels.PetCO2?.values[0]).to.equal(36);
      expect(rec.channels.PetO2?.values[0]).to.equal(83);
    });

    it('is breath by breath, with HR and Load1 absent because they read zero throughout', () => {
      expect(rec.sampling.method).to.equal('breath_by_breath');
      expect(rec.absent.HR).to.match(/reading zero/);
      expect(rec.absent.Load).to.match(/reading zero/);
      expect(rec.subject).to.deep.equal({});
    });
  });

  describe('branches the real files do not reach (built from the Omnia file)', () => {
    /** The Omnia file rewritten as an English export: Data/Results, AT/RC filled, Power in Watt, end-tidal in kPa. */
    function englishOmnia(): Buffer {
      const sheets = readSheets(input(OMNIA).bytes, { raw: true, blankrows: true, defval: null });
      const rename: Record<string, string> = {
        Nachname: 'Last Name',
        Geschlecht: 'Sex',
        Männlich: 'Male',
        Alter: 'Age',
        'Größe (cm)': 'Height (cm)',
        'Gewicht (kg)': 'Weight (kg)',
        Af: 'Rf',
        HF: 'HR',
        PeO2: 'PetO2',
        PeCO2: 'PetCO2',
        R: 'RQ',
        VT1: 'AT',
        VT2: 'RC',
        Marker: 'Power',
      };
      const data = sheets[0].data.map((row) => row.map((c) => (typeof c === 'string' && rename[c] ? rename[c] : c)));
      const header = data[0];
      const power = header.indexOf('Power');
      data[1][power] = 'Watt';
      for (const name of ['PetO2', 'PetCO2']) data[1][header.indexOf(name)] = 'kPa';
      for (let r = 3; r < data.length; r++) {
        if (typeof data[r][header.indexOf('t')] !== 'number') continue;
        data[r][power] = 100 + r;
        for (const name of ['PetO2', 'PetCO2']) data[r][header.indexOf(name)] = (data[r][header.indexOf(name)] as number) / 7.50062;
      }
      const results = sheets[1].data.map((row) => row.map((c) => (typeof c === 'string' && rename[c] ? rename[c] : c)));
      const at = results[4].indexOf('AT');
      const rc = results[4].indexOf('RC');
      results[5][at] = 70 / 86400;
      results[5][rc] = 110 / 86400;
      results[11][at] = 1213.87;
      results[11][rc] = 2453.98;
      return writeWorkbook([
        { name: 'Data', data },
        { name: 'Results', data: results },
      ]);
    }

    it('reads an English Omnia export: Power as load, AT/RC as embedded VT1/VT2, kPa end-tidal in mmHg', async () => {
      const { recording: rec } = await readUpload('renamed.bin', englishOmnia(), plugins);
      expect(rec.format).to.equal('cosmed-xlsx');
      expect(rec.channels.Load?.values[0]).to.equal(103);
      expect(rec.channels.PetO2?.values[0]).to.be.closeTo(128, 1e-6);
      expect(rec.channels.PetCO2?.values[9]).to.be.closeTo(31, 1e-6);
      expect(rec.channels.RER?.values[0]).to.equal(0.87);
      expect(rec.subject).to.deep.equal({ sex: 'male', age_years: 45, height_cm: 179, body_mass_kg: 71.5 });
      expect(rec.embedded_thresholds).to.deep.equal([
        { name: 'VT1', label: 'AT', time_s: 70, vo2_ml_min: 1213.87 },
        { name: 'VT2', label: 'RC', time_s: 110, vo2_ml_min: 2453.98 },
      ]);
    });

    it('decides VO2 and PetCO2 units from magnitude, with a flag each, when the units row is blank', async () => {
      const sheets = readSheets(input(OMNIA).bytes, { raw: true, blankrows: true, defval: null });
      const data = sheets[0].data;
      for (const name of ['VO2', 'PeCO2']) data[1][data[0].indexOf(name)] = null;
      for (let r = 3; r < data.length; r++) if (typeof data[r][data[0].indexOf('VO2')] === 'number') data[r][data[0].indexOf('VO2')] = (data[r][data[0].indexOf('VO2')] as number) / 1000;
      const rec = await parseBytes('x.xlsx', writeWorkbook([{ name: 'Daten', data }]));
      expect(rec.channels.VO2?.values[0]).to.be.closeTo(506.1618208, 1e-6);
      expect(rec.channels.VO2?.unit_in).to.equal('L/min');
      expect(rec.channels.PetCO2?.values[0]).to.equal(20);
      expect(rec.flags.filter((f) => f.code === 'unit_inferred')).to.have.length(2);
    });

    it('never reads a load column whose unit is not watts', async () => {
      const sheets = readSheets(input(OMNIA).bytes, { raw: true, blankrows: true, defval: null });
      const data = sheets[0].data;
      const col = data[0].indexOf('Marker');
      data[0][col] = 'Power';
      data[1][col] = 'kcal';
      const rec = await parseBytes('x.xlsx', writeWorkbook([{ name: 'Daten', data }]));
      expect(rec.channels.Load).to.equal(undefined);
      expect(rec.absent.Load).to.match(/not watts/);
    });
  });

  it('exports only the plugin from index.ts', async () => {
    expect(Object.keys(await import('../../formats/cosmed-xlsx/index.js'))).to.deep.equal(['default']);
  });

  it('reads the omnia fixture re-saved as a BIFF8 .xls (OLE container) to the same numbers', async () => {
    const { bytes } = input(OMNIA);
    const file = new FileView('resaved.xls', resavedAsXls(bytes));
    expect(file.container).to.equal('ole');
    expect(chooseFormat(file, plugins).plugin.meta.id).to.equal('cosmed-xlsx');
    const original = await cosmed.parse(new FileView('a.xlsx', bytes));
    const rec = await cosmed.parse(file);
    expect(rec.t_s).to.deep.equal(original.t_s);
    expect(rec.channels.VO2?.values).to.deep.equal(original.channels.VO2?.values);
    expect(rec.subject).to.deep.equal(original.subject);
  });

  describe('mutations', () => {
    for (const name of [OMNIA, PFT]) {
      for (const fraction of [0.3, 0.6, 0.9]) {
        it(`refuses ${name} cut at ${fraction * 100} % with a ServiceError, PARSER_ERROR from the parser`, async () => {
          const { filename, bytes } = input(name);
          const cut = bytes.subarray(0, Math.floor(bytes.length * fraction));
          let parseError: unknown;
          try {
            await parseBytes(filename, Buffer.from(cut));
          } catch (err) {
            parseError = err;
          }
          expect(parseError).to.be.instanceOf(ServiceError);
          expect((parseError as ServiceError).code).to.equal('PARSER_ERROR');
          // Through the upload path nothing can attribute a damaged archive to a vendor: refused, never a crash.
          let uploadError: unknown;
          try {
            await readUpload(filename, Buffer.from(cut), plugins);
          } catch (err) {
            uploadError = err;
          }
          expect(uploadError).to.be.instanceOf(ServiceError);
          expect((uploadError as ServiceError).code).to.equal('PARSER_ERROR');
        });
      }

      for (const other of ['input.csv', 'input.xls', 'input']) {
        it(`detects ${name} renamed to ${other} the same`, async () => {
          const { recording } = await readUpload(other, input(name).bytes, plugins);
          expect(recording.format).to.equal('cosmed-xlsx');
        });
      }
    }
  });
});
