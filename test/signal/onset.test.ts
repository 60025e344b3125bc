import { expect } from 'chai';
import { channel, type Recording } from '../../src/recording/recording.js';
import { gasOnset } from '../../src/signal/onset.js';
import { detectPhases } from '../../src/signal/phases.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { Protocol, SamplingOption } from '../../src/synthetic/types.js';
import { onsetCases, type OnsetCase } from './onset-cases.js';

/** Largest onset error accepted on a real case, s. */
const REAL_TOLERANCE_S = 30;

/** A generated test with its markers and work rate removed. */
function gasOnly(rec: Recording): Recording {
  const copy = structuredClone(rec);
  copy.phases = [];
  for (const c of ['Load', 'Speed', 'Grade'] as const) delete copy.channels[c];
  return copy;
}

describe('exercise onset from the gases alone', () => {
  let cases: OnsetCase[];
  before(async () => {
    cases = await onsetCases();
  });

  it('places the onset within 30 s of the truth on every real case', () => {
    const rows: string[] = [];
    const misses: string[] = [];
    for (const c of cases) {
      const p = detectPhases(c.recording);
      expect(p, c.name).to.not.equal(null);
      expect(p!.method, c.name).to.equal('gas signals');
      const error = p!.exercise.t_start_s - c.truth_s;
      rows.push(`${c.name.padEnd(36)} truth ${c.truth_s.toFixed(1).padStart(6)}  found ${p!.exercise.t_start_s.toFixed(1).padStart(6)}  error ${error.toFixed(1).padStart(6)}`);
      if (Math.abs(error) > REAL_TOLERANCE_S) misses.push(`${c.name}: ${error.toFixed(1)} s (truth from ${c.truth_from})`);
    }
    if (process.env.ONSET_TABLE) console.log(rows.join('\n'));
    expect(misses, rows.join('\n')).to.deep.equal([]);
  });

  it('does not read a low first minute as rest ending, nor as a rest that a warm-up follows', () => {
    for (const name of ['app: first minute lowered (x0.7)', 'app: first minute much lower (x0.5)']) {
      const c = cases.find((x) => x.name === name)!;
      const p = detectPhases(c.recording)!;
      expect(p.exercise.t_start_s, name).to.be.at.least(c.truth_s - REAL_TOLERANCE_S);
      expect(p.warmup, name).to.equal(null);
      expect(p.rest!.t_start_s, name).to.equal(c.recording.t_s[0]);
    }
  });

  it('reads an unloaded warm-up before the onset as warm-up, and a test that starts in exercise as such', () => {
    const warm = cases.find((x) => x.name === 'app: unloaded warm-up added')!;
    const p = detectPhases(warm.recording)!;
    expect(p.warmup).to.not.equal(null);
    expect(Math.abs(p.warmup!.t_start_s - 120)).to.be.at.most(REAL_TOLERANCE_S);
    const none = cases.find((x) => x.name === 'app: no rest')!;
    const q = detectPhases(none.recording)!;
    expect(q.rest).to.equal(null);
    expect(q.warmup).to.equal(null);
  });

  for (const protocol of ['ramp', 'steps'] as Protocol[]) {
    for (const sampling of [
      { kind: 'averaged', window_s: 10 },
      { kind: 'interval', interval_s: 2 },
    ] as SamplingOption[]) {
      it(`places the generated ${protocol} onset from the gases within its stated error, ${sampling.kind} sampling`, () => {
        for (let seed = 1; seed <= 6; seed++) {
          const { recording, truth } = generateTest({ seed, protocol, sampling });
          const p = detectPhases(gasOnly(recording))!;
          expect(p.method).to.equal('gas signals');
          expect(Math.abs(p.exercise.t_start_s - truth.phases.warmup_end_s), `seed ${seed}`).to.be.at.most(p.expected_error_s);
        }
      });
    }
  }

  it('finds nearly the same onset in a generated test whose first minute reads low', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const { recording, truth } = generateTest({ seed, protocol: 'ramp' });
      const rec = gasOnly(recording);
      const plain = detectPhases(rec)!.exercise.t_start_s;
      for (const name of ['VO2', 'VCO2', 'VE'] as const) {
        const v = rec.channels[name]!.values;
        for (let i = 0; i < v.length && rec.t_s[i] - rec.t_s[0] < 60; i++) if (v[i] !== null) v[i] = (v[i] as number) * 0.6;
      }
      const p = detectPhases(rec)!;
      expect(Math.abs(p.exercise.t_start_s - plain), `seed ${seed}`).to.be.at.most(15);
      expect(p.warmup === null || p.warmup.t_start_s >= rec.t_s[0] + 60, `seed ${seed}: a warm-up inside the first minute`).to.equal(true);
      expect(Math.abs(p.exercise.t_start_s - truth.phases.warmup_end_s), `seed ${seed}`).to.be.at.most(p.expected_error_s);
    }
  });

  it('gives no onset to a signal that never rises', () => {
    const t = Array.from({ length: 200 }, (_, i) => i * 3);
    expect(
      gasOnset(
        t,
        t.map(() => 400),
      ),
    ).to.equal(null);
  });

  it('says which reading placed the onset', () => {
    const c = cases.find((x) => x.name === 'app: no rest')!;
    const found = gasOnset(c.recording.t_s, channel(c.recording, 'VO2')!, c.recording.sampling.raw_interval_s ?? 0)!;
    expect(found.how).to.equal('response fit');
    expect(detectPhases(c.recording)!.notes.join(' ')).to.match(/fitted as a first-order response from the record start/);
  });
});
