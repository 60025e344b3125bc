import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gateFailures } from '../../../analyses/vt/card.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import { agreementFigures, classicCard, tempModels } from './helpers.js';

const evaluation = (fail: boolean, unseen = true) => ({
  evaluated_at: '2026-11-21T00:00:00Z',
  command: 'test',
  cohorts: [{ cohort: 'synthetic held-out', unseen, n_tests: 300, vt1: agreementFigures(fail), vt2: agreementFigures() }],
});

describe('vt model registry', () => {
  it('refuses a card that claims production when its unseen-cohort evaluation misses the gate', () => {
    const models = tempModels();
    models.add(classicCard({ status: 'production', evaluation: evaluation(true) }));
    const reg = new ModelRegistry(models.dir);
    expect(reg.models).to.have.length(0);
    expect(reg.rejected).to.have.length(1);
    expect(reg.rejected[0].reason).to.match(/VO2 bias 250 mL\/min exceeds 120/);
    expect(reg.find('wasserman', 'latest')).to.equal(undefined);
  });

  it('refuses a production card evaluated only on a cohort it had seen', () => {
    const models = tempModels();
    models.add(classicCard({ status: 'production', evaluation: evaluation(false, false) }));
    const reg = new ModelRegistry(models.dir);
    expect(reg.rejected[0].reason).to.match(/no evaluation on an unseen cohort/);
  });

  it('loads a production card whose unseen cohort clears all four limits for both thresholds', () => {
    const models = tempModels();
    models.add(classicCard({ status: 'production', evaluation: evaluation(false) }));
    const reg = new ModelRegistry(models.dir);
    expect(reg.rejected).to.deep.equal([]);
    expect(reg.find('wasserman', 'latest')?.card.status).to.equal('production');
  });

  it('serves as latest the newest production version, else the newest version of any status', () => {
    const models = tempModels();
    models.add(classicCard({ version: 'v1.2.0', status: 'production', evaluation: evaluation(false) }));
    models.add(classicCard({ version: 'v1.10.0' }));
    models.add(classicCard({ name: 'other', version: 'v0.1.0' }));
    models.add(classicCard({ name: 'other', version: 'v0.2.0' }));
    const reg = new ModelRegistry(models.dir);
    expect(reg.find('wasserman', 'latest')?.card.version).to.equal('v1.2.0');
    expect(reg.find('wasserman', 'v1.10.0')?.card.version).to.equal('v1.10.0');
    expect(reg.find('other', 'latest')?.card.version).to.equal('v0.2.0');
    expect(reg.find('other', 'v9.9.9')).to.equal(undefined);
  });

  it('keeps a learned model whose weights do not match the card hash listed but unrunnable', () => {
    const models = tempModels();
    models.add(
      classicCard({ name: 'gandalf', engine: 'learned', pipeline: { engine: 'gandalf-mlp', decision: 'step-fit' }, weights: { file: 'model.onnx', sha256: '0'.repeat(64) } }),
      Buffer.from('not the weights'),
    );
    const reg = new ModelRegistry(models.dir);
    expect(reg.find('gandalf', 'latest')?.problem).to.match(/does not match/);
  });

  it('refuses a card whose pipeline names an unknown engine, or a curves engine without a decision rule', () => {
    const models = tempModels();
    models.add(classicCard({ name: 'a', pipeline: { engine: 'ouija' } }));
    models.add(classicCard({ name: 'b', engine: 'learned', pipeline: { engine: 'gandalf-mlp' }, weights: { file: 'model.onnx', sha256: '0'.repeat(64) } }));
    models.add(classicCard({ name: 'c', pipeline: { engine: 'wasserman', decision: 'step-fit' } }));
    const reasons = new ModelRegistry(models.dir).rejected.map((r) => r.reason);
    expect(reasons).to.have.length(3);
    for (const why of [/pipeline.engine ouija is not one of/, /gandalf-mlp answers curves and needs a pipeline.decision/, /wasserman places thresholds itself/]) {
      expect(
        reasons.some((r) => why.test(r)),
        String(why),
      ).to.equal(true);
    }
  });

  it('refuses a card whose name or version disagrees with its folder', () => {
    const models = tempModels();
    models.add(classicCard({ version: 'latest' }));
    expect(new ModelRegistry(models.dir).rejected[0].reason).to.match(/not vMAJOR.MINOR.PATCH/);
  });

  it('loads every committed card, with gandalf weights matching their hash', () => {
    const reg = new ModelRegistry(DEFAULT_MODELS_DIR);
    expect(reg.rejected).to.deep.equal([]);
    const gandalf = reg.versions('gandalf');
    expect(gandalf.length).to.be.greaterThan(0);
    for (const m of gandalf) {
      expect(m.problem).to.equal(null);
      const sha = createHash('sha256').update(readFileSync(m.weights_path!)).digest('hex');
      expect(sha).to.equal(m.card.weights?.sha256);
    }
    expect(reg.versions('wasserman').length).to.be.greaterThan(0);
  });

  it('states honestly in each committed card whether the gate was cleared', () => {
    for (const m of new ModelRegistry(DEFAULT_MODELS_DIR).models) {
      if (m.card.status === 'production') expect(gateFailures(m.card)).to.deep.equal([]);
      else expect(m.card.status).to.equal('research');
    }
  });
});
