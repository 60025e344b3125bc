/**
 * The SpreadsheetML reader on a real XML tokenizer: what regular expressions over tags misread
 * (a commented-out row, CDATA, single-quoted attributes, `>` inside an attribute) is read as XML
 * means it, and entity declarations are still refused unread.
 */
import { expect } from 'chai';
import { ServiceError } from '../../src/errors.js';
import { readSpreadsheetMl, tokenizeXml } from '../../src/formats/safe-xml.js';

const workbook = (rows: string) =>
  `<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">\n<Worksheet ss:Name="Data"><Table>\n${rows}\n</Table></Worksheet></Workbook>\n`;

describe('the SpreadsheetML reader', () => {
  it('skips a commented-out row instead of reading it as data', () => {
    const [sheet] = readSpreadsheetMl(
      workbook('<Row><Cell><Data ss:Type="String">t</Data></Cell></Row>\n<!-- <Row><Cell><Data ss:Type="Number">99</Data></Cell></Row> -->\n<Row><Cell><Data ss:Type="Number">1</Data></Cell></Row>'),
    );
    expect(sheet.rows).to.deep.equal([['t'], [1]]);
  });

  it('reads CDATA as the characters written, markup and entities included', () => {
    const [sheet] = readSpreadsheetMl(workbook('<Row><Cell><Data ss:Type="String"><![CDATA[VO2 <ml/min> &amp; </Data>]]></Data></Cell></Row>'));
    expect(sheet.rows).to.deep.equal([['VO2 <ml/min> &amp; </Data>']]);
  });

  it("reads single-quoted attributes, and a '>' inside an attribute value", () => {
    const xml = workbook(`<Row ss:StyleID='a>b'><Cell ss:Index='3'><Data ss:Type='Number'>2.5</Data></Cell></Row>`).replace('ss:Name="Data"', "ss:Name='Test &amp; rest'");
    const [sheet] = readSpreadsheetMl(xml);
    expect(sheet.name).to.equal('Test & rest');
    expect(sheet.rows).to.deep.equal([[null, null, 2.5]]);
  });

  it('decodes the predefined entities and character references in data, and keeps rich text characters only', () => {
    const [sheet] = readSpreadsheetMl(workbook('<Row><Cell><ss:Data ss:Type="String">V&#39;O&#x2082; &lt;1&gt;</ss:Data></Cell><Cell><Data ss:Type="String"><Font>P</Font>etCO2</Data></Cell></Row>'));
    expect(sheet.rows).to.deep.equal([["V'O\u2082 <1>", 'PetCO2']]);
  });

  it('still refuses an entity declaration unread', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE Workbook [<!ENTITY a "aaaaaaaa">]>${workbook('<Row><Cell><Data ss:Type="String">&a;</Data></Cell></Row>').replace('<?xml version="1.0"?>', '')}`;
    expect(() => readSpreadsheetMl(xml)).to.throw(ServiceError, /entities/);
  });

  it('says a cut-short file is cut short, with its line', () => {
    let error: unknown;
    try {
      readSpreadsheetMl(workbook('<Row><Cell><Data ss:Type="Number">1'));
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ServiceError);
    expect((error as ServiceError).message).to.match(/not closed/);
  });

  it('tokenizes in document order: starts, ends and text, comments and instructions skipped', () => {
    const kinds = [...tokenizeXml("<?pi x?><a b='1'><!--c-->t<c/></a>")].map((t) => (t.kind === 'text' ? `text:${t.text}` : `${t.kind}:${t.name}`));
    expect(kinds).to.deep.equal(['start:a', 'text:t', 'start:c', 'end:a']);
  });
});
