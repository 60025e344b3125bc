/**
 * `preprocessing.vt1_bound: before_compensation` (analyses/vt/decision/vt1-before-compensation.ts): a card that
 * names none leaves VT1 where it was placed, an unknown bound is refused with the card, and a VT1 placed at or
 * past the bound moves to the median of the gas-exchange landmarks read before it, never to a ventilatory one.
 */
import { strict as assert } from 'node:assert';
import { ModelRegistry } from '../../../../analyses/vt/registry.js';
import { vt1BeforeCompensation, vt1BoundOf } from '../../../../analyses/vt/decision/vt1-before-compensation.js';
import { CRITERIA, type CriterionEvidence } from '../../../../analyses/vt/engines/wasserman/criteria.js';
import { modelsWithPreprocessing } from '../helpers.js';

const [vSlope, excess, veVo2, petO2] = CRITERIA.VT1.map((c) => c.criterion);
const at = (criterion: string, index: number | null, accepted = true): CriterionEvidence => ({ criterion, index, slope_before: null, slope_after: null, accepted, why: '' });

describe('vt VT1 bound: before the compensation', () => {
  it('leaves VT1 unbounded when the card names no bound, and refuses a card naming an unknown one', () => {
    assert.equal(vt1BoundOf({}), 'none');
    assert.equal(vt1BoundOf({ preprocessing: { vt1_bound: 'before_compensation' } }), 'before_compensation');
    const registry = new ModelRegistry(modelsWithPreprocessing('v1.5.0', { vt1_bound: 'before_vt2' }));
    assert.equal(registry.find('gandalf', 'v1.5.0'), undefined);
    assert.match(registry.rejected.map((r) => r.reason).join(), /vt1_bound before_vt2 is not one of none, before_compensation/);
  });

  it('moves a VT1 at or past the bound to the gas-exchange landmarks read before it', () => {
    const criteria = [at(vSlope, 300), at(excess, 340), at(veVo2, 200), at(petO2, 210)];
    // Read a minute after their breakpoints: V-slope 360, excess CO2 400; the ventilatory readings never count.
    assert.equal(vt1BeforeCompensation(500, 450, criteria, 60), 380);
    assert.equal(vt1BeforeCompensation(450, 450, criteria, 60), 380);
    assert.equal(vt1BeforeCompensation(449, 450, criteria, 60), null);
    // Only those read at or before the bound, and only accepted ones.
    assert.equal(vt1BeforeCompensation(500, 390, criteria, 60), 360);
    assert.equal(vt1BeforeCompensation(500, 450, [at(vSlope, 300, false), at(excess, 340), at(veVo2, 200), at(petO2, 210)], 60), 400);
    assert.equal(vt1BeforeCompensation(500, 350, criteria, 60), null);
  });
});
