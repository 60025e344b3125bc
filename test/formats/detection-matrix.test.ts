import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { expect } from 'chai';
import { ServiceError } from '../../src/errors.js';
import { chooseFormat, MIN_SCORE, scoreFormats } from '../../src/formats/detect.js';
import { FileView } from '../../src/formats/file-view.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { formatPlugins, listFixtures } from './fixture-helpers.js';

/**
 * Files that look like a format but are not it, each with the plugin it must not be taken for
 * (like file-type's falsePositives). Each is refused as UNSUPPORTED_FORMAT, or, when it is a table
 * the column dictionary reads, taken by the last-resort generic-table and never by the vendor.
 */
const NEAR_MISSES: { name: string; filename: string; content: string; resembles: string; outcome: 'UNSUPPORTED_FORMAT' | 'generic-table' }[] = [
  {
    name: 'an INI file that starts with [person] but has no [parameter] or [Data]',
    filename: 'patient.ini',
    content: '[person]\r\nname=Muster\r\ngroesse=180\r\n\r\n[other]\r\nkey=value\r\n',
    resembles: 'zan-dat',
    outcome: 'UNSUPPORTED_FORMAT',
  },
  {
    name: 'a plain CSV with VO2 but no pyoxynet _I columns',
    filename: 'export.csv',
    content: 'time,VO2,VCO2,VE,HR\n0,300,250,10.2,80\n1,310,255,10.4,81\n',
    resembles: 'pyoxynet-csv',
    outcome: 'generic-table',
  },
  {
    name: 'a JSON array of breaths without a test object, LT or RCP',
    filename: 'breaths.json',
    content: '[{"t":0,"VO2":300,"VCO2":250},{"t":3,"VO2":320,"VCO2":260}]',
    resembles: 'exercise-threshold-app-json',
    outcome: 'UNSUPPORTED_FORMAT',
  },
  {
    name: 'a tab-separated table with Time and VO2 but no ID line, units row or Breeze clocks',
    filename: 'table.txt',
    content: 'Time\tVO2\tVCO2\tVE\n0:10\t300\t250\t10.2\n0:13\t310\t255\t10.4\n',
    resembles: 'vyntus-sentrysuite-txt',
    outcome: 'generic-table',
  },
  {
    name: 'a Garmin TCX heart-rate file (spiro keeps it as its negative case)',
    filename: 'hr_ramp.tcx',
    content:
      '<?xml version="1.0" encoding="UTF-8"?>\n<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">\n<Activities><Activity Sport="Biking"><Lap><Track><Trackpoint><Time>2021-01-01T10:00:00Z</Time><HeartRateBpm><Value>80</Value></HeartRateBpm></Trackpoint></Track></Lap></Activity></Activities>\n</TrainingCenterDatabase>\n',
    resembles: 'cortex-metasoft',
    outcome: 'UNSUPPORTED_FORMAT',
  },
];

/** Deterministic bytes (a linear congruential generator), so a failure can be replayed. */
function randomBytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function refusal(filename: string, bytes: Buffer): Promise<ServiceError> {
  try {
    await readUpload(filename, bytes, await formatPlugins());
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error(`${filename} was accepted`);
}

/** The vendor formats: every plugin but the last resort, which is consulted only when none of these reaches MIN_SCORE. */
async function vendorPlugins() {
  return (await formatPlugins()).filter((p) => !p.meta.last_resort);
}

describe('format detection matrix', () => {
  for (const f of listFixtures()) {
    it(`${f.format}/${f.name} picks ${f.format} and scores below ${MIN_SCORE} for every other vendor format`, async () => {
      const file = new FileView(basename(f.input), readFileSync(f.input));
      const scores = scoreFormats(file, await vendorPlugins());
      expect(scores[0].format).to.equal(f.format);
      for (const other of scores.slice(1)) {
        expect(other.score, `${other.format}: ${other.reasons.join('; ')}`).to.be.below(MIN_SCORE);
      }
      expect(chooseFormat(file, await formatPlugins()).confidence).to.equal('detected');
    });
  }

  describe('near misses', () => {
    for (const miss of NEAR_MISSES) {
      it(`${miss.outcome === 'generic-table' ? 'reads as generic-table' : 'refuses'} ${miss.name}, scoring ${miss.resembles} below ${MIN_SCORE}`, async () => {
        const bytes = Buffer.from(miss.content, 'utf8');
        const scores = scoreFormats(new FileView(miss.filename, bytes), await formatPlugins());
        const resembled = scores.find((s) => s.format === miss.resembles);
        if (resembled) expect(resembled.score).to.be.below(MIN_SCORE);
        if (miss.outcome === 'generic-table') {
          const { recording, detection } = await readUpload(miss.filename, bytes, await formatPlugins());
          expect(recording.format).to.equal('generic-table');
          expect(detection.confidence).to.equal('last_resort');
          expect(recording.flags.map((f) => f.code)).to.include('column_mapping');
        } else {
          const err = await refusal(miss.filename, bytes);
          expect(err.code).to.equal('UNSUPPORTED_FORMAT');
          const candidates = err.context.candidates as { format: string; score: number; reasons: string[] }[];
          const generic = candidates.find((c) => c.format === 'generic-table');
          expect(generic?.reasons.join(' '), 'the refusal says why the generic table did not read it').to.match(/no table could be read/);
        }
      });
    }
  });

  describe('the last resort', () => {
    it('is never consulted when a vendor format is ambiguous: two close vendor scores refuse the file', () => {
      const vendor = (id: string, score: number) => ({
        meta: { id, label: id, vendor: id, software: id, extensions: [], media_types: [], detection: id, example_files: 0 },
        detect: () => ({ score, reasons: [`${id} evidence`] }),
        parse: () => {
          throw new Error('not reached');
        },
      });
      const lastResort = { ...vendor('table-of-last-resort', 1), meta: { ...vendor('table-of-last-resort', 1).meta, last_resort: true } };
      const file = new FileView('x.csv', Buffer.from('time,VE\n0,10\n'));
      let error: unknown;
      try {
        chooseFormat(file, [vendor('a', 0.7), vendor('b', 0.6), lastResort]);
      } catch (err) {
        error = err;
      }
      expect((error as ServiceError).code).to.equal('UNSUPPORTED_FORMAT');
      expect((error as ServiceError).message).to.match(/looks like a and b alike/);
    });

    it('is capped at MIN_SCORE, and a vendor that reaches MIN_SCORE outranks it', () => {
      const plugin = (id: string, score: number, last_resort = false) => ({
        meta: { id, label: id, vendor: id, software: id, extensions: [], media_types: [], detection: id, example_files: 0, last_resort },
        detect: () => ({ score, reasons: [] }),
        parse: () => {
          throw new Error('not reached');
        },
      });
      const file = new FileView('x.csv', Buffer.from('time,VE\n0,10\n'));
      const fallback = chooseFormat(file, [plugin('vendor', 0.3), plugin('generic', 0.9, true)]);
      expect(fallback.plugin.meta.id).to.equal('generic');
      expect(fallback.confidence).to.equal('last_resort');
      expect(fallback.candidates[0].score).to.equal(MIN_SCORE);
      expect(fallback.candidates[1]).to.include({ format: 'vendor', score: 0.3 });
      const vendorWins = chooseFormat(file, [plugin('vendor', MIN_SCORE), plugin('generic', 0.9, true)]);
      expect(vendorWins.plugin.meta.id).to.equal('vendor');
      expect(vendorWins.confidence).to.equal('detected');
    });
  });

  it('refuses random bytes as UNSUPPORTED_FORMAT with the canonical shape in context.recovery', async () => {
    for (const [seed, ext] of [
      [1, 'bin'],
      [2, 'txt'],
      [3, 'xlsx'],
    ] as const) {
      const err = await refusal(`random.${ext}`, randomBytes(4096, seed));
      expect(err.code).to.equal('UNSUPPORTED_FORMAT');
      const recovery = err.context.recovery as { format: string; schema: unknown };
      expect(recovery.format).to.equal('canonical-json');
      expect(recovery.schema).to.be.an('object');
    }
  });

  it('refuses an empty file', async () => {
    const err = await refusal('empty.txt', Buffer.alloc(0));
    expect(err.code).to.equal('UNSUPPORTED_FORMAT');
    expect(err.message).to.match(/empty/);
  });
});
