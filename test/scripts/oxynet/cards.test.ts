import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelCard } from '../../../analyses/vt/card.js';
import { mergeCard, oxynetCards } from '../../../scripts/oxynet/cards.js';
import { CONVERSIONS, convertOxynet } from '../../../scripts/oxynet/convert.js';
import { PROJECT_ROOT } from '../../../src/plugins.js';

describe('cards of the models on the Oxynet weights', () => {
  const fresh = CONVERSIONS.flatMap(({ version }) => oxynetCards(convertOxynet(join(PROJECT_ROOT, 'scripts/oxynet/input'), version).conversion));

  it('are what the converter generates: the committed static part was never edited by hand', () => {
    for (const card of fresh) {
      const committed = JSON.parse(readFileSync(join(PROJECT_ROOT, 'models', card.name, card.version, 'card.json'), 'utf8')) as ModelCard;
      const { evaluation: _e, replay: _r, status: _s, ...staticPart } = committed;
      const { status: _fs, ...expected } = card;
      expect(staticPart, `${card.name} ${card.version}`).to.deep.equal(JSON.parse(JSON.stringify(expected)));
    }
  });

  it('keep an evaluation, its replay and the status it earned when regenerated', () => {
    const evaluated = { ...fresh[1], status: 'production', evaluation: { evaluated_at: 'x', command: 'y', cohorts: [] }, replay: { findings: null } } as unknown as ModelCard;
    const merged = mergeCard(evaluated, fresh[1]);
    expect(merged.status).to.equal('production');
    expect(merged.evaluation).to.deep.equal(evaluated.evaluation);
    expect(merged.replay).to.deep.equal({ findings: null });
    expect(mergeCard(null, fresh[1]).evaluation).to.equal(null);
  });

  it('pair each gandalf version with the oxynet-cnn weights of the same version', () => {
    expect(fresh.map((c) => `${c.name} ${c.version}`)).to.deep.equal(['oxynet-cnn v1.0.0', 'gandalf v1.0.0', 'oxynet-cnn v1.1.0', 'gandalf v1.1.0']);
    for (const card of fresh.filter((c) => c.name === 'gandalf')) expect(card.weights?.file).to.equal(`../../oxynet-cnn/${card.version}/model.onnx`);
  });

  it('attribute the weights and state their licence', () => {
    for (const card of fresh) {
      expect(card.source.licence).to.match(/^MIT/);
      expect(card.source.attribution).to.match(/Zignoli/);
    }
  });
});
