import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createVtPlugin } from '../../../analyses/vt/plugin.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import { generateSampleTest } from '../../../src/synthetic/sample.js';
import { classicCard, request, tempModels } from './helpers.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const rec = generateSampleTest(false).recording;

describe('vt with a model that cannot run', () => {
  const models = tempModels();
  const corrupt = Buffer.from('this is not an ONNX protobuf at all');
  models.add(classicCard({ name: 'broken', engine: 'learned', pipeline: { engine: 'gandalf-mlp', decision: 'step-fit' }, weights: { file: 'model.onnx', sha256: sha(corrupt) } }), corrupt);
  models.add(
    classicCard({ name: 'altered', engine: 'learned', pipeline: { engine: 'gandalf-mlp', decision: 'step-fit' }, weights: { file: 'model.onnx', sha256: sha(Buffer.from('other')) } }),
    corrupt,
  );
  const real = new ModelRegistry(DEFAULT_MODELS_DIR).find('gandalf', 'latest')!;
  const weights = readFileSync(real.weights_path!);
  models.add({ ...real.card, name: 'good', tier: 'free', status: 'research', evaluation: null, weights: { file: 'model.onnx', sha256: sha(weights) } }, weights);
  const plugin = createVtPlugin({ modelsDir: models.dir });

  it('answers INFERENCE_FAILED inside the 200 for a corrupt ONNX file, naming the model', async () => {
    const out = await plugin.run(rec, request('free', { model: 'broken' }));
    expect(out).to.deep.include({ status: 'not_analysable', error: 'INFERENCE_FAILED' });
    expect(out.model).to.deep.equal({ name: 'broken', version: 'v1.0.0', tier: 'free' });
  });

  it('answers INFERENCE_FAILED when the weights do not match the card hash', async () => {
    const out = await plugin.run(rec, request('free', { model: 'altered' }));
    expect(out).to.deep.include({ status: 'not_analysable', error: 'INFERENCE_FAILED' });
    if (out.status === 'not_analysable') expect(out.message).to.match(/sha256/);
  });

  it('keeps answering with a sound model after a failure', async () => {
    await plugin.run(rec, request('free', { model: 'broken' }));
    const out = await plugin.run(rec, request('free', { model: 'good' }));
    expect(out.status).to.equal('ok');
    const again = await plugin.run(rec, request('free', { model: 'broken' }));
    expect(again).to.deep.include({ error: 'INFERENCE_FAILED' });
  });
});
