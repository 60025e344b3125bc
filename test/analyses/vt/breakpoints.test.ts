import { expect } from 'chai';
import { crossingsFromCurves } from '../../../analyses/vt/decision/step-fit.js';

describe('vt breakpoint helpers', () => {
  it('places VT1 and VT2 at the domain changes and ignores a brief flicker', () => {
    const n = 900;
    const moderate = new Float64Array(n);
    const heavy = new Float64Array(n);
    const severe = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const d = i < 400 ? 0 : i < 700 ? 1 : 2;
      moderate[i] = d === 0 ? 0.9 : 0.05;
      heavy[i] = d === 1 ? 0.9 : 0.05;
      severe[i] = d === 2 ? 0.9 : 0.05;
    }
    // A 10-s flicker into heavy well before VT1.
    for (let i = 200; i < 210; i++) [moderate[i], heavy[i]] = [0.1, 0.85];
    const c = crossingsFromCurves({ moderate, heavy, severe });
    expect(c.vt1_index).to.be.within(398, 402);
    expect(c.vt2_index).to.be.within(698, 702);
  });

  it('gives no threshold when the moderate domain is never left for long', () => {
    const n = 600;
    const moderate = new Float64Array(n).fill(0.8);
    const heavy = new Float64Array(n).fill(0.15);
    const severe = new Float64Array(n).fill(0.05);
    for (let i = 300; i < 312; i++) [moderate[i], heavy[i]] = [0.2, 0.75];
    expect(crossingsFromCurves({ moderate, heavy, severe })).to.deep.equal({ vt1_index: null, vt2_index: null });
  });
});
