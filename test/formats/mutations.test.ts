import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ServiceError } from '../../src/errors.js';
import { decodeText, FileView } from '../../src/formats/file-view.js';
import type { ReadResult } from '../../src/formats/read-upload.js';
import type { Recording } from '../../src/recording/recording.js';
import { listFixtures, readFixture, type Fixture } from './fixture-helpers.js';

/**
 * Mutations of every fixture of every format: other text encodings, decimal commas, other line
 * endings, another extension, and cuts. The numbers must not move; a cut file must give
 * PARSER_ERROR or a parse that carries a flag, never any other exception.
 */

/**
 * Mutations known to fail, kept visible rather than deleted (each must still fail, so a fix is
 * noticed). None at present: a cut workbook, once listed here, now gives PARSER_ERROR from the
 * shared reading path.
 */
const KNOWN_FAILURES: { when: (fixture: Fixture, mutation: string) => boolean; reason: string }[] = [];

function knownFailure(fixture: Fixture, mutation: string): string | null {
  return KNOWN_FAILURES.find((k) => k.when(fixture, mutation))?.reason ?? null;
}

/** cp1252 bytes 0x80-0x9F (WHATWG index); the rest of 0x00-0xFF is Latin-1. */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

/** Encodes text as cp1252, or returns null when a character has no cp1252 byte. */
function encodeCp1252(text: string): Buffer | null {
  const out = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const high = CP1252_HIGH.indexOf(text[i]);
    if (c < 0x80 || (c >= 0xa0 && c <= 0xff)) out[i] = c;
    else if (high >= 0) out[i] = 0x80 + high;
    else return null;
  }
  return out;
}

function utf16(text: string, order: 'le' | 'be', bom: boolean): Buffer {
  const le = Buffer.from((bom ? '\ufeff' : '') + text, 'utf16le');
  return order === 'le' ? le : le.swap16();
}

/** The delimiter of a table: tab or semicolon allow decimal commas, a comma does not. */
function allowsDecimalComma(text: string): boolean {
  const lines = text
    .split(/\r\n|\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 50);
  const withTabs = lines.filter((l) => l.includes('\t')).length;
  const withSemicolons = lines.filter((l) => l.includes(';')).length;
  return withTabs > lines.length / 2 || withSemicolons > lines.length / 2;
}

/** The numbers of a recording: times, channel values and subject. */
function numbers(rec: Recording): unknown {
  return {
    t_s: rec.t_s,
    channels: Object.fromEntries(Object.entries(rec.channels).map(([k, v]) => [k, v?.values])),
    subject: rec.subject,
    thresholds: rec.embedded_thresholds,
  };
}

/** Whether a cut file's samples are exactly the first samples of the whole file. */
function isPrefix(cut: Recording, whole: Recording): boolean {
  const n = cut.t_s.length;
  if (n > whole.t_s.length || cut.t_s.some((t, i) => t !== whole.t_s[i])) return false;
  return Object.entries(cut.channels).every(([name, data]) => {
    const full = whole.channels[name as keyof Recording['channels']]?.values;
    return full !== undefined && data!.values.every((v, i) => v === full[i]);
  });
}

async function expectSameNumbers(label: string, fixture: Fixture, bytes: Buffer, base: ReadResult, filename?: string): Promise<void> {
  const known = knownFailure(fixture, label);
  let mutated: ReadResult | undefined;
  let error: unknown;
  try {
    mutated = await readFixture(fixture, bytes, filename);
  } catch (err) {
    error = err;
  }
  const ok = mutated !== undefined && mutated.recording.format === base.recording.format && JSON.stringify(numbers(mutated.recording)) === JSON.stringify(numbers(base.recording));
  if (known) {
    expect(ok, `${fixture.format}/${fixture.name} ${label} is listed as a known failure (${known}) but now passes: remove it from the list`).to.equal(false);
    return;
  }
  if (error) throw error;
  expect(mutated?.recording.format).to.equal(base.recording.format);
  expect(numbers(mutated!.recording)).to.deep.equal(numbers(base.recording));
}

describe('mutations of every fixture', () => {
  for (const fixture of listFixtures()) {
    const bytes = readFileSync(fixture.input);
    const isText = new FileView(fixture.input, bytes).container === 'text';
    const text = isText ? (decodeText(bytes)?.text ?? '') : '';

    describe(`${fixture.format}/${fixture.name}`, () => {
      let base: ReadResult;
      before(async () => {
        base = await readFixture(fixture);
      });

      if (isText) {
        it('parses to the same numbers as UTF-16 LE with a BOM, UTF-16 BE without one, and cp1252', async () => {
          await expectSameNumbers('utf-16le', fixture, utf16(text, 'le', true), base);
          await expectSameNumbers('utf-16be', fixture, utf16(text, 'be', false), base);
          const cp1252 = encodeCp1252(text);
          if (cp1252) await expectSameNumbers('cp1252', fixture, cp1252, base);
        });

        it('parses to the same numbers with the other line endings', async () => {
          const swapped = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text.replace(/\n/g, '\r\n');
          await expectSameNumbers('line endings', fixture, Buffer.from(swapped, 'utf8'), base);
        });

        if (['csv', 'txt'].includes(fixture.extension) && allowsDecimalComma(text)) {
          it('parses to the same numbers rewritten with decimal commas', async () => {
            const comma = text.replace(/(\d)\.(\d)/g, '$1,$2');
            await expectSameNumbers('decimal comma', fixture, Buffer.from(comma, 'utf8'), base);
          });
        }
      }

      it('is detected and read the same when renamed to another extension or none', async () => {
        const other = fixture.extension === 'txt' ? 'csv' : 'txt';
        for (const name of [`renamed.${other}`, 'renamed.bin', 'renamed']) {
          await expectSameNumbers(`renamed ${name}`, fixture, bytes, base, name);
        }
      });

      for (const fraction of [0.3, 0.6, 0.9]) {
        it(`cut at ${fraction * 100} % gives PARSER_ERROR, a parse with a new flag or an exact prefix, never another error`, async () => {
          const known = knownFailure(fixture, `cut ${fraction}`);
          const cut = bytes.subarray(0, Math.floor(bytes.length * fraction));
          let outcome: string;
          try {
            const { recording } = await readFixture(fixture, cut);
            // The cut must be noticed (a flag the whole file did not raise), or have fallen between
            // rows: then every sample kept is the whole file's sample, exactly.
            const before = new Set(base.recording.flags.map((f) => f.code));
            if (recording.flags.some((f) => !before.has(f.code))) outcome = 'flagged parse';
            else outcome = isPrefix(recording, base.recording) ? 'clean prefix' : 'silent parse';
          } catch (err) {
            outcome = err instanceof ServiceError ? err.code : `${(err as Error).name}: ${(err as Error).message}`;
          }
          if (known) {
            expect(outcome, `a known failure (${known}) now passes: remove it from the list`).not.to.be.oneOf(['flagged parse', 'clean prefix', 'PARSER_ERROR']);
            expect(outcome, 'a known failure must still be a coded refusal, never a crash').to.equal('UNSUPPORTED_FORMAT');
            return;
          }
          expect(outcome).to.be.oneOf(['flagged parse', 'clean prefix', 'PARSER_ERROR']);
        });
      }
    });
  }
});
