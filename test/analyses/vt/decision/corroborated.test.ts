import { expect } from 'chai';
import type { DomainCurves } from '../../../../analyses/vt/decision/curves.js';
import { corroborated } from '../../../../analyses/vt/decision/corroborated.js';
import { checked, input, n, sample, t0 } from './sample-input.js';

/**
 * Curves that leave moderate at `vt1` and reach severe at `vt2` (grid indices) over `ramp` seconds
 * each, undefined (NaN) from `until` on.
 */
function curves(vt1: number, vt2: number | null, ramp: number, until = checked.test.end_index + 1): DomainCurves {
  const c: DomainCurves = { moderate: new Float64Array(n).fill(NaN), heavy: new Float64Array(n).fill(NaN), severe: new Float64Array(n).fill(NaN) };
  const step = (i: number, at: number) => Math.min(1, Math.max(0, 0.5 + (i - at) / ramp));
  for (let i = 0; i < until; i++) {
    const beyond = step(i, vt1);
    const q = vt2 === null ? 0 : step(i, vt2);
    c.moderate[i] = 1 - beyond;
    c.heavy[i] = beyond * (1 - q);
    c.severe[i] = beyond * q;
  }
  return c;
}

const idx = (s: number) => Math.round(s - t0);
const vt1Truth = idx(sample.truth.vt1!.time_s);
const vt2Truth = idx(sample.truth.vt2!.time_s);

describe('the corroborated decision rule', () => {
  it('places sharp crossings where the curves cross, landmarks joining only inside the undecided zone', () => {
    const d = corroborated.decide(curves(vt1Truth, vt2Truth, 4), input, {});
    const ev = d.evidence as Record<string, { placed_by: string; model_crossing_s: number; zone_s: [number, number]; landmarks: { in_zone: boolean; time_s: number; read_at_s: number }[] }>;
    expect(ev.vt1.model_crossing_s).to.be.closeTo(t0 + vt1Truth, 2);
    // A VT1 landmark counts where an expert would read it, a minute after its breakpoint; VT2's where it is.
    for (const l of ev.vt1.landmarks) {
      expect(l.read_at_s - l.time_s).to.equal(60);
      if (l.in_zone) expect(l.read_at_s).to.be.within(ev.vt1.zone_s[0], ev.vt1.zone_s[1]);
    }
    for (const l of ev.vt2.landmarks) expect(l.read_at_s).to.equal(l.time_s);
    // A sharp crossing is decided within the engine's own resolution: the zone is the 20-s minimum each side.
    expect(ev.vt1.zone_s[1] - ev.vt1.zone_s[0]).to.equal(40);
    expect(Math.abs(d.vt1!.index - vt1Truth)).to.be.at.most(20);
    expect(Math.abs(d.vt2!.index - vt2Truth)).to.be.at.most(20);
  });

  it('never lets a landmark pull a threshold further than the zone: curves far from every landmark keep their crossing', () => {
    const early = vt1Truth - 150;
    const d = corroborated.decide(curves(early, vt2Truth, 4), input, {});
    const ev = d.evidence as Record<string, { placed_by: string }>;
    expect(ev.vt1.placed_by).to.equal('model');
    expect(d.vt1!.index).to.be.closeTo(early, 2);
    expect(d.notes?.filter((n) => n.startsWith('VT1 '))).to.deep.equal([
      "VT1 rests on the model's curves alone: no accepted classic landmark fell where the curves are undecided, so nothing corroborated it (evidence.vt1).",
    ]);
  });

  it('widens the zone where the curves are undecided, so landmarks there join the crossing', () => {
    const d = corroborated.decide(curves(vt1Truth + 30, vt2Truth, 200), input, {});
    const ev = d.evidence as Record<string, { placed_by: string; zone_s: [number, number] }>;
    expect(ev.vt1.zone_s[1] - ev.vt1.zone_s[0]).to.be.above(60);
    expect(ev.vt1.placed_by).to.equal('model and landmarks');
    expect(
      d.notes?.some((n) => n.startsWith('VT1 ')),
      'a corroborated VT1 needs no note',
    ).to.equal(false);
  });

  it('leaves VT2 to the respiratory compensation landmarks when the curves end still rising towards severe', () => {
    // The curves stop 20 s after the severe curve starts to rise: no sustained crossing.
    const until = vt2Truth + 20;
    const d = corroborated.decide(curves(vt1Truth, vt2Truth + 10, 40, until), input, {});
    const ev = d.evidence as Record<string, { placed_by: string }>;
    expect(ev.vt2.placed_by).to.equal('landmarks (the curves end undecided)');
    expect(Math.abs(d.vt2!.index - vt2Truth)).to.be.at.most(30);
    expect(d.notes?.filter((n) => n.startsWith('VT2 '))).to.deep.equal([
      "VT2 was placed by the respiratory compensation landmarks over the end of the test: the test ended before the model's curves decided (evidence.vt2).",
    ]);
  });

  it('reports no VT2 when the curves never leave heavy, and nothing when they never leave moderate', () => {
    const heavyOnly = corroborated.decide(curves(vt1Truth, null, 4), input, {});
    expect(heavyOnly.vt1).to.not.equal(null);
    expect(heavyOnly.vt2).to.equal(null);
    expect((heavyOnly.evidence as Record<string, { placed_by: string }>).vt2.placed_by).to.equal('not reached');
    const flat = curves(n + 100, null, 4);
    const none = corroborated.decide(flat, input, {});
    expect(none.vt1).to.equal(null);
    expect(none.vt2).to.equal(null);
  });

  it('ignores a flicker of the curves shorter than a sustained domain', () => {
    const c = curves(vt1Truth, vt2Truth, 4);
    for (let i = vt1Truth - 200; i < vt1Truth - 190; i++) {
      c.moderate[i] = 0;
      c.heavy[i] = 1;
      c.severe[i] = 0;
    }
    const d = corroborated.decide(c, input, {});
    expect(Math.abs(d.vt1!.index - vt1Truth)).to.be.at.most(20);
  });
});
