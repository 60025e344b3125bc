import { expect } from 'chai';
import { plain } from '../../web/page/plain.js';

describe('web page: the service’s words in the page’s', () => {
  it('says what a route does on the page instead of naming it', () => {
    expect(plain('Upload it with POST /v1/cpet/content using this filename.')).to.equal('Upload it with the upload on this page using this filename.');
    expect(plain('Mint a new one with POST /v1/uploads.')).to.equal('Mint a new one with a new upload link.');
    expect(plain('it takes the session cookie from POST /v1/web/session')).to.equal('it takes the session cookie from the key form on this page');
  });

  it('replaces JSON paths with where the page shows that part', () => {
    expect(plain('Convert it to the canonical JSON shape in context.recovery.')).to.equal('Convert it to the canonical JSON shape below.');
    expect(plain('Implausible: VT2 is not after VT1 (evidence.implausible)')).to.equal('Implausible: VT2 is not after VT1');
    expect(plain('see findings.evidence.vt1_criteria for why')).to.equal('see the evidence for why');
  });

  it('leaves plain prose alone', () => {
    const prose = 'VT1 at 83.4 % of VO2peak lies outside the usual 40-80 %: read it against the recording before use.';
    expect(plain(prose)).to.equal(prose);
  });
});
