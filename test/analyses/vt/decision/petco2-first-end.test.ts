import { expect } from 'chai';
import { petco2First, petco2FirstEnd } from '../../../../analyses/vt/decision/corroborated.js';
import { endCompensation, MIN_AFTER_S } from '../../../../analyses/vt/decision/end-compensation.js';
import type { EngineInput } from '../../../../analyses/vt/engines/engine.js';
import { checked, curves, end, input, n, t0, vt1Truth } from './sample-input.js';

/** The sample with VE proportional to VCO2 (no compensation) and the PetCO2 given per grid index. */
function withPetco2(petco2: (i: number) => number): EngineInput {
  const test = { ...checked.test, ve: Float64Array.from(checked.test.vco2, (v) => 0.03 * v), petco2: Float64Array.from({ length: n }, (_, i) => petco2(i)) };
  return { ...input, test } as EngineInput;
}

const early = end - 90;
type Ev = { placed_by: string; model_crossing_s: number | null; petco2_after_crossing_mmhg_min?: number };

describe('the petco2-first-end decision rule', () => {
  it('places VT2 at the end of the test where PetCO2 holds after an early crossing and the gases show no compensation', () => {
    const flat = withPetco2(() => 40);
    expect(endCompensation(flat.test, vt1Truth + 30, end, 'clear_petco2_first').index, 'the gases show no compensation').to.equal(null);
    const d = petco2FirstEnd.decide(curves(vt1Truth, early), flat, {});
    expect(d.vt2?.index).to.equal(end - MIN_AFTER_S);
    const ev = (d.evidence as { vt2: Ev }).vt2;
    expect(ev.placed_by).to.equal('the end of the test (PetCO2 held after the crossing)');
    expect(ev.model_crossing_s).to.be.within(t0 + early - 15, t0 + early + 15);
    expect(ev.petco2_after_crossing_mmhg_min).to.equal(0);
    const note = d.notes?.find((s) => s.startsWith('VT2'));
    expect(note).to.include(`after the model's crossing at ${ev.model_crossing_s} s`).and.include('may lie later').and.not.include('not reached');
    // petco2-first keeps the early crossing on the same input; VT1 is the same under both.
    const before = petco2First.decide(curves(vt1Truth, early), flat, {});
    expect(before.vt2?.index).to.be.within(early - 15, early + 15);
    expect(d.vt1).to.deep.equal(before.vt1);
  });

  it('keeps the crossing where PetCO2 falls after it, and where too few seconds follow it to tell', () => {
    // A fall that slows towards the end: no break for the compensation fit to accept, but falling after the crossing.
    const falling = withPetco2((i) => 38 + 4 * Math.exp(-i / 600));
    expect(endCompensation(falling.test, vt1Truth + 30, end, 'clear_petco2_first').index).to.equal(null);
    const a = petco2FirstEnd.decide(curves(vt1Truth, early), falling, {});
    expect(a.vt2).to.deep.equal(petco2First.decide(curves(vt1Truth, early), falling, {}).vt2);
    expect((a.evidence as { vt2: Ev }).vt2.placed_by).to.not.equal('the end of the test (PetCO2 held after the crossing)');
    const flat = withPetco2(() => 40);
    const late = petco2FirstEnd.decide(curves(vt1Truth, end - 20), flat, {});
    expect((late.evidence as { vt2: Ev }).vt2.placed_by).to.not.equal('the end of the test (PetCO2 held after the crossing)');
  });

  it('keeps a crossing that lies before the stretch the gases were searched over: their silence says nothing about it', () => {
    const flat = withPetco2(() => 40);
    const before = end - 200;
    expect(endCompensation(flat.test, vt1Truth + 30, end, 'clear_petco2_first').span[0]).to.be.above(before);
    const d = petco2FirstEnd.decide(curves(vt1Truth, before), flat, {});
    expect(d.vt2).to.deep.equal(petco2First.decide(curves(vt1Truth, before), flat, {}).vt2);
  });
});
