import { expect } from 'chai';
import { decodeText, FileView, hasC1Bytes, splitLines } from '../../src/formats/file-view.js';

describe('FileView text', () => {
  it('splits lines exactly as the CRLF/LF/CR pattern does, one kind of line end or mixed', () => {
    for (const text of ['', 'a', 'a\n', 'a\r\nb\r\n', 'a\rb\r', 'a\r\nb\nc\rd', '\r\n\r\n', 'x\r', '\n\r', 'a\r\r\nb', 'a\n\r\nb']) {
      expect(splitLines(text), JSON.stringify(text)).to.deep.equal(text.split(/\r\n|\n|\r/));
    }
  });

  it('decodes valid UTF-8 as UTF-8 and anything else as cp1252, without a trailing 0x1A or NUL', () => {
    expect(decodeText(Buffer.from('Größe;VO2\r\n', 'utf8'))).to.deep.equal({ text: 'Größe;VO2\r\n', encoding: 'utf-8' });
    expect(decodeText(Buffer.from([0x47, 0x72, 0xf6, 0xdf, 0x65, 0x1a, 0x00]))).to.deep.equal({ text: 'Größe', encoding: 'windows-1252' });
  });

  it('finds a 0x80-0x9F byte (where cp1252 and latin1 differ) at every place in a 32-bit word, and no other byte', () => {
    for (let byte = 0; byte <= 0xff; byte++) {
      for (let at = 0; at < 9; at++) {
        // Aligned at offset 0 (word by word), and one byte further on (byte by byte).
        const aligned = Buffer.from(new Uint8Array(16).fill(0x61).buffer);
        aligned[at] = byte;
        const unaligned = Buffer.from(new Uint8Array(17).fill(0x61).buffer).subarray(1);
        unaligned[at] = byte;
        const c1 = byte >= 0x80 && byte <= 0x9f;
        expect(hasC1Bytes(aligned), `0x${byte.toString(16)} at ${at}`).to.equal(c1);
        expect(hasC1Bytes(unaligned), `0x${byte.toString(16)} at ${at}, unaligned`).to.equal(c1);
      }
    }
    expect(hasC1Bytes(Buffer.from(new Uint8Array([0x61, 0xa0, 0xff, 0x7f, 0x61, 0x9f]).buffer))).to.equal(true);
  });

  it('never decodes an archive as text', () => {
    const zip = new FileView('x.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x41, 0x42]));
    expect(zip.container).to.equal('zip');
    expect(zip.text()).to.equal(null);
    expect(zip.head(3)).to.deep.equal([]);
  });
});
