import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { pushField } from '../../formats/zan-dat/parse.js';
import { parseNumber } from '../../src/recording/units.js';
import { listFixtures, readFixture } from './fixture-helpers.js';

/** What the reader gave before fields were read in place: the field cut out, through parseNumber. */
function sliced(field: string, divisor: number): number | null {
  const v = parseNumber(field);
  return v === null ? null : v / divisor;
}

/** Reads the first field of `row` as the row scan does; returns the value pushed and where it stopped. */
function inPlace(row: string, divisor: number): { value: number | null; comma: number } {
  const values: (number | null)[] = [];
  const comma = pushField(row, 0, row.length, divisor, values);
  expect(values).to.have.length(1);
  return { value: values[0], comma };
}

describe('formats/zan-dat pushField (numbers read in place)', () => {
  const numeric = [
    '0',
    '-0',
    '7',
    '007',
    '-007',
    '3435',
    '-786',
    '123456789012345',
    '-999999999999999',
    '1234567890123456',
    '12345678901234567890',
    '9007199254740993',
    '+5',
    '1.5',
    '-0.25',
    '0.1',
    '.5',
    '1e3',
    '-1E-3',
    '2.5e+2',
    '000000000000000000001',
  ];
  for (const field of numeric) {
    for (const divisor of [1, 10, 100, 1000]) {
      it(`"${field}" / ${divisor} is Number("${field}") / ${divisor}, also before a comma`, () => {
        const expected = Number(field) / divisor;
        const alone = inPlace(field, divisor);
        expect(Object.is(alone.value, expected), `${alone.value} vs ${expected}`).to.equal(true);
        expect(alone.comma).to.equal(field.length);
        const followed = inPlace(`${field},12,0`, divisor);
        expect(Object.is(followed.value, expected), `${followed.value} vs ${expected}`).to.equal(true);
        expect(followed.comma).to.equal(field.length);
      });
    }
  }

  for (const field of ['', '-', ' 12', '12 ', '12a', 'x', '--1', '1,5', '1e', '-', 'NaN', 'Infinity', '1e400']) {
    it(`"${field}" gives what parseNumber gave`, () => {
      const row = `${field},9`;
      const comma = row.indexOf(',');
      const got = inPlace(row, 1000);
      expect(Object.is(got.value, sliced(row.slice(0, comma), 1000)), `${got.value}`).to.equal(true);
      expect(got.comma).to.equal(comma);
    });
  }

  it('stops at the end of the row when the last field has no comma after it', () => {
    const values: (number | null)[] = [];
    expect(pushField('B1=1,42', 5, 7, 1, values)).to.equal(7);
    expect(values).to.deep.equal([42]);
  });
});

describe('formats/zan-dat breath rows scanned in the flat text', () => {
  const endings: [string, (text: string) => string][] = [
    ['CR', (t) => t.replace(/\r\n/g, '\r')],
    ['LF', (t) => t.replace(/\r\n/g, '\n')],
    ['CRLF, LF and CR mixed', (t) => t.split('\r\n').reduce((out, line, i) => (i === 0 ? line : out + ['\r\n', '\n', '\r'][i % 3] + line), '')],
  ];
  for (const fixture of listFixtures('zan-dat')) {
    for (const [name, rewrite] of endings) {
      it(`${fixture.name}: ${name} line endings give the recording CRLF gives`, async () => {
        const bytes = readFileSync(fixture.input);
        expect(bytes.toString('latin1')).to.include('\r\n');
        const base = await readFixture(fixture);
        const other = await readFixture(fixture, Buffer.from(rewrite(bytes.toString('latin1')), 'latin1'));
        expect(other.recording).to.deep.equal(base.recording);
      });
    }
  }
});
