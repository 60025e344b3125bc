import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CANONICAL_FORMAT_MARKER } from '../../src/formats/recovery.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { detectPhases } from '../../src/signal/phases.js';
import { generateTest } from '../../src/synthetic/generate.js';
import { generateSample, generateSampleTest } from '../../src/synthetic/sample.js';
import type { Protocol } from '../../src/synthetic/types.js';

/** A copy of the recording without file markers and without the named work channels. */
function stripped(rec: Recording, drop: ('Load' | 'Speed')[] = []): Recording {
  const copy = structuredClone(rec);
  copy.phases = [];
  for (const c of drop) delete copy.channels[c];
  return copy;
}

/** The canonical JSON document of a recording, with or without its phase starts. */
function canonicalDoc(rec: Recording, withPhases: boolean): string {
  const channels = Object.fromEntries(Object.entries(rec.channels).map(([k, v]) => [k, v!.values]));
  const doc: Record<string, unknown> = { format: CANONICAL_FORMAT_MARKER, time_s: rec.t_s, channels };
  if (withPhases) doc.phases = rec.phases.map((p) => ({ phase: p.phase, t_start_s: p.t_start_s }));
  return JSON.stringify(doc);
}

describe('detectPhases', () => {
  it('takes the file markers when the recording has them', () => {
    const { recording, truth } = generateTest({ seed: 1 });
    const p = detectPhases(recording)!;
    expect(p.method).to.equal('file markers');
    expect(p.exercise.t_start_s).to.equal(truth.phases.warmup_end_s);
    expect(p.exercise.t_end_s).to.equal(truth.phases.exercise_end_s);
    expect(p.rest!.t_end_s).to.equal(truth.phases.rest_end_s);
    expect(p.recovery!.t_start_s).to.equal(truth.phases.exercise_end_s);
  });

  for (const protocol of ['ramp', 'steps', 'treadmill'] as Protocol[]) {
    it(`places the ${protocol} exercise from the work rate within its stated error`, () => {
      for (const seed of [1, 2, 3, 4]) {
        const { recording, truth } = generateTest({ seed, protocol });
        const p = detectPhases(stripped(recording))!;
        expect(p.method).to.equal(protocol === 'treadmill' ? 'speed' : 'load');
        expect(Math.abs(p.exercise.t_start_s - truth.phases.warmup_end_s), `seed ${seed} start`).to.be.at.most(p.expected_error_s);
        expect(Math.abs(p.exercise.t_end_s - truth.phases.exercise_end_s), `seed ${seed} end`).to.be.at.most(p.expected_error_s);
        expect(p.recovery, `seed ${seed} recovery`).to.not.equal(null);
      }
    });
  }

  for (const protocol of ['ramp', 'steps'] as Protocol[]) {
    it(`places the ${protocol} exercise from the gases alone within its stated error`, () => {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const { recording, truth } = generateTest({ seed, protocol });
        const p = detectPhases(stripped(recording, ['Load', 'Speed']))!;
        expect(p.method).to.equal('gas signals');
        expect(p.expected_error_s).to.be.within(20, 60);
        expect(Math.abs(p.exercise.t_start_s - truth.phases.warmup_end_s), `seed ${seed} start`).to.be.at.most(p.expected_error_s);
        expect(Math.abs(p.exercise.t_end_s - truth.phases.exercise_end_s), `seed ${seed} end`).to.be.at.most(p.expected_error_s);
        expect(p.notes.join(' ')).to.match(/uncertain by about \d+ s/);
      }
    });
  }

  it('splits rest from an unloaded warm-up where VO2 steps up', () => {
    const { recording, truth } = generateTest({ seed: 1 });
    const p = detectPhases(stripped(recording))!;
    expect(p.rest).to.not.equal(null);
    expect(p.warmup).to.not.equal(null);
    expect(Math.abs(p.rest!.t_end_s - truth.phases.rest_end_s)).to.be.at.most(45);
  });

  it('reports no recovery when the recording ends at peak exercise', () => {
    const { recording, truth } = generateTest({ seed: 2 });
    const cut = stripped(recording);
    const n = cut.t_s.findIndex((t) => t > truth.phases.exercise_end_s);
    cut.t_s = cut.t_s.slice(0, n);
    for (const c of Object.values(cut.channels)) c!.values = c!.values.slice(0, n);
    for (const drop of [[], ['Load']] as ('Load' | 'Speed')[][]) {
      const rec = structuredClone(cut);
      for (const d of drop) delete rec.channels[d];
      const p = detectPhases(rec)!;
      expect(p.recovery, p.method).to.equal(null);
      expect(p.notes.join(' ')).to.match(/no recovery is visible/);
    }
  });

  it('counts the bouts of an interval test from the gases, the load and the markers', () => {
    const { recording } = generateTest({ seed: 5, exercise_s: 1200 });
    const rec = stripped(recording);
    // Three 4-min bouts at 200 W with 3-min pauses, after 2 min of rest: VO2 follows with a 40-s time constant.
    const onAt = (t: number) => t >= 120 && (t - 120) % 420 < 240 && t < 120 + 3 * 420;
    let vo2 = 400;
    for (let i = 0; i < rec.t_s.length; i++) {
      const dt = i ? rec.t_s[i] - rec.t_s[i - 1] : 0;
      vo2 += ((onAt(rec.t_s[i]) ? 3000 : 400) - vo2) * (1 - Math.exp(-dt / 40));
      rec.channels.VO2!.values[i] = vo2;
      rec.channels.Load!.values[i] = onAt(rec.t_s[i]) ? 200 : 0;
    }
    const byLoad = detectPhases(rec)!;
    expect(byLoad.method).to.equal('load');
    expect(byLoad.exercise_bouts).to.equal(3);
    expect(byLoad.exercise.t_end_s).to.be.closeTo(120 + 2 * 420 + 240, byLoad.expected_error_s);
    const gasOnly = stripped(rec, ['Load']);
    const byGas = detectPhases(gasOnly)!;
    expect(byGas.method).to.equal('gas signals');
    expect(byGas.exercise_bouts).to.equal(3);
    expect(Math.abs(byGas.exercise.t_start_s - 120)).to.be.at.most(byGas.expected_error_s);
    const marked = structuredClone(gasOnly);
    marked.phases = [0, 1].map((k) => ({ phase: 'exercise' as const, t_start_s: 120 + k * 420, t_end_s: 360 + k * 420, source: 'file' as const }));
    expect(detectPhases(marked)!.exercise_bouts).to.equal(2);
  });

  it('finds no exercise in a flat resting recording', () => {
    const { recording, truth } = generateTest({ seed: 3 });
    const rest = stripped(recording, ['Load']);
    const n = rest.t_s.findIndex((t) => t > truth.phases.rest_end_s);
    rest.t_s = rest.t_s.slice(0, n);
    for (const c of Object.values(rest.channels)) c!.values = c!.values.slice(0, n);
    expect(detectPhases(rest)).to.equal(null);
  });

  it('reads the markers of a canonical JSON upload and infers the same exercise without them', async () => {
    const { formats } = await loadPlugins();
    const { recording } = generateTest({ seed: 4 });
    const marked = (await readUpload('test.json', Buffer.from(canonicalDoc(recording, true)), formats)).recording;
    const bare = (await readUpload('test.json', Buffer.from(canonicalDoc(recording, false)), formats)).recording;
    const a = detectPhases(marked)!;
    const b = detectPhases(bare)!;
    expect(a.method).to.equal('file markers');
    expect(b.method).to.equal('load');
    expect(Math.abs(a.exercise.t_start_s - b.exercise.t_start_s)).to.be.at.most(b.expected_error_s);
    expect(Math.abs(a.exercise.t_end_s - b.exercise.t_end_s)).to.be.at.most(b.expected_error_s);
  });

  it('reads the phases of the public sample and of every committed canonical JSON fixture', async () => {
    const { formats } = await loadPlugins();
    const sample = generateSample(false);
    const fromSample = detectPhases((await readUpload(sample.filename, Buffer.from(sample.content), formats)).recording)!;
    const truth = generateSampleTest(false).truth.phases;
    expect(fromSample.method).to.equal('file markers');
    expect(fromSample.exercise.t_start_s).to.be.closeTo(truth.warmup_end_s, fromSample.expected_error_s);
    expect(fromSample.exercise.t_end_s).to.be.closeTo(truth.exercise_end_s, fromSample.expected_error_s);
    const dir = join(PROJECT_ROOT, 'formats', 'canonical-json', 'fixtures');
    const cases = existsSync(dir) ? readdirSync(dir).filter((c) => existsSync(join(dir, c, 'input.json'))) : [];
    for (const c of cases) {
      const { recording } = await readUpload('input.json', readFileSync(join(dir, c, 'input.json')), formats);
      const p = detectPhases(recording);
      if (p) expect(p.exercise.t_end_s, c).to.be.greaterThan(p.exercise.t_start_s);
      else expect(recording.channels.VO2 === undefined || recording.t_s.length < 60, `${c}: no phases found`).to.equal(true);
    }
  });
});
