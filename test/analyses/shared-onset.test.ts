import { expect } from 'chai';
import eov from '../../analyses/eov/index.js';
import { analyseSubstrate } from '../../analyses/substrate/analyse.js';
import { checkInput } from '../../analyses/vt/input-check.js';
import { VT_CHANNELS } from '../../analyses/vt/preprocess.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { detectPhases, phasesOf } from '../../src/signal/phases.js';
import { onsetCases, type OnsetCase } from '../signal/onset-cases.js';

const request = { key: { tier: 'free' as const, allowed_models: null } };

/** The case from the defect: a real test without markers whose first minute of rest reads low. */
const DEFECT_CASE = 'app: first minute lowered (x0.7)';

describe('one exercise onset for every analysis', () => {
  let c: OnsetCase;
  before(async () => {
    c = (await onsetCases()).find((x) => x.name === DEFECT_CASE)!;
  });

  it('vt, substrate, eov and the phases metric start exercise where the shared phases do', async () => {
    const rec = c.recording;
    const phases = phasesOf(rec)!;
    expect(phases).to.deep.equal(detectPhases(rec));
    expect(phases.warmup).to.equal(null);
    const onset = phases.exercise.t_start_s;

    const vt = checkInput(rec, VT_CHANNELS);
    expect(vt.ok).to.equal(true);
    if (vt.ok) expect(vt.test.t0_s + vt.exercise_start_index).to.equal(Math.round(onset));

    const substrate = analyseSubstrate(rec);
    expect(substrate.status).to.equal('ok');
    if (substrate.status === 'ok') {
      expect(substrate.findings.exercise.t_start).to.equal(onset);
      expect(substrate.findings.windows[0].t_start).to.equal(onset);
    }

    const out = await eov.run(rec, request);
    expect(out.status).to.equal('ok');
    if (out.status === 'ok') expect(out.notes).to.include(`Exercise runs from ${Math.round(onset)} s to ${Math.round(phases.exercise.t_end_s)} s (phases from gas signals).`);

    const metric = createMetricRegistry().compute(rec, ['phases']).phases;
    expect(metric.status).to.equal('ok');
    if (metric.status === 'ok') expect((metric.value as { exercise: { t_start_s: number } }).exercise.t_start_s).to.equal(Math.round(onset * 10) / 10);
  });

  it('keeps substrate out of the rest: windows start after the true onset and no crossover lies at a resting intensity', () => {
    const result = analyseSubstrate(c.recording);
    expect(result.status).to.equal('ok');
    if (result.status !== 'ok') return;
    const { windows, crossover, vo2peak } = result.findings;
    for (const w of windows) expect(w.t_start, `window at ${w.t_start} s`).to.be.at.least(c.truth_s);
    // The highest 30-s VO2 of the rest, as %VO2peak: a crossover at or below it would be a resting one.
    const vo2 = c.recording.channels.VO2!.values;
    let restPeak = 0;
    for (let i = 0; i < c.recording.t_s.length && c.recording.t_s[i] < c.truth_s; i++) {
      let sum = 0;
      let n = 0;
      for (let j = i; j < c.recording.t_s.length && c.recording.t_s[j] < Math.min(c.recording.t_s[i] + 30, c.truth_s); j++) {
        if (vo2[j] !== null) {
          sum += vo2[j] as number;
          n++;
        }
      }
      if (n) restPeak = Math.max(restPeak, sum / n);
    }
    const restPct = (100 * restPeak) / 1000 / vo2peak;
    if (crossover.found) expect(crossover.pct_vo2peak).to.be.greaterThan(restPct);
    expect(result.findings.flags.map((f) => f.code)).to.include('trimmed_to_exercise');
  });
});
