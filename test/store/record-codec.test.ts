import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { Recording } from '../../src/recording/recording.js';
import { CODEC_VERSION, decodeRecording, encodeRecording, type EncodedRecording } from '../../src/store/record-codec.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { listFixtures, readFixture } from '../formats/fixture-helpers.js';

/** The stored form's size as the store writes it: JSON, the block as one base64 string. */
function storedBytes(rec: Recording): number {
  const e = encodeRecording(rec);
  return JSON.stringify({ ...e, block: `:base64:${Buffer.from(e.block).toString('base64')}` }).length;
}

describe('the stored form of a recording', () => {
  it('gives back every real fixture bit for bit', async () => {
    for (const fixture of listFixtures()) {
      const { recording } = await readFixture(fixture);
      expect(isDeepStrictEqual(decodeRecording(encodeRecording(recording)), recording), fixture.name).to.equal(true);
    }
  });

  it('gives back awkward values: missing samples, -0, long decimals, huge and tiny numbers, each column in the form it needs', () => {
    const rec = generateTest({ seed: 5, exercise_s: 300 }).recording;
    const n = rec.t_s.length;
    const vo2 = rec.channels.VO2!.values;
    vo2[3] = null;
    vo2[4] = -0;
    rec.channels.VCO2!.values[7] = 1 / 3;
    rec.channels.VE!.values[9] = 1e300;
    rec.channels.HR!.values[11] = 5e-324;
    rec.channels.RF!.values = Array.from({ length: n }, () => null);
    const encoded = encodeRecording(rec);
    const kinds = Object.fromEntries(encoded.layout.columns.map((c) => [c.name, c.codec.kind]));
    expect(kinds).to.deep.include({ VO2: 'double', VCO2: 'double', VE: 'double', HR: 'double', RF: 'scaled', t_s: 'scaled' });
    const back = decodeRecording(encoded);
    expect(isDeepStrictEqual(back, rec)).to.equal(true);
    expect(Object.is(back.channels.VO2!.values[4], -0)).to.equal(true);
  });

  it('writes a non-finite sample as missing, never as a number', () => {
    const rec = generateTest({ seed: 6, exercise_s: 300 }).recording;
    rec.channels.VO2!.values[2] = NaN;
    rec.channels.VO2!.values[5] = Infinity;
    const back = decodeRecording(encodeRecording(rec));
    expect(back.channels.VO2!.values[2]).to.equal(null);
    expect(back.channels.VO2!.values[5]).to.equal(null);
  });

  it('keeps a 20,000-sample recording in under 1 MB (as JSON numbers it takes more)', () => {
    const rec = generateTest({ seed: 31337, protocol: 'ramp', rest_s: 300, warmup_s: 300, exercise_s: 19_000, recovery_s: 399, sampling: { kind: 'interval', interval_s: 1 } }).recording;
    expect(rec.t_s.length).to.be.within(19_900, 20_000);
    const stored = storedBytes(rec);
    expect(stored).to.be.below(1_000_000);
    expect(stored).to.be.below(JSON.stringify(rec).length / 2);
    expect(isDeepStrictEqual(decodeRecording(encodeRecording(rec)), rec)).to.equal(true);
  });
});

describe('the version byte of the stored block', () => {
  const fixtures = new URL('../fixtures/record-codec/', import.meta.url);

  it('leads every block written now, as a byte no deflate stream starts with (reserved block type)', () => {
    const { block } = encodeRecording(generateTest({ seed: 3, exercise_s: 60 }).recording);
    expect(block[0]).to.equal((CODEC_VERSION << 3) | 0b110);
    expect((block[0] >> 1) & 0b11, 'BTYPE 11 is reserved in RFC 1951').to.equal(0b11);
  });

  it('still reads a block stored before the version byte existed', () => {
    const stored = JSON.parse(readFileSync(new URL('unversioned.json', fixtures), 'utf8')) as EncodedRecording & { block: string };
    const expected = JSON.parse(readFileSync(new URL('unversioned.recording.json', fixtures), 'utf8')) as Recording;
    const block = Buffer.from(stored.block, 'base64');
    expect((block[0] >> 1) & 0b11, 'a bare deflate stream').to.not.equal(0b11);
    const back = decodeRecording({ ...stored, block });
    expect(JSON.parse(JSON.stringify(back))).to.deep.equal(expected);
  });

  it('refuses a block from a newer codec, naming both versions', () => {
    const encoded = encodeRecording(generateTest({ seed: 3, exercise_s: 60 }).recording);
    const block = Uint8Array.from(encoded.block);
    block[0] = ((CODEC_VERSION + 1) << 3) | 0b110;
    expect(() => decodeRecording({ ...encoded, block })).to.throw(`codec version ${CODEC_VERSION + 1}; this service reads up to ${CODEC_VERSION}`);
  });
});
