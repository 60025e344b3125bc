import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import type { ServiceError } from '../../../src/errors.js';
import { decodeText, FileView } from '../../../src/formats/file-view.js';
import { sniffDelimiter, splitLines, textHead, textTable, wrappedCells, type Delimiter } from '../../../src/formats/table/delimited-text.js';
import { listFixtures } from '../fixture-helpers.js';
import { VARIANTS } from '../variants/index.js';

/** csv-parse's cells for one line, with the options the table layer gives it. */
function csvParse(line: string, delimiter: Delimiter): string[] {
  const [record] = parseCsv(line, { delimiter, ltrim: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false }) as string[][];
  return record ?? [];
}

/** Every line of every text fixture and of every generated text variant. */
function realLines(): { lines: string[]; delimiter: Delimiter; where: string }[] {
  const texts = [
    ...listFixtures().map((f) => ({ bytes: readFileSync(f.input), where: `${f.format}/${f.name}` })),
    ...VARIANTS.filter((v) => /\.(csv|txt)$/.test(v.filename)).map((v) => ({ bytes: v.bytes(), where: `${v.family}/${v.name}` })),
  ];
  return texts.flatMap(({ bytes, where }) => {
    const text = new FileView('x', bytes).container === 'text' ? decodeText(bytes)?.text : undefined;
    if (text === undefined) return [];
    const lines = text.split(/\r\n|\n|\r/);
    return [{ lines, delimiter: sniffDelimiter(lines.slice(0, 80)), where }];
  });
}

describe('src/formats/table/delimited-text.ts', () => {
  it('splits a line whose quotes only wrap whole cells exactly as csv-parse does, on every real and generated line', () => {
    let checked = 0;
    for (const { lines, delimiter, where } of realLines()) {
      for (const line of lines) {
        if (!line.includes('"')) continue;
        const cells = wrappedCells(line, delimiter);
        if (cells === null) continue;
        expect(cells, `${where}: ${line}`).to.deep.equal(csvParse(line, delimiter));
        checked++;
      }
    }
    expect(checked, 'Parvo alone has dozens of such lines').to.be.greaterThan(50);
  });

  it('leaves to csv-parse every line whose quoting moves a split, and agrees with it on generated lines', () => {
    expect(wrappedCells('"Name", "TW02, ", "File number"', ',')).to.equal(null);
    expect(wrappedCells('"a ""quoted"" word", 5', ',')).to.equal(null);
    expect(wrappedCells('"open field', ',')).to.equal(null);
    expect(wrappedCells('5\'10", 70', ',')).to.equal(null);
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const pieces = ['a', 'b c', '"q"', ' "p d"', '""', '1.5', ' ', '"x;y"', '\t7', '"', 'é'];
    for (let k = 0; k < 5000; k++) {
      const delimiter = (['\t', ';', ','] as const)[Math.floor(next() * 3)];
      const line = Array.from({ length: 1 + Math.floor(next() * 5) }, () => pieces[Math.floor(next() * pieces.length)]).join(delimiter);
      if (!line.includes('"')) continue;
      const cells = wrappedCells(line, delimiter);
      if (cells !== null) expect(cells, JSON.stringify(line)).to.deep.equal(csvParse(line, delimiter));
    }
  });

  it('reads a quoted field that spans lines as one row, numbering rows by the line they start on', () => {
    const { rows, lines } = splitLines(['time,comment,VO2', '0:10,"first', 'second line",300', '0:13,plain,310'], ',');
    expect(rows).to.deep.equal([
      ['time', 'comment', 'VO2'],
      ['0:10', 'first\nsecond line', '300'],
      ['0:13', 'plain', '310'],
    ]);
    expect(lines).to.deep.equal([1, 2, 4]);
  });

  it('refuses a quoted field that never closes with PARSER_ERROR saying the line', () => {
    try {
      splitLines(['time,VO2', '0:10,"unclosed'], ',');
      expect.fail('accepted');
    } catch (err) {
      expect((err as ServiceError).code).to.equal('PARSER_ERROR');
      expect((err as ServiceError).context.where).to.deep.equal({ line: 2 });
    }
  });

  it('takes a tab or a semicolon when half the head lines hold one, else a comma', () => {
    expect(sniffDelimiter(['ID-nummer:\tBT2096', '', 'Tid\tLast\tHF', 'min\tW\t1/min'])).to.equal('\t');
    expect(sniffDelimiter([';time;VO2_I', '0;5,0;1109,9', '1;6,0;1114,7'])).to.equal(';');
    expect(sniffDelimiter(['"Patient Information"', '"Age", 0, "yrs"', 'time,VO2'])).to.equal(',');
  });

  it('gives detectors a bounded head and the parser the whole text, the head reused when it was split whole', () => {
    const lines = ['"time", "VO2"', ...Array.from({ length: 200 }, (_, i) => `${i}, ${300 + i}`)];
    const file = new FileView('x.csv', Buffer.from(`${lines.join('\n')}\n`));
    const head = textHead(file, 3);
    expect(head?.rows).to.deep.equal([
      ['time', 'VO2'],
      ['0', ' 300'],
      ['1', ' 301'],
    ]);
    const all = textTable(file, ',');
    expect(all?.rows).to.have.length(201);
    expect(all?.rows[200]).to.deep.equal(['199', ' 499']);
    expect(all?.lines[200]).to.equal(201);
    expect(all?.ends_with_line_break).to.equal(true);
  });

  it('reads a UTF-8 file with a byte-order mark with its first header cell clean', () => {
    const file = new FileView('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('time;VO2;VCO2\n0:10;300;250\n')]));
    expect(textTable(file)?.rows[0]).to.deep.equal(['time', 'VO2', 'VCO2']);
  });

  it('does not split XML or JSON heads for detectors', () => {
    expect(textHead(new FileView('x.json', Buffer.from('[{"t": 0, "VO2": 300}]')))).to.equal(null);
    expect(textHead(new FileView('x.xml', Buffer.from('<?xml version="1.0"?>\n<Workbook/>')))).to.equal(null);
  });
});
