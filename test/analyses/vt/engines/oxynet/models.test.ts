import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import plugin from '../../../../../analyses/vt/index.js';
import { createOxynetSession } from '../../../../../analyses/vt/engines/oxynet/run.js';
import { upstreamThresholds } from '../../../../../analyses/vt/engines/oxynet/upstream.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../../../analyses/vt/registry.js';
import { realTests, type RealTest } from '../../../../../scripts/train/real-tests.js';
import { GANDALF_V1_READING } from '../../../../../scripts/oxynet/cards.js';
import { PROJECT_ROOT } from '../../../../../src/plugins.js';
import { generateSampleTest } from '../../../../../src/synthetic/sample.js';

const research = { tier: 'research' as const, allowed_models: null };
const etaShiftS = -(JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/fixtures/vt/exercise_threshold_app_test.json'), 'utf8')) as { data: { t: number }[] }[])[0].data[0].t;

describe('models built on the Oxynet weights', () => {
  let tests: RealTest[];
  before(async () => {
    tests = await realTests();
  });

  for (const version of ['v1.0.0', 'v1.1.0']) {
    it(`reads the weights once: gandalf ${version} points at the oxynet-cnn ${version} file and both hashes match`, () => {
      const reg = new ModelRegistry(DEFAULT_MODELS_DIR);
      const cnn = reg.find('oxynet-cnn', version)!;
      const gandalf = reg.find('gandalf', version)!;
      expect(cnn.problem).to.equal(null);
      expect(gandalf.problem).to.equal(null);
      expect(gandalf.weights_path).to.equal(cnn.weights_path);
    });
  }

  it('gives in v1.1.0 (the 2-D graph) the findings of v1.0.0 on both labelled tests and the sample, and curves within 1e-4', async () => {
    const sample = generateSampleTest(false);
    const { domainProbabilities } = await import('../../../../../analyses/vt/domains.js');
    for (const [id, rec] of [...tests.map((t) => [t.id, t.recording] as const), ['sample', sample.recording] as const]) {
      for (const model of ['gandalf', 'oxynet-cnn']) {
        const [a, b] = await Promise.all(['v1.0.0', 'v1.1.0'].map((v) => plugin.run(rec, { model, model_version: v, key: research, surface: 'web' })));
        expect(a.status, `${model} ${id}`).to.equal('ok');
        expect(b.status === 'ok' && b.findings, `${model} ${id}`).to.deep.equal(a.status === 'ok' && a.findings);
      }
      const [ca, cb] = await Promise.all(['v1.0.0', 'v1.1.0'].map((v) => domainProbabilities(rec, { model: 'gandalf', model_version: v, key: research })));
      if (ca.status !== 'ok' || cb.status !== 'ok') throw new Error(`expected curves for ${id}`);
      expect(cb.t_s).to.deep.equal(ca.t_s);
      for (const k of ['moderate', 'heavy', 'severe'] as const)
        ca[k].forEach((p, i) => {
          expect(Math.abs(cb[k][i] - p), `${id} ${k} ${i}`).to.be.at.most(1e-4);
        });
    }
  });

  it("fixes the output columns pyoxynet's own column rule finds on both labelled tests", async () => {
    const session = await createOxynetSession(join(PROJECT_ROOT, 'models/oxynet-cnn/v1.0.0/model.onnx'));
    for (const t of tests) expect((await upstreamThresholds(t.recording, session)).columns, t.id).to.deep.equal(GANDALF_V1_READING.output_columns);
  });

  it('serves the upstream variant as oxynet-cnn v1.0.0, reproducing its figures through the plugin (web only)', async () => {
    const eta = tests.find((t) => t.id.includes('threshold app'))!;
    const out = await plugin.run(eta.recording, { model: 'oxynet-cnn', key: research, surface: 'web' });
    expect(out.status).to.equal('ok');
    if (out.status !== 'ok') return;
    const f = out.findings as Record<string, number>;
    expect(f.vt1_time_s - etaShiftS).to.be.closeTo(435, 2);
    expect(f.vt1_vo2_ml_min).to.be.closeTo(3339, 10);
    expect(f.vt2_time_s - etaShiftS).to.be.closeTo(577, 2);
    expect(f.vt2_vo2_ml_min).to.be.closeTo(4102, 10);
    const api = await plugin.run(eta.recording, { model: 'oxynet-cnn', key: research });
    expect(api).to.deep.include({ status: 'not_analysable', error: 'MODEL_NOT_FOUND' });
  });

  it('gives gandalf v1.0.0 per-second curves that sum to one, moderate at rest and severe before the peak', async () => {
    const sample = generateSampleTest(false);
    const { domainProbabilities } = await import('../../../../../analyses/vt/domains.js');
    const d = await domainProbabilities(sample.recording, { model: 'gandalf', model_version: 'v1.0.0', key: research });
    if (d.status !== 'ok') throw new Error(`expected curves, got ${d.error}`);
    expect(d.model).to.deep.equal({ name: 'gandalf', version: 'v1.0.0' });
    for (let i = 0; i < d.t_s.length; i++) expect(d.moderate[i] + d.heavy[i] + d.severe[i]).to.be.closeTo(1, 1e-3);
    expect(d.moderate[0]).to.be.above(0.9);
    expect(d.severe.at(-1)).to.be.above(0.5);
    // The last 40 s are never described by a row (a window's first second is its time), so they are not sent.
    expect(d.t_s.at(-1)).to.be.at.most(sample.truth.phases.exercise_end_s - 40 + 2);
  });

  it('says in the findings which evidence placed each threshold', async () => {
    const out = await plugin.run(tests[0].recording, { model: 'gandalf', model_version: 'v1.0.0', key: research });
    expect(out.status).to.equal('ok');
    if (out.status !== 'ok') return;
    const ev = out.findings.evidence as Record<string, { placed_by: string; model_crossing_s: number | null; landmarks: unknown[] }>;
    for (const k of ['vt1', 'vt2']) {
      expect(ev[k].placed_by).to.be.oneOf(['model', 'model and landmarks', 'landmarks (the curves end undecided)']);
      expect(ev[k].landmarks.length).to.be.greaterThan(0);
    }
  });
});
