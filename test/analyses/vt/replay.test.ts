import { expect } from 'chai';
import plugin from '../../../analyses/vt/index.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import { generateSampleTest } from '../../../src/synthetic/sample.js';

const sample = generateSampleTest(false).recording;

describe('vt published model versions', () => {
  for (const model of new ModelRegistry(DEFAULT_MODELS_DIR).models) {
    const { name, version } = model.card;
    it(`${name} ${version} still gives the findings its card recorded for the sample`, async () => {
      const replay = model.card.replay as { findings: Record<string, unknown> } | undefined;
      expect(replay, 'the card records a replay (npm run evaluate -- --write)').to.not.equal(undefined);
      const out = await plugin.run(sample, { model: name, model_version: version, key: { tier: 'research', allowed_models: null }, surface: 'web' });
      expect(out.status).to.equal('ok');
      if (out.status === 'ok') expect(JSON.parse(JSON.stringify(out.findings))).to.deep.equal(replay!.findings);
    });
  }
});
