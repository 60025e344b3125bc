import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { byteCounter, commaCounter, commasInText } from '../../formats/zan-dat/commas.js';
import { FileView } from '../../src/formats/file-view.js';
import { listFixtures } from './fixture-helpers.js';

/** A buffer holding `text` (one byte a character) at `offset` bytes into a larger ArrayBuffer, so words start anywhere. */
function bytesAt(text: string, offset: number): Uint8Array {
  const backing = new Uint8Array(offset + text.length + 8).fill(44);
  const view = backing.subarray(offset, offset + text.length);
  view.set(Buffer.from(text, 'latin1'));
  return view;
}

describe('formats/zan-dat comma count over bytes', () => {
  it('counts as the character loop does over every range, at every alignment, commas around it included', () => {
    const text = ',1,,22,333,4444,,,55555,0,0,0,ü,,x,';
    for (let offset = 0; offset < 4; offset++) {
      const count = byteCounter(bytesAt(text, offset));
      for (let from = 0; from <= text.length; from++) {
        for (let to = from; to <= text.length; to++) expect(count(from, to), `${offset}: [${from}, ${to})`).to.equal(commasInText(text, from, to));
      }
    }
  });

  it('counts as the character loop does over pseudo-random rows of every byte value', () => {
    let seed = 7;
    const next = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 16;
    };
    for (let round = 0; round < 200; round++) {
      const length = next() % 300;
      // Half the bytes commas, the rest anything (bytes next to 0x2c and 0xac would catch a carry or a sign slip).
      const text = Array.from({ length }, () => String.fromCharCode(next() % 2 ? 44 : next() % 256)).join('');
      const count = byteCounter(bytesAt(text, next() % 4));
      const from = length === 0 ? 0 : next() % length;
      const to = from + (length === from ? 0 : next() % (length - from + 1));
      expect(count(from, to)).to.equal(commasInText(text, from, to));
    }
  });

  it('counts over the bytes only where each character is one byte, and gives the same counts on every ZAN fixture', () => {
    for (const fixture of listFixtures('zan-dat')) {
      const file = new FileView(fixture.input, readFileSync(fixture.input));
      const text = file.text() as string;
      const count = commaCounter(file, text);
      for (let from = 0; from < text.length; from += 997) expect(count(from, Math.min(text.length, from + 5000)), fixture.name).to.equal(commasInText(text, from, Math.min(text.length, from + 5000)));
    }
    const utf16 = new FileView('x.dat', Buffer.from('\ufeffB1=1,2,3\r\n', 'utf16le'));
    const text = utf16.text() as string;
    expect(commaCounter(utf16, text)(0, text.length)).to.equal(2);
  });
});
