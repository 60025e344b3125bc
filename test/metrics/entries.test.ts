import { expect } from 'chai';
import { clockIntegrity } from '../../src/metrics/entries/clock-integrity.js';
import { peakWindow, peakWindowS } from '../../src/metrics/entries/peak-window.js';
import { DEFAULT_METRIC_OPTIONS } from '../../src/metrics/metric-entry.js';
import { samplingAdequacy } from '../../src/metrics/entries/sampling-adequacy.js';
import { ventilatoryClass } from '../../src/metrics/entries/ve-vco2-slope.js';
import type { MetricResult } from '../../src/metrics/metric-entry.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import type { Recording } from '../../src/recording/recording.js';
import { oscillationBand } from '../../src/signal/oscillation-band.js';
import { generateTest } from '../../src/synthetic/generate.js';

function value<T>(r: MetricResult): T {
  expect(r.status, JSON.stringify(r)).to.equal('ok');
  return (r as { value: T }).value;
}

/** A small recording with the given times and VO2, every other field neutral. */
function tiny(t_s: number[], vo2: (number | null)[], sampling: Recording['sampling']): Recording {
  return {
    t_s,
    channels: { VO2: { values: vo2, unit_in: 'mL/min' } },
    absent: {},
    sampling,
    phases: [],
    subject: {},
    embedded_thresholds: [],
    flags: [],
    clock: { raw_span_s: t_s[t_s.length - 1] - t_s[0], repaired_span_s: t_s[t_s.length - 1] - t_s[0], samples_dropped: 0, repair_applied: null, monotonic_as_read: true },
    format: 'test',
  };
}

describe('metric entries', () => {
  it('peakWindow finds the highest 30-s mean and its window', () => {
    const t = Array.from({ length: 200 }, (_, i) => i * 3);
    const v = t.map((x) => (x >= 300 && x < 330 ? 3000 : 1000));
    const rec = tiny(t, v, { method: 'breath_by_breath', raw_interval_s: 3, interval_known: true });
    const w = peakWindow(rec, v, null, 30)!;
    expect(w.value).to.equal(3000);
    expect(w.t_end_s).to.equal(327);
    expect(w.n).to.equal(10);
  });

  it('widens the window to whole averaging intervals: one sample of a 1-min export, two of 20-s averages', () => {
    const minute = tiny([0, 60, 120], [1000, 2000, 1500], { method: 'averaged', raw_interval_s: 60, interval_known: true, averaging_s: 60 });
    expect(peakWindowS(minute)).to.equal(60);
    expect(peakWindow(minute, minute.channels.VO2!.values, null, 60)!.value).to.equal(2000);
    const twenty = tiny([0, 20, 40, 60], [1000, 2000, 3000, 1000], { method: 'averaged', raw_interval_s: 20, interval_known: true, averaging_s: 20 });
    expect(peakWindowS(twenty)).to.equal(40);
    expect(peakWindow(twenty, twenty.channels.VO2!.values, null, 40)!.value).to.equal(2500);
  });

  it('gives no peak when every window is mostly empty', () => {
    const rec = tiny([0, 100, 200], [1000, 2000, 3000], { method: 'breath_by_breath', raw_interval_s: 100, interval_known: true });
    expect(peakWindow(rec, rec.channels.VO2!.values, null, 30)).to.equal(null);
  });

  it('classes VE/VCO2 slopes as Arena 2007 does', () => {
    expect([29.9, 30, 35.9, 36, 44.9, 45].map(ventilatoryClass)).to.deep.equal(['I', 'II', 'II', 'III', 'III', 'IV']);
  });

  it('reports a repaired clock with what was done and what it cost', () => {
    const rec = generateTest({ seed: 1 }).recording;
    rec.clock = { raw_span_s: 420.5, repaired_span_s: 958, samples_dropped: 3, repair_applied: 'phase clock resets joined into one axis', monotonic_as_read: false };
    const v = value<{ repaired: boolean; note: string; samples_dropped: number }>(clockIntegrity.compute(rec, DEFAULT_METRIC_OPTIONS));
    expect(v.repaired).to.equal(true);
    expect(v.samples_dropped).to.equal(3);
    expect(v.note)
      .to.match(/phase clock resets joined/)
      .and.to.match(/3 samples were dropped/)
      .and.to.match(/420.5 s as written to 958 s/);
  });

  it('says the sampling adequacy with the shared oscillation band, and refuses an unknown interval', () => {
    const rec = tiny([0, 15, 30], [1, 2, 3], { method: 'averaged', raw_interval_s: 15, interval_known: true, averaging_s: 15 });
    const v = value<Record<string, unknown>>(samplingAdequacy.compute(rec, DEFAULT_METRIC_OPTIONS));
    const band = oscillationBand(15);
    expect(v).to.include({ period_floor_s: band.period_floor_s, band_narrowed: true, gradable: true, raw_interval_s: 15 });
    const unknown = tiny([0, 15, 30], [1, 2, 3], { method: 'unknown', raw_interval_s: null, interval_known: false });
    expect(samplingAdequacy.compute(unknown, DEFAULT_METRIC_OPTIONS)).to.deep.include({ status: 'unavailable', error: 'INSUFFICIENT_SIGNAL' });
  });

  it('orders the landmarks as physiology does on ramps: V-slope, then VE/VCO2 nadir and PetCO2 peak, then RCP', () => {
    const reg = createMetricRegistry();
    for (let seed = 1; seed <= 6; seed++) {
      const { recording, truth } = generateTest({ seed, protocol: 'ramp' });
      const p = value<{ points: Record<string, { t_s: number }> }>(reg.compute(recording, ['landmarks']).landmarks).points;
      expect(p.v_slope_breakpoint.t_s, `seed ${seed}`).to.be.below(p.rcp_breakpoint.t_s);
      for (const name of ['ve_vco2_nadir', 'petco2_peak', 'rer_crossing_1.0']) {
        expect(p[name].t_s, `seed ${seed} ${name}`).to.be.within(truth.vt1!.time_s - 60, truth.vt2!.time_s + 60);
      }
      expect(p.vo2peak_30s.t_s).to.be.above(p.rcp_breakpoint.t_s);
    }
  });

  it('gives landmarks the same VO2peak as vo2max', () => {
    const reg = createMetricRegistry();
    const { recording } = generateTest({ seed: 4 });
    const r = reg.compute(recording, ['vo2max', 'landmarks']);
    expect(value<{ vo2peak: number }>(r.landmarks).vo2peak).to.equal(value<number>(r.vo2max));
  });

  it('refuses the breakpoints of an incremental test on an interval test, and keeps the rest', () => {
    const { recording } = generateTest({ seed: 2 });
    const rec: Recording = structuredClone(recording);
    rec.phases = [
      { phase: 'exercise', t_start_s: 240, t_end_s: 480, source: 'file' },
      { phase: 'recovery', t_start_s: 480, t_end_s: 600, source: 'file' },
      { phase: 'exercise', t_start_s: 600, t_end_s: 840, source: 'file' },
    ];
    const lm = value<{ points: Record<string, unknown>; not_found: Record<string, string> }>(createMetricRegistry().compute(rec, ['landmarks']).landmarks);
    expect(lm.not_found.v_slope_breakpoint).to.match(/interval test \(2 exercise bouts\)/);
    expect(lm.not_found.rcp_breakpoint).to.match(/interval test/);
    expect(lm.points).to.have.property('vo2peak_30s');
  });
});
