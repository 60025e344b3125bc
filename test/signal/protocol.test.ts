import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT, type Plugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { detectPhases, phasesOf, protocolFor, protocolOf } from '../../src/signal/phases.js';
import { classifyProtocol } from '../../src/signal/protocol.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { ExerciseShape, Protocol } from '../../src/synthetic/types.js';

/** A synthetic test without file markers (so the protocol is read, not told), with or without its work channel. */
function synthetic(shape: ExerciseShape, protocol: Protocol, withWork: boolean, seed = 7): Recording {
  const rec = structuredClone(generateTest({ seed, protocol, shape, rest_s: 120, warmup_s: 180, exercise_s: 720 }).recording);
  rec.phases = [];
  if (!withWork) {
    delete rec.channels.Load;
    delete rec.channels.Speed;
    delete rec.channels.Grade;
  }
  return rec;
}

const EXPECTED: Record<ExerciseShape, string> = {
  incremental: 'incremental',
  constant: 'constant',
  interval: 'interval',
  warmup_bout: 'warmup_incremental',
};

describe('protocolOf on synthetic tests', () => {
  for (const shape of Object.keys(EXPECTED) as ExerciseShape[]) {
    for (const protocol of ['ramp', 'steps', 'treadmill'] as const) {
      for (const withWork of [true, false]) {
        it(`${shape} (${protocol}, ${withWork ? 'work rate' : 'VO2 only'}) reads as ${EXPECTED[shape]}`, () => {
          const rec = synthetic(shape, protocol, withWork);
          const reading = protocolOf(rec);
          expect(reading.kind, reading.detail).to.equal(EXPECTED[shape]);
          expect(reading.source).to.equal(withWork ? (protocol === 'treadmill' ? 'Speed' : 'Load') : 'VO2');
          if (shape === 'constant' || shape === 'interval') {
            expect(reading.incremental).to.equal(null);
            expect(reading.bouts.length).to.equal(shape === 'constant' ? 1 : 4);
          }
        });
      }
    }
  }

  it('moves exercise to the incremental part after a warm-up bout, and says so', () => {
    // The generator's ramp starts after the bout (25 % of 720 s) and the pause (10 %): at 300 + 252 s.
    const rampStart = 120 + 180 + 0.35 * 720;
    for (const withWork of [true, false]) {
      const rec = synthetic('warmup_bout', 'ramp', withWork);
      const raw = detectPhases(rec);
      const phases = phasesOf(rec);
      expect(raw?.exercise.t_start_s).to.be.at.most(phases?.exercise.t_start_s ?? 0);
      // The gases lag the work rate (mean response time 30-45 s), so the VO2-only reading lands later.
      expect(phases?.exercise.t_start_s).to.be.within(rampStart - 10, rampStart + (withWork ? 30 : 75));
      expect(phases?.warmup?.t_end_s).to.equal(phases?.exercise.t_start_s);
      expect(phases?.notes.join(' ')).to.match(/warm-up bout precedes the incremental part/);
      expect(protocolOf(rec).warmup_bout).to.not.equal(null);
    }
  });

  it('leaves the phases of an incremental test with an unloaded warm-up as detected', () => {
    const rec = synthetic('incremental', 'ramp', true);
    expect(phasesOf(rec)).to.deep.equal(detectPhases(rec));
  });

  it("takes the caller's protocol over the reading and echoes it", () => {
    const rec = synthetic('constant', 'ramp', true);
    const reading = protocolFor(rec, { kind: 'steps', stage_s: 180, increment_w: 25 });
    expect(reading.kind).to.equal('incremental');
    expect(reading.source).to.equal('request');
    expect(reading.input).to.deep.equal({ kind: 'steps', stage_s: 180, increment_w: 25 });
    expect(reading.detail).to.match(/steps of 180 s, 25 W per stage/);
    expect(protocolFor(rec, null).kind).to.equal('constant');
  });

  it('reads nothing without phases', () => {
    const rec = synthetic('incremental', 'ramp', true);
    expect(classifyProtocol(rec, null).kind).to.equal('unknown');
  });
});

describe('protocolOf on real files', () => {
  let plugins: Plugins;
  before(async () => {
    plugins = await loadPlugins();
  });
  async function read(format: string, fixture: string, name: string): Promise<Recording> {
    const path = join(PROJECT_ROOT, 'formats', format, 'fixtures', fixture, name);
    return (await readUpload(name, readFileSync(path), plugins.formats)).recording;
  }
  const CASES: [string, string, string, string][] = [
    // whippr's example: three square-wave transitions of about 6 min (VO2 kinetics), no work-rate column.
    ['cosmed-xlsx', 'pft-suite-en-breath-by-breath', 'input.xlsx', 'constant'],
    // epl's Parvo export: five 5-min bouts with recovery between them.
    ['parvo-trueone', 'csv-binned', 'input.csv', 'interval'],
    ['parvo-trueone', 'csv-breath-by-breath', 'input.csv', 'interval'],
    ['parvo-trueone', 'xlsx-30s-bins', 'input.xlsx', 'incremental'],
    ['mgc-breeze-txt', 'gasexchanger-aaron', 'input.txt', 'incremental'],
    ['cortex-metasoft', 'xlsx-de-anonymised', 'input.xlsx', 'incremental'],
    ['pyoxynet-csv', 'pyoxynet-data-test', 'input.csv', 'incremental'],
    ['zan-dat', 'spiro-zan-gxt', 'input.dat', 'incremental'],
  ];
  for (const [format, fixture, name, kind] of CASES) {
    it(`${format}/${fixture} reads as ${kind}`, async () => {
      const reading = protocolOf(await read(format, fixture, name));
      expect(reading.kind, reading.detail).to.equal(kind);
    });
  }
});
