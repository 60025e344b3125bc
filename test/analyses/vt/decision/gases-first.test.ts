import { expect } from 'chai';
import { gasesFirst, readToEnd } from '../../../../analyses/vt/decision/corroborated.js';
import { endCompensation } from '../../../../analyses/vt/decision/end-compensation.js';
import type { EngineInput } from '../../../../analyses/vt/engines/engine.js';
import { checked, curves, end, input, n, sample, t0, vt1Truth } from './sample-input.js';

const vt2Truth = Math.round(sample.truth.vt2!.time_s - t0);
type Ev = { placed_by: string; model_crossing_s: number | null; compensation?: { accepted: boolean }[] };

describe('the gases-first decision rule (gandalf v1.3.0)', () => {
  it('places VT2 where the end-of-test gases agree, not at an early crossing of the curves, and keeps the crossing as evidence', () => {
    const early = vt2Truth - 60;
    const d = gasesFirst.decide(curves(vt1Truth, early), input, {});
    const ec = endCompensation(checked.test, (d.vt1?.index as number) + 30, end);
    expect(ec.index, 'the sample shows its respiratory compensation in the gases').to.not.equal(null);
    expect(d.vt2?.index).to.equal(ec.index);
    const ev = (d.evidence as { vt2: Ev }).vt2;
    expect(ev.placed_by).to.equal('gases at the end of the test');
    expect(ev.model_crossing_s).to.be.within(t0 + early - 15, t0 + early + 15);
    expect(ev.compensation?.filter((s) => s.accepted).length).to.be.at.least(2);
    expect(d.notes?.some((note) => note.includes(`not at the model's crossing at ${ev.model_crossing_s} s`))).to.equal(true);
    // read-to-end keeps the curves' crossing on the same input.
    expect(readToEnd.decide(curves(vt1Truth, early), input, {}).vt2?.index).to.not.equal(ec.index);
  });

  it('adds no note where the gases and the curves agree (within 45 s): each corroborates the other', () => {
    const d = gasesFirst.decide(curves(vt1Truth, vt2Truth), input, {});
    const ev = (d.evidence as { vt2: Ev }).vt2;
    expect(ev.placed_by).to.equal('gases at the end of the test');
    expect(Math.abs((ev.model_crossing_s as number) - (t0 + (d.vt2?.index as number)))).to.be.at.most(45);
    expect(d.notes?.some((note) => note.startsWith('VT2'))).to.equal(false);
  });

  it('reads as read-to-end where the gases show no compensation', () => {
    const test = { ...checked.test, ve: Float64Array.from(checked.test.vco2, (v) => 0.03 * v), petco2: new Float64Array(n).fill(40) };
    const flat = { ...input, test } as EngineInput;
    const c = curves(vt1Truth, vt2Truth);
    const a = gasesFirst.decide(c, flat, {});
    const b = readToEnd.decide(c, flat, {});
    expect(a.vt2).to.deep.equal(b.vt2);
    expect((a.evidence as { vt2: Ev }).vt2.placed_by).to.not.equal('gases at the end of the test');
  });
});
