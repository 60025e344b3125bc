import { expect } from 'chai';
import { fixtureInput, itDetectsAndSnapshotsEveryFixture, resavedAsXls } from './summary-snapshot.js';
import cortex from '../../formats/cortex-metasoft/index.js';
import { ServiceError } from '../../src/errors.js';
import { chooseFormat } from '../../src/formats/detect.js';
import { FileView } from '../../src/formats/file-view.js';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';

const XML = 'xml2003-de';
const XLSX = 'xlsx-de-anonymised';

const input = (name: string) => fixtureInput('cortex-metasoft', name);

/** Replaces the text of the `col`-th <Data> of the SpreadsheetML row whose first two cells are `first` and `second`. */
function setCell(xml: string, first: string, second: string, col: number, value: string): string {
  return xml.replace(/<Row>[\s\S]*?<\/Row>/g, (row) => {
    const data = [...row.matchAll(/<Data[^>]*>([^<]*)<\/Data>/g)];
    if (data[0]?.[1] !== first || data[1]?.[1] !== second) return row;
    let i = -1;
    return row.replace(/(<Data[^>]*>)([^<]*)(<\/Data>)/g, (m, open: string, _text: string, close: string) => (++i === col ? `${open}${value}${close}` : m));
  });
}

describe('cortex-metasoft format', () => {
  let plugins: readonly FormatPlugin[];
  before(async () => {
    plugins = (await loadPlugins()).formats;
  });

  // The anonymised xlsx lost its metadata labels, so it scores on its column block alone.
  itDetectsAndSnapshotsEveryFixture(cortex, 0.6);

  describe('Excel 2003 XML file (spiro cortex.xml)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(XML);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it("holds spiro's 13 breaths, rows 1, 2, 11 and 13 in canonical units (VO2 and VCO2 x 1000)", () => {
      expect(rec.t_s).to.have.length(13);
      const spiro = [
        [0, 9, 117.05, 120.99, 12.76, 0.51, 6.55, 53, 0],
        [1, 15, 131.55, 129.56, 9.7, 0.63, 6.15, 51, 0],
        [10, 62, 314.26, 282.07, 6.31, 1.4, 8.81, 49, 50],
        [12, 70, 486.22, 428.48, 19.23, 0.91, 17.42, 51, 50],
      ];
      for (const [i, t, vo2, vco2, rf, vt, ve, hr, load] of spiro) {
        expect(rec.t_s[i]).to.equal(t);
        expect(rec.channels.VO2?.values[i]).to.be.closeTo(vo2, 0.005);
        expect(rec.channels.VCO2?.values[i]).to.be.closeTo(vco2, 0.005);
        expect(rec.channels.RF?.values[i]).to.be.closeTo(rf, 0.005);
        expect(rec.channels.VT?.values[i]).to.be.closeTo(vt, 0.005);
        expect(rec.channels.VE?.values[i]).to.be.closeTo(ve, 0.005);
        expect(rec.channels.HR?.values[i]).to.equal(hr);
        expect(rec.channels.Load?.values[i]).to.equal(load);
      }
    });

    it('reads "Gewicht | 74,8kg" as 74.8 kg, with height, sex and age but no name or date', () => {
      expect(rec.subject).to.deep.equal({ sex: 'male', height_cm: 178, body_mass_kg: 74.8, age_years: 38 });
      const text = JSON.stringify({ subject: rec.subject, phases: rec.phases, flags: rec.flags, absent: rec.absent, thresholds: rec.embedded_thresholds });
      expect(text).not.to.match(/YYY|XXX|1980|2019/);
    });

    it('has no PetO2/PetCO2, Ruhe then Erwärmung phases, breath by breath, and no thresholds (VT1/VT2 are "-")', () => {
      expect(rec.absent.PetO2).to.equal('not in the file');
      expect(rec.absent.PetCO2).to.equal('not in the file');
      expect(rec.phases.map((p) => [p.phase, p.t_start_s])).to.deep.equal([
        ['rest', 9],
        ['warmup', 62],
      ]);
      expect(rec.sampling.method).to.equal('breath_by_breath');
      expect(rec.embedded_thresholds).to.deep.equal([]);
    });
  });

  describe('xlsx file (whippr step_cortex.xlsx)', () => {
    let rec: Recording;
    before(async () => {
      const { filename, bytes } = input(XLSX);
      rec = (await readUpload(filename, bytes, plugins)).recording;
    });

    it('holds 792 breaths from 00:00:04,8 with the decimal comma read as tenths', () => {
      expect(rec.t_s).to.have.length(792);
      expect(rec.t_s[0]).to.be.closeTo(4.8, 1e-9);
      expect(rec.t_s[1]).to.be.closeTo(7.9, 1e-9);
      expect(rec.flags.map((f) => f.code)).to.include('time_decimal_comma');
    });

    it("converts V'O2 (STPD) l/min to mL/min and keeps PetO2/PetCO2 in mmHg", () => {
      expect(rec.channels.VO2?.values[0]).to.be.closeTo(298, 1e-9);
      expect(rec.channels.VCO2?.values[0]).to.be.closeTo(248, 1e-9);
      expect(rec.channels.VE?.values[0]).to.equal(13.3);
      expect(rec.channels.PetO2?.values[0]).to.equal(106.4);
      expect(rec.channels.PetCO2?.values[0]).to.equal(30.8);
      expect(rec.channels.HR?.values[0]).to.equal(73);
    });

    it('never reads W (cumulative kcal) as load', () => {
      expect(rec.channels.Load).to.equal(undefined);
      expect(rec.absent.Load).to.match(/kcal/);
      expect(rec.flags.map((f) => f.code)).to.include('w_column_not_load');
    });
  });

  describe('branches the real files do not reach (derived from the XML file)', () => {
    function english(): string {
      let xml = input(XML).bytes.toString('utf8');
      const rename: [string, string][] = [
        ['Stammdaten', 'Administrative Data'],
        ["V'O2", "V'O2 (STPD)"],
        ['AF', 'BF'],
        ['P', 'WR'],
        ['HF', 'HR'],
        ['Geschlecht', 'Sex'],
        ['männlich', 'male'],
        ['Größe', 'Height'],
        ['Gewicht', 'Weight'],
        ['74,8kg', '74.8 kg'],
        ['Ruhe', 'Rest'],
        ['Erwärmung', 'Warm-up'],
      ];
      for (const [de, en] of rename) xml = xml.split(`>${de}</Data>`).join(`>${en}</Data>`);
      xml = setCell(xml, 't', 'mm:ss', 5, '00:50');
      return setCell(xml, "V'O2 (STPD)", 'L/min', 5, '0,30');
    }

    it('reads an English export and a filled VT1 in the summary table', async () => {
      const { recording: rec } = await readUpload('english.xml', Buffer.from(english(), 'utf8'), plugins);
      expect(rec.format).to.equal('cortex-metasoft');
      expect(rec.channels.VO2?.values[0]).to.be.closeTo(117.05, 0.005);
      expect(rec.channels.RF?.values[0]).to.equal(12.76);
      expect(rec.channels.Load?.values[12]).to.equal(50);
      expect(rec.channels.HR?.values[0]).to.equal(53);
      expect(rec.subject).to.include({ sex: 'male', height_cm: 178, body_mass_kg: 74.8 });
      expect(rec.phases.map((p) => p.phase)).to.deep.equal(['rest', 'warmup']);
      expect(rec.embedded_thresholds).to.have.length(1);
      expect(rec.embedded_thresholds[0]).to.include({ name: 'VT1', label: 'VT1', time_s: 50 });
      expect(rec.embedded_thresholds[0].vo2_ml_min).to.be.closeTo(300, 1e-9);
    });

    it('reads the same numbers from UTF-16 LE bytes', async () => {
      const text = input(XML).bytes.toString('utf8');
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
      const a = await cortex.parse(new FileView('a.xml', input(XML).bytes));
      const b = await cortex.parse(new FileView('b.xml', utf16));
      expect(b.channels.VO2?.values).to.deep.equal(a.channels.VO2?.values);
      expect(b.subject).to.deep.equal(a.subject);
    });

    it('refuses an XML whose DOCTYPE declares entities, before reading any row', async () => {
      const xml = input(XML).bytes.toString('utf8').replace('<?xml version="1.0"?>', '<?xml version="1.0"?>\n<!DOCTYPE Workbook [<!ENTITY kg "74,8kg">]>');
      let error: unknown;
      try {
        await readUpload('entity.xml', Buffer.from(xml, 'utf8'), plugins);
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(ServiceError);
      expect((error as ServiceError).code).to.equal('PARSER_ERROR');
    });
  });

  it('exports only the plugin from index.ts', async () => {
    expect(Object.keys(await import('../../formats/cortex-metasoft/index.js'))).to.deep.equal(['default']);
  });

  it('reads the xlsx fixture re-saved as a BIFF8 .xls (OLE container) to the same numbers', async () => {
    const { bytes } = input(XLSX);
    const file = new FileView('resaved.xls', resavedAsXls(bytes));
    expect(file.container).to.equal('ole');
    expect(chooseFormat(file, plugins).plugin.meta.id).to.equal('cortex-metasoft');
    const original = await cortex.parse(new FileView('a.xlsx', bytes));
    const rec = await cortex.parse(file);
    expect(rec.t_s).to.deep.equal(original.t_s);
    expect(rec.channels.VO2?.values).to.deep.equal(original.channels.VO2?.values);
    expect(rec.absent.Load).to.equal(original.absent.Load);
  });

  describe('mutations', () => {
    for (const name of [XML, XLSX]) {
      for (const fraction of [0.3, 0.6, 0.9]) {
        it(`reads ${name} cut at ${fraction * 100} % with a flag, or refuses it with a ServiceError`, async () => {
          const { filename, bytes } = input(name);
          const cut = Buffer.from(bytes.subarray(0, Math.floor(bytes.length * fraction)));
          try {
            const { recording } = await readUpload(filename, cut, plugins);
            expect(recording.format).to.equal('cortex-metasoft');
            expect(recording.flags.map((f) => f.code)).to.include('document_cut_short');
          } catch (err) {
            expect(err).to.be.instanceOf(ServiceError);
            const code = (err as ServiceError).code;
            if (code === 'UNSUPPORTED_FORMAT') {
              // Only when nothing that identifies MetaSoft survives the cut (an archive without its directory, or styles only).
              expect(cortex.detect(new FileView(filename, cut)).score).to.be.below(0.5);
            } else {
              expect(code).to.equal('PARSER_ERROR');
            }
          }
        });
      }

      for (const other of ['input.csv', 'input.txt', 'input']) {
        it(`detects ${name} renamed to ${other} the same`, async () => {
          const { recording } = await readUpload(other, input(name).bytes, plugins);
          expect(recording.format).to.equal('cortex-metasoft');
        });
      }
    }
  });
});
