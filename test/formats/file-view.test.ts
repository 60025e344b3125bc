import { expect } from 'chai';
import { decodeText, FileView, splitLines } from '../../src/formats/file-view.js';

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

  it('never decodes an archive as text', () => {
    const zip = new FileView('x.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x41, 0x42]));
    expect(zip.container).to.equal('zip');
    expect(zip.text()).to.equal(null);
    expect(zip.head(3)).to.deep.equal([]);
  });
});
