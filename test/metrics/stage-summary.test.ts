import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../../src/formats/read-upload.js';
import { computeStageSummary } from '../../src/metrics/entries/stage-summary.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { loadPlugins, PROJECT_ROOT, type Plugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateTest } from '../../src/synthetic/generate.js';

interface Row {
  stage: number;
  t_start_s: number;
  t_end_s: number;
  tail_from_s: number;
  vo2_ml_min: number;
  rer: number | null;
  n_samples: number;
  level: number | null;
}

function stagesOf(result: ReturnType<typeof computeStageSummary>): Row[] {
  if (result.status !== 'ok') throw new Error(result.message);
  return (result.value as { stages: Row[] }).stages;
}

describe('stage_summary', () => {
  let plugins: Plugins;
  before(async () => {
    plugins = await loadPlugins();
  });
  async function read(format: string, fixture: string, name: string): Promise<Recording> {
    const path = join(PROJECT_ROOT, 'formats', format, 'fixtures', fixture, name);
    return (await readUpload(name, readFileSync(path), plugins.formats)).recording;
  }

  it("summarises the stages of a real treadmill step test (spiro's ZAN example) over their last 30 s", async () => {
    const stages = stagesOf(computeStageSummary(await read('zan-dat', 'spiro-zan-gxt', 'input.dat')));
    expect(stages.length).to.be.at.least(5);
    for (let k = 0; k < stages.length; k++) {
      const s = stages[k];
      expect(s.stage).to.equal(k + 1);
      expect(s.t_end_s - s.t_start_s).to.be.at.least(60);
      expect(s.tail_from_s).to.be.closeTo(s.t_end_s - 30, 0.11);
      expect(s.n_samples).to.be.greaterThan(0);
      if (k > 0) {
        expect(s.level).to.be.greaterThan(stages[k - 1].level ?? Infinity);
        expect(s.t_start_s).to.be.at.least(stages[k - 1].t_end_s);
      }
    }
  });

  it('reads 20-W stages from a real Parvo TrueOne cycle test', async () => {
    const stages = stagesOf(computeStageSummary(await read('parvo-trueone', 'xlsx-30s-bins', 'input.xlsx')));
    expect(stages.slice(0, 3).map((s) => s.level)).to.deep.equal([20, 40, 60]);
  });

  it('matches a hand count on a synthetic step test: one row per 180-s stage, the VO2 of its tail', () => {
    const g = generateTest({ seed: 3, protocol: 'steps', step_s: 180, exercise_s: 720, noise_cv: 0, outlier_rate: 0 });
    const stages = stagesOf(computeStageSummary(g.recording));
    expect(stages).to.have.length(4);
    for (const s of stages) expect(s.t_end_s - s.t_start_s).to.be.within(170, 181);
    const vo2 = stages.map((s) => s.vo2_ml_min);
    expect(vo2).to.deep.equal([...vo2].sort((a, b) => a - b));
  });

  it('refuses a ramp with the reason, and summarises it when the request gives steps', async () => {
    const rec = await read('canonical-json', 'synthetic-sample', 'input.json');
    const refused = computeStageSummary(rec);
    expect(refused.status).to.equal('unavailable');
    if (refused.status === 'unavailable') expect(refused.message).to.match(/a ramp has no stages/);
    const given = computeStageSummary(rec, { protocol: { kind: 'steps', stage_s: 120, increment_w: 25, first_stage_w: 50 } });
    const stages = stagesOf(given);
    expect(stages.length).to.be.at.least(4);
    expect(stages.slice(0, 3).map((s) => s.level)).to.deep.equal([50, 75, 100]);
    for (const s of stages) expect(s.t_end_s - s.t_start_s).to.be.closeTo(120, 0.11);
    if (given.status === 'ok') expect((given.value as { protocol_input: unknown }).protocol_input).to.deep.equal({ kind: 'steps', stage_s: 120, increment_w: 25, first_stage_w: 50 });
    const ramp = computeStageSummary(rec, { protocol: { kind: 'ramp', ramp_w_min: 25 } });
    expect(ramp.status).to.equal('unavailable');
  });

  it('refuses a constant-load test and an interval session, naming the protocol', async () => {
    for (const [format, fixture, name, kind] of [
      ['cosmed-xlsx', 'pft-suite-en-breath-by-breath', 'input.xlsx', 'constant'],
      ['parvo-trueone', 'csv-binned', 'input.csv', 'interval'],
    ]) {
      const result = computeStageSummary(await read(format, fixture, name));
      expect(result.status).to.equal('unavailable');
      if (result.status === 'unavailable') expect(result.context.protocol).to.equal(kind);
    }
  });

  it('is in the registry and takes the protocol from the compute request', async () => {
    const registry = createMetricRegistry();
    expect(registry.has('stage_summary')).to.equal(true);
    const rec = await read('canonical-json', 'synthetic-sample', 'input.json');
    const out = registry.compute(rec, ['stage_summary'], { protocol: { kind: 'steps', stage_s: 120 } });
    expect(out.stage_summary.status).to.equal('ok');
  });
});
