import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisRequest } from '../../src/analyses/analysis-plugin.js';
import { runAnalyses } from '../../src/analyses/run.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { loadPlugins, PROJECT_ROOT, type Plugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';
import type { ExerciseShape } from '../../src/synthetic/types.js';
import type { SubstrateFindings } from '../../analyses/substrate/analyse.js';

const REQUEST: AnalysisRequest = { key: { tier: 'research', allowed_models: null } };

/** A synthetic cycle test of the given shape without file markers: the protocol is read, not told. */
function synthetic(shape: ExerciseShape, withLoad = true): Recording {
  const rec = structuredClone(generateTest({ seed: 11, protocol: 'ramp', shape, rest_s: 120, warmup_s: 180, exercise_s: 720, vo2peak_ml_min: 3200 }).recording);
  rec.phases = [];
  if (!withLoad) delete rec.channels.Load;
  return rec;
}

/** The substrate findings, with the check every protocol shares: no share of energy from fat outside 0-100 %. */
function substrateOf(envelope: { status: string; findings: Record<string, unknown> | null }): SubstrateFindings {
  expect(envelope.status).to.equal('ok');
  const f = envelope.findings as unknown as SubstrateFindings;
  for (const w of f.windows) if (w.pct_ee_fat !== null) expect(w.pct_ee_fat).to.be.within(0, 100);
  return f;
}

describe('every analysis on each protocol kind', function () {
  this.timeout(60_000);
  let plugins: Plugins;
  before(async () => {
    plugins = await loadPlugins();
  });

  for (const withLoad of [true, false]) {
    it(`constant load (${withLoad ? 'with' : 'without'} a load column): vt refused with the protocol, substrate reports a bout`, async () => {
      const [vt, substrate] = await runAnalyses(synthetic('constant', withLoad), ['vt', 'substrate'], plugins.analyses, REQUEST);
      expect(vt.status).to.equal('not_analysable');
      expect(vt.error).to.equal('INSUFFICIENT_SIGNAL');
      expect(vt.context?.protocol).to.equal('constant');
      expect(vt.message).to.match(/constant-load test has no incremental part/);
      const f = substrateOf(substrate);
      expect(f.protocol).to.equal('constant');
      expect(f.protocol_kind).to.equal('constant');
      expect(f.window_source).to.equal('constant bouts');
      expect(f.bouts).to.have.length(1);
      expect(f.steady_state).to.equal(true);
      expect(f.fatmax.found).to.equal(false);
      expect(JSON.stringify(f)).to.not.match(/"steps"/);
    });
  }

  it("constant load on a real file (whippr's three square-wave bouts): vt refused, substrate reports three bouts", async () => {
    const path = join(PROJECT_ROOT, 'formats', 'cosmed-xlsx', 'fixtures', 'pft-suite-en-breath-by-breath', 'input.xlsx');
    const { recording } = await readUpload('input.xlsx', readFileSync(path), plugins.formats);
    const [vt, substrate] = await runAnalyses(recording, ['vt', 'substrate'], plugins.analyses, REQUEST);
    expect(vt.status).to.equal('not_analysable');
    expect(vt.context?.protocol).to.equal('constant');
    const f = substrateOf(substrate);
    expect(f.protocol).to.equal('constant');
    expect(f.bouts).to.have.length(3);
    expect(f.windows).to.have.length(3);
  });

  it('warm-up bout then ramp: thresholds and substrate windows start after the warm-up bout, and say so', async () => {
    const rec = synthetic('warmup_bout');
    // The ramp starts after the bout (25 % of 720 s) and the pause (10 %).
    const rampStart = 120 + 180 + 0.35 * 720;
    const [vt, substrate] = await runAnalyses(rec, ['vt', 'substrate'], plugins.analyses, REQUEST);
    expect(vt.status, vt.message).to.equal('ok');
    const vt1 = vt.findings?.vt1_time_s as number | null;
    expect(vt1).to.not.equal(null);
    expect(vt1).to.be.greaterThan(rampStart);
    expect(vt.notes.join(' ')).to.match(/warm-up bout precedes the incremental part/);
    const f = substrateOf(substrate);
    expect(f.protocol_kind).to.equal('warmup_incremental');
    expect(f.onset).to.equal('start of the incremental part after a warm-up bout');
    expect(f.exercise.t_start).to.be.within(rampStart - 5, rampStart + 30);
    expect(f.windows[0].t_start).to.be.at.least(f.exercise.t_start);
  });

  it('interval session: refused as before, with the protocol in the context', async () => {
    const [vt, substrate] = await runAnalyses(synthetic('interval'), ['vt', 'substrate'], plugins.analyses, REQUEST);
    expect(vt.status).to.equal('not_analysable');
    expect(vt.error).to.equal('INSUFFICIENT_SIGNAL');
    expect(vt.context?.protocol).to.equal('interval');
    if (substrate.status === 'ok') expect(substrateOf(substrate).protocol).to.equal('interval');
    // The real Parvo interval file has no end-tidal channels, so vt refuses it for those first; substrate names the protocol.
    const path = join(PROJECT_ROOT, 'formats', 'parvo-trueone', 'fixtures', 'csv-breath-by-breath', 'input.csv');
    const { recording } = await readUpload('input.csv', readFileSync(path), plugins.formats);
    const [real] = await runAnalyses(recording, ['substrate'], plugins.analyses, REQUEST);
    if (real.status === 'ok') expect(substrateOf(real).protocol).to.equal('interval');
    else expect(real.context?.protocol).to.equal('interval');
  });

  it("the request's protocol overrides the reading and is echoed in every provenance", async () => {
    const protocol = { kind: 'steps' as const, stage_s: 120, increment_w: 25 };
    const [vt] = await runAnalyses(synthetic('constant'), ['vt'], plugins.analyses, { ...REQUEST, protocol });
    expect(vt.provenance.protocol).to.deep.equal(protocol);
    expect(vt.context?.protocol).to.not.equal('constant');
    const [substrate] = await runAnalyses(synthetic('incremental'), ['substrate'], plugins.analyses, { ...REQUEST, protocol });
    expect(substrate.provenance.protocol).to.deep.equal(protocol);
    const f = substrateOf(substrate);
    expect(f.protocol_source).to.equal('request');
    expect(f.protocol_input).to.deep.equal(protocol);
    expect(f.window_source).to.equal('protocol stages');
    const [plain] = await runAnalyses(synthetic('constant'), ['substrate'], plugins.analyses, REQUEST);
    expect(plain.provenance).to.not.have.property('protocol');
  });
});
