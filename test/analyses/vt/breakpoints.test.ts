import { expect } from 'chai';
import { crossingsFromCurves } from '../../../analyses/vt/domain-crossings.js';
import { twoLineFit } from '../../../analyses/vt/two-line-fit.js';

describe('vt breakpoint helpers', () => {
  it('two-line fit finds the split and both slopes of a broken line', () => {
    const n = 200;
    const x = Float64Array.from({ length: n }, (_, i) => 1000 + 10 * i);
    const y = Float64Array.from(x, (v, i) => (i < 120 ? 0.9 * v : 0.9 * x[120] + 1.4 * (v - x[120])));
    const fit = twoLineFit(x, y, 0, n - 1, 10)!;
    expect(fit.split).to.equal(120);
    expect(fit.slope_before).to.be.closeTo(0.9, 1e-9);
    expect(fit.slope_after).to.be.closeTo(1.4, 1e-9);
    expect(fit.intercept_before).to.be.closeTo(0, 1e-6);
  });

  it('two-line fit refuses a range shorter than two minimal segments', () => {
    const x = new Float64Array(15);
    expect(twoLineFit(x, x, 0, 14, 8)).to.equal(null);
  });

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
