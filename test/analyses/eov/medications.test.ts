import { expect } from 'chai';
import { MEDICATION_FACTORS, medicationAdjustment, normaliseMedication } from '../../../analyses/eov/medications.js';

describe('EOV medication adjustment', () => {
  it('keeps every factor at 1.0 until a published correction exists', () => {
    for (const f of Object.values(MEDICATION_FACTORS)) expect(f).to.equal(1);
  });

  it('normalises case, spaces, hyphens and slashes', () => {
    expect(normaliseMedication(' Sacubitril/Valsartan ')).to.equal('sacubitril_valsartan');
    expect(normaliseMedication('Beta-Blocker')).to.equal('beta_blocker');
  });

  it('accepts unknown names, lists them apart, and leaves the factor at 1', () => {
    expect(medicationAdjustment(['opioid', 'Mystery pill'])).to.deep.equal({ recognised: ['opioid'], unrecognised: ['Mystery pill'], factor: 1 });
    expect(medicationAdjustment(null)).to.deep.equal({ recognised: [], unrecognised: [], factor: 1 });
  });
});
