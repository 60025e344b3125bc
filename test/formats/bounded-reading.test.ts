import { expect } from 'chai';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { ServiceError } from '../../src/errors.js';
import { FileView } from '../../src/formats/file-view.js';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { assertNoEntityDeclarations, decodeXmlText, readSpreadsheetMl } from '../../src/formats/safe-xml.js';
import { loadPlugins } from '../../src/plugins.js';

const MB = 1024 * 1024;

/**
 * An xlsx whose one sheet inflates to `inflated_mb` MB of repeated row XML while the archive stays
 * a few hundred KB. Built by streaming one reused 1 MB chunk, so the test itself stays small.
 */
function zipBombXlsx(inflated_mb: number, withRelationships = false): Buffer {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, data) => {
    if (err) throw err;
    parts.push(data);
  });
  const small = (name: string, text: string) => {
    const entry = new ZipPassThrough(name);
    zip.add(entry);
    entry.push(new TextEncoder().encode(text), true);
  };
  if (withRelationships) {
    // Well formed enough for the direct sheet reader: content types, a relationship to the sheet.
    small(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    );
    small('xl/workbook.xml', '<?xml version="1.0"?><workbook><sheets><sheet name="Daten" sheetId="1" r:id="rId1"/></sheets></workbook>');
    small(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0"?><Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    );
  } else {
    small('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    small('xl/workbook.xml', '<?xml version="1.0"?><workbook><sheets><sheet name="Daten" sheetId="1"/></sheets></workbook>');
  }
  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 9 });
  zip.add(sheet);
  const chunk = Buffer.alloc(MB, '<row r="1"><c t="n"><v>0</v></c></row>');
  for (let i = 0; i < inflated_mb; i++) sheet.push(chunk, i === inflated_mb - 1);
  zip.end();
  return Buffer.concat(parts);
}

/** Ten levels of ten-fold entity references: 10^9 "lol"s if anything expanded them. */
function billionLaughs(spreadsheet: boolean): string {
  const entities = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  const body = spreadsheet
    ? '<?mso-application progid="Excel.Sheet"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">' +
      '<Worksheet ss:Name="MetasoftStudio"><Table><Row><Cell><Data ss:Type="String">Stammdaten</Data></Cell></Row>' +
      '<Row><Cell><Data ss:Type="String">&lol9;</Data></Cell></Row></Table></Worksheet></Workbook>'
    : '<lolz>&lol9;</lolz>';
  return `<?xml version="1.0"?>\n<!DOCTYPE lolz [\n ${entities.join('\n ')}\n]>\n${body}\n`;
}

async function refusal(filename: string, bytes: Buffer, plugins: readonly FormatPlugin[]): Promise<ServiceError> {
  try {
    await readUpload(filename, bytes, plugins);
  } catch (err) {
    expect(err).to.be.instanceOf(ServiceError);
    return err as ServiceError;
  }
  throw new Error(`${filename} was accepted`);
}

describe('bounded reading of hostile uploads', () => {
  let plugins: readonly FormatPlugin[];
  before(async () => {
    plugins = (await loadPlugins()).formats;
  });

  async function expectEveryWorkbookParserRefuses(bomb: Buffer): Promise<void> {
    for (const id of ['cosmed-xlsx', 'cortex-metasoft', 'parvo-trueone']) {
      const plugin = plugins.find((p) => p.meta.id === id) as FormatPlugin;
      let error: unknown;
      try {
        await plugin.parse(new FileView('bomb.xlsx', bomb));
      } catch (err) {
        error = err;
      }
      expect(error, id).to.be.instanceOf(ServiceError);
      expect((error as ServiceError).code, id).to.equal('FILE_TOO_LARGE');
    }
  }

  it('refuses a zip-bomb xlsx (KB on disk, 200 MB inflated) with FILE_TOO_LARGE in every workbook parser while memory stays bounded', async () => {
    const bomb = zipBombXlsx(200);
    expect(bomb.length).to.be.below(1 * MB);
    const before = process.memoryUsage().rss;
    await expectEveryWorkbookParserRefuses(bomb);
    expect((process.memoryUsage().rss - before) / MB).to.be.below(300);
  });

  it('refuses a zip-bomb sheet in a well-formed workbook with FILE_TOO_LARGE, from a detector head read or a parser, memory bounded', async () => {
    const bomb = zipBombXlsx(200, true);
    const before = process.memoryUsage().rss;
    expect((await refusal('bomb.xlsx', bomb, plugins)).code).to.equal('FILE_TOO_LARGE');
    await expectEveryWorkbookParserRefuses(bomb);
    expect((process.memoryUsage().rss - before) / MB).to.be.below(300);
  });

  it('refuses the zip-bomb upload unread, whatever detector looks at it, with memory bounded', async () => {
    const bomb = zipBombXlsx(200);
    const before = process.memoryUsage().rss;
    const error = await refusal('bomb.xlsx', bomb, plugins);
    // Every detector sees the archive refused and scores 0; see the report for surfacing FILE_TOO_LARGE here.
    expect(error.code).to.equal('FILE_TOO_LARGE');
    expect((process.memoryUsage().rss - before) / MB).to.be.below(300);
  });

  it('refuses a billion-laughs document dressed as a MetaSoft SpreadsheetML with PARSER_ERROR in well under a second', async () => {
    const started = performance.now();
    const error = await refusal('lol.xml', Buffer.from(billionLaughs(true), 'utf8'), plugins);
    expect(error.code).to.equal('PARSER_ERROR');
    expect(error.message).to.match(/entities/);
    expect(performance.now() - started).to.be.below(1000);
  });

  it('refuses a plain billion-laughs document quickly without expanding it', async () => {
    const started = performance.now();
    const error = await refusal('lol.xml', Buffer.from(billionLaughs(false), 'utf8'), plugins);
    expect(error.code).to.equal('PARSER_ERROR');
    expect(() => readSpreadsheetMl(billionLaughs(false)))
      .to.throw(ServiceError)
      .with.property('code', 'PARSER_ERROR');
    expect(performance.now() - started).to.be.below(1000);
  });

  it('refuses an external DOCTYPE (XXE) and leaves undeclared entity references literal', () => {
    expect(() => assertNoEntityDeclarations('<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>')).to.throw(ServiceError);
    expect(() => assertNoEntityDeclarations('<?xml version="1.0"?><!DOCTYPE Workbook><Workbook/>')).not.to.throw();
    expect(decodeXmlText('a &amp; b &lt;c&gt; &#252; &#xFC; &lol9;')).to.equal('a & b <c> ü ü &lol9;');
  });

  it('places SpreadsheetML cells by ss:Index and ss:MergeAcross and refuses an index that runs backwards', () => {
    const xml = (cells: string) => `<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"><Worksheet ss:Name="S"><Table><Row ss:Index="2">${cells}</Row></Table></Worksheet></Workbook>`;
    const [sheet] = readSpreadsheetMl(
      xml('<Cell ss:MergeAcross="1"><Data ss:Type="String">a</Data></Cell><Cell><Data ss:Type="Number">1.5</Data></Cell><Cell ss:Index="6"><Data ss:Type="String">z</Data></Cell>'),
    );
    expect(sheet.rows).to.deep.equal([[], ['a', null, 1.5, null, null, 'z']]);
    expect(() => readSpreadsheetMl(xml('<Cell ss:Index="3"/><Cell ss:Index="2"/>')))
      .to.throw(ServiceError)
      .with.property('code', 'PARSER_ERROR');
  });
});
