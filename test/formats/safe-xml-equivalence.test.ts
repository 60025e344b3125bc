/**
 * The rewritten XML tokenizer (a character scanner, issue 23) against the one it replaced
 * (safe-xml-reference.ts): the same tokens, the same sheets and the same errors, on every XML
 * fixture, on every cut of a workbook and on malformed markup.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { XmlScanner, readSpreadsheetMl, tokenizeXml } from '../../src/formats/safe-xml.js';
import { listFixtures } from './fixture-helpers.js';
import * as reference from './safe-xml-reference.js';

/** What a call gives, or the error it throws (class, code, message and details), as comparable data. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (err) {
    const e = err as { name: string; code?: string; message: string; details?: unknown };
    return { error: [e.constructor.name, e.code, e.message, JSON.stringify(e.details)] };
  }
}

/** Compared as JSON (Maps as their entries), which is much faster than a deep comparison over thousands of cuts. */
function json(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? [...v] : v));
}

function expectSame(xml: string, what: string): void {
  expect(json(outcome(() => [...tokenizeXml(xml)])), `tokens: ${what}`).to.equal(json(outcome(() => [...reference.tokenizeXml(xml)])));
  expect(json(outcome(() => readSpreadsheetMl(xml))), `sheets: ${what}`).to.equal(json(outcome(() => reference.readSpreadsheetMl(xml))));
}

const WORKBOOK = `<?xml version="1.0"?>
<?mso-application progid="Excel.Sheet"?>
<!DOCTYPE Workbook [<!ELEMENT Workbook ANY>]>
<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet" xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">
<!-- a comment <Row> -->
<Worksheet ss:Name='Test &amp; rest'><Table>
<Row ss:Index="2" ss:StyleID='a>b'><Cell ss:MergeAcross="1"><Data ss:Type="String">V&#39;O&#x2082; &lt;1&gt; &lol;</Data></Cell><Cell ss:Index="4"><ss:Data ss:Type="Number"> 2.5 </ss:Data></Cell></Row>
<Row><Cell><Data ss:Type="String"><![CDATA[VO2 <ml/min> &amp;]]></Data></Cell><Cell><Data ss:Type="String"><Font html:Color="#000">P</Font>etCO2</Data></Cell><Cell/></Row>
<Row/><Row  ss:Index = "6" ><Cell ss:Type="x"ss:Index="2"><Data ss:Type="Number">1e3</Data></Cell></Row>
</Table></Worksheet><Worksheet ss:Name="Second"/></Workbook>
`;

describe('the XML scanner against the tokenizer it replaced', () => {
  it('gives the same tokens and sheets on every XML fixture', () => {
    const xml = listFixtures().filter((f) => f.extension === 'xml');
    expect(xml).to.have.length.greaterThan(0);
    for (const fixture of xml) expectSame(readFileSync(fixture.input, 'utf8'), fixture.name);
  });

  it('gives the same tokens, sheets and errors on a workbook cut at every character', () => {
    for (let at = 0; at <= WORKBOOK.length; at++) expectSame(WORKBOOK.slice(0, at), `cut at ${at}`);
  });

  it('gives the same tokens, sheets and errors on the real export cut at every 997th character', () => {
    const fixture = listFixtures('cortex-metasoft').find((f) => f.extension === 'xml');
    const text = readFileSync(fixture?.input as string, 'utf8');
    for (let at = 0; at <= text.length; at += 997) expectSame(text.slice(0, at), `cut at ${at}`);
  });

  it('gives the same on malformed markup: bad attributes, stray <, unquoted values, white space of every kind', () => {
    const cases = [
      '<a b=1>',
      '<a b="1>',
      '<a b=\'1">',
      '<a b c="1">',
      '<a =1>',
      '<a/ >',
      '<a / >',
      '< a>',
      '<',
      'x<',
      '<a',
      '<a b="1"',
      '<a b="1"/',
      '<a\u00a0b="1"\u2028/>',
      '<a\u3000b\ufeff=\u2029"1">t</a >',
      '<a\u0085b="1">',
      '<a b="1" b="2" c=\'3\'>',
      '<a></b c>',
      '</',
      '<!---->',
      '<!-- -->x<!--',
      '<![CDATA[',
      '<?x',
      '<!DOCTYPE [[]>',
      '<!DOCTYPE a [ ]',
      '&amp;<a>&#0;&#x110000;&#65;</a>',
      '<Workbook><Worksheet><Table><Row ss:Index="0"/></Table></Worksheet></Workbook>',
      '<Workbook><Worksheet><Table><Row><Cell ss:Index="2"/><Cell ss:Index="2"/></Row></Table></Worksheet></Workbook>',
      '<Workbook><Worksheet><Table><Row><Cell ss:MergeAcross="x"><Data ss:Type="Number">1</Data></Cell><Cell><Data>2',
    ];
    for (const xml of cases) expectSame(xml, JSON.stringify(xml));
  });

  it('reads white space in tags as the pattern \\s does, for every UTF-16 code unit where \\s has any', () => {
    // \s holds nothing between U+3001 and U+FEFE; the units from U+FE00 on are checked as well.
    const units = [...Array.from({ length: 0x3100 }, (_, c) => c), ...Array.from({ length: 0x200 }, (_, k) => 0xfe00 + k)];
    for (const c of units) {
      const ch = String.fromCharCode(c);
      if (ch === '<' || ch === '>' || ch === '/' || ch === '=' || ch === '"') continue;
      const xml = `<a${ch}b="1"${ch}/>`;
      expect(json(outcome(() => [...tokenizeXml(xml)])), `U+${c.toString(16)}`).to.equal(json(outcome(() => [...reference.tokenizeXml(xml)])));
    }
  });

  it('finds the last of repeated attributes and decodes values only when asked', () => {
    const scanner = new XmlScanner('<a b="1" c="&lt;" b="2">');
    expect(scanner.next()).to.equal(true);
    expect(scanner.attribute('b')).to.equal('2');
    expect(scanner.attribute('c')).to.equal('<');
    expect(scanner.attribute('d')).to.equal(undefined);
    expect(scanner.next()).to.equal(false);
  });
});
