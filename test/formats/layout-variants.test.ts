/**
 * Every layout variant the tests generate from the real exports (test/formats/variants/) is detected
 * as its format and yields the same channel values as the real file it was made from: a translated
 * header, a header block removed, a units row added, another container, another time form.
 */
import { expect } from 'chai';
import { readUpload, type ReadResult } from '../../src/formats/read-upload.js';
import { presentChannels, type ChannelName, type Recording } from '../../src/recording/recording.js';
import { fixtureInput } from './summary-snapshot.js';
import { formatPlugins, listFixtures } from './fixture-helpers.js';
import { VARIANTS, type Variant } from './variants/index.js';

const FAMILIES = [...new Set(VARIANTS.map((v) => v.family))];

/** The original's fixture: its family's folder, except for the tables generated from an MGC file. */
function originalFormat(variant: Variant): string {
  return variant.family === 'generic-table' ? 'mgc-breeze-txt' : variant.family;
}

async function read(filename: string, bytes: Buffer): Promise<ReadResult> {
  return readUpload(filename, bytes, await formatPlugins());
}

/** Asserts the variant's times and channel values against the original's, as the variant says they compare. */
function expectSameNumbers(variant: Variant, rec: Recording, original: Recording): void {
  expect(rec.t_s.length, 'samples').to.equal(original.t_s.length);
  if (variant.time === 'same') expect(rec.t_s).to.deep.equal(original.t_s);
  else {
    const offset = variant.time === 'shifted' ? original.t_s[0] - rec.t_s[0] : 0;
    rec.t_s.forEach((t, i) => {
      expect(t + offset, `t_s[${i}]`).to.be.closeTo(original.t_s[i], 1e-6);
    });
  }
  expect(presentChannels(rec)).to.deep.equal(presentChannels(original));
  for (const name of presentChannels(original)) {
    const expected = original.channels[name]?.values ?? [];
    const actual = rec.channels[name]?.values ?? [];
    const scaled = variant.scaled?.[name as ChannelName];
    if (!scaled) {
      expect(actual, name).to.deep.equal(expected);
      continue;
    }
    expected.forEach((v, i) => {
      if (v === null) expect(actual[i], `${name}[${i}]`).to.equal(null);
      else expect(actual[i], `${name}[${i}]`).to.be.closeTo(v * scaled.factor, 1e-9 * Math.abs(v));
    });
  }
}

describe('layout variants generated from the real exports', () => {
  it('are listed, with every fixture, in the variants of the format that reads them (GET /v1/formats shows them)', async () => {
    for (const plugin of await formatPlugins()) {
      const listed = (plugin.meta.variants ?? []).map((v) => v.name);
      const expected = [...listFixtures(plugin.meta.id).map((f) => f.name), ...VARIANTS.filter((v) => v.format === plugin.meta.id).map((v) => v.name)];
      expect(listed, plugin.meta.id).to.include.members(expected);
      expect(listed.length, `${plugin.meta.id} lists only variants it has`).to.equal(expected.length);
    }
  });

  for (const family of FAMILIES) {
    describe(family, () => {
      for (const variant of VARIANTS.filter((v) => v.family === family)) {
        it(`${variant.name} is read as ${variant.format} with the channel values of ${variant.original}`, async () => {
          const original = fixtureInput(originalFormat(variant), variant.original);
          const base = await read(original.filename, original.bytes);
          const result = await read(variant.filename, variant.bytes());
          expect(result.recording.format).to.equal(variant.format);
          expect(result.detection.confidence).to.equal(variant.format === 'generic-table' ? 'last_resort' : 'detected');
          expectSameNumbers(variant, result.recording, base.recording);
          for (const [name, { why }] of Object.entries(variant.scaled ?? {})) {
            expect(
              result.recording.flags.some((f) => f.code === 'unit_assumed' && f.detail.toLowerCase().includes(name.toLowerCase())),
              `${name}: ${why}`,
            ).to.equal(true);
          }
        });
      }
    });
  }
});
