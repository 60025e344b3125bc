import { expect } from 'chai';
import plugin from '../../../analyses/vt/index.js';
import { missingThresholdNotes } from '../../../analyses/vt/reading-notes.js';
import { DEFAULT_MODELS_DIR, ModelRegistry } from '../../../analyses/vt/registry.js';
import { generateTest } from '../../../src/synthetic/generate.js';

/** Words that claim a domain was not reached. */
const REACHED = /not reached|was reached|ended before/i;

describe('vt notes say what was looked at', () => {
  const span = (unread: number) => ({ analysed_until_s: 900, read_until_s: 900 - unread, unread_s: unread });

  it('says "not reached" only when the curves were read to the last second', () => {
    expect(missingThresholdNotes(false, true, span(0), { placed_by: 'not reached' }).join(' ')).to.match(/No VT2: the test ended before the severe domain/);
    const unread = missingThresholdNotes(false, true, span(40), { placed_by: 'not reached' }).join(' ');
    expect(unread).to.not.match(REACHED);
    expect(unread).to.match(/not assessable.*stop at 860 s.*last 40 s/);
    expect(missingThresholdNotes(true, true, span(40), undefined).join(' ')).to.match(/No VT1 in the seconds read.*last 40 s/);
  });

  it('reports evidence still rising at the last second as not assessable, with the earliest time', () => {
    const notes = missingThresholdNotes(false, true, span(0), { placed_by: 'not assessable', at_or_after_s: 870 }).join(' ');
    expect(notes).to.match(/VT2 not assessable.*at or after 870 s/);
    expect(notes).to.not.match(REACHED);
  });

  // Tests that stop before VT2 or soon after it, for every model that reads curves: a note that claims a
  // domain was not reached must come with curves read to the end of the analysed span.
  const curveModels = new ModelRegistry(DEFAULT_MODELS_DIR).models.filter((m) => m.card.pipeline.decision !== undefined);
  const tests = [
    generateTest({ seed: 424_001, protocol: 'ramp', vt2_present: false }),
    generateTest({ seed: 424_002, protocol: 'steps', vt2_present: false, sampling: { kind: 'averaged', window_s: 10 } }),
    generateTest({ seed: 424_003, protocol: 'ramp', realism: { end_after_vt2_s: 12 } }),
  ];
  let missing = 0;
  for (const model of curveModels) {
    it(`${model.card.name} ${model.card.version}: no note says "not reached" about seconds its curves did not read`, async () => {
      for (const g of tests) {
        const out = await plugin.run(g.recording, { model: model.card.name, model_version: model.card.version, key: { tier: 'research', allowed_models: null }, surface: 'web' });
        expect(out.status).to.equal('ok');
        if (out.status !== 'ok') continue;
        const ev = out.findings.evidence as { curves_until_s?: number; analysed_until_s?: number; read_span?: { unread_s: number } };
        const unread = ev.read_span ? ev.read_span.unread_s : ev.curves_until_s !== undefined && ev.analysed_until_s !== undefined ? ev.analysed_until_s - ev.curves_until_s : 0;
        if (out.findings.vt2_time_s === null) missing++;
        if (unread > 0)
          expect(
            out.notes.filter((n) => REACHED.test(n)),
            `${unread} s unread`,
          ).to.deep.equal([]);
      }
    });
  }
  it('checked at least one missing VT2 among those runs', () => expect(missing).to.be.above(0));
});
