import { expect } from 'chai';
import { buildRecording } from '../../src/recording/build.js';

/** A recording of VO2 at the given times, as a parser would hand it over. */
function at(times: number[]) {
  return buildRecording({ format: 'test', time_s: times, channels: { VO2: { values: times.map((t) => 1000 + t) } } } as Parameters<typeof buildRecording>[0]);
}

describe('sampling recognition', () => {
  it('recognises a 10-s averaged export whose empty bins were left out as averaged, not breath-by-breath', () => {
    const times: number[] = [];
    for (let k = 1; k <= 120; k++) if (k % 7 !== 0 && k % 11 !== 0) times.push(10 * k);
    const rec = at(times);
    expect(rec.sampling.method).to.equal('averaged');
    expect(rec.sampling.averaging_s).to.equal(10);
  });

  it('keeps breath-by-breath data breath-by-breath, also when breath times are rounded to whole seconds', () => {
    let t = 0;
    const exact: number[] = [];
    const rounded: number[] = [];
    for (let i = 0; i < 300; i++) {
      t += 2 + 2 * Math.abs(Math.sin(i * 1.7));
      exact.push(t);
      rounded.push(Math.round(t));
    }
    expect(at(exact).sampling.method).to.equal('breath_by_breath');
    expect(at(rounded).sampling.method).to.equal('breath_by_breath');
  });
});
