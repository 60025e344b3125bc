import { expect } from 'chai';
import type { MetricEntry } from '../../src/metrics/metric-entry.js';
import { createMetricRegistry, MetricRegistryError, SPEC_METRIC_ORDER } from '../../src/metrics/registry.js';
import { generateTest } from '../../src/synthetic/generate.js';

function entry(name: string, over: Partial<MetricEntry> = {}): MetricEntry {
  return { name, returns: 'a number', unit: null, requires: [], min_duration_s: 0, notes: 'test entry', compute: () => ({ status: 'ok', value: 1 }), ...over };
}

describe('metric registry', () => {
  const { recording } = generateTest({ seed: 1 });

  it('lists every spec metric in the order of spec section 2.3, with an added substrate_summary in its place', () => {
    const reg = createMetricRegistry([entry('zeta_extra'), entry('substrate_summary')]);
    // stage_summary is a built-in extension beyond spec section 2.3: after the spec's metrics, before plugins' extras.
    expect(reg.list().map((e) => e.name)).to.deep.equal([...SPEC_METRIC_ORDER, 'stage_summary', 'zeta_extra']);
    expect(
      createMetricRegistry()
        .list()
        .map((e) => e.name),
    ).to.deep.equal([...SPEC_METRIC_ORDER.filter((n) => n !== 'substrate_summary'), 'stage_summary']);
  });

  it('describes each entry with exactly the fields GET /v1/metrics shows', () => {
    for (const d of createMetricRegistry().describe()) {
      expect(Object.keys(d)).to.deep.equal(['name', 'returns', 'unit', 'requires', 'min_duration_s', 'notes']);
      expect(d.returns.length, d.name).to.be.greaterThan(20);
      expect(d.notes.length, d.name).to.be.greaterThan(20);
      expect(d.min_duration_s).to.be.at.least(0);
    }
  });

  it('refuses a duplicate name and a malformed entry at construction', () => {
    expect(() => createMetricRegistry([entry('vo2max')])).to.throw(MetricRegistryError, /vo2max is defined twice/);
    expect(() => createMetricRegistry([entry('Bad Name')])).to.throw(MetricRegistryError, /snake_case/);
  });

  it('answers has and get, and throws on an unknown name instead of inventing a result', () => {
    const reg = createMetricRegistry();
    expect(reg.has('vo2max')).to.equal(true);
    expect(reg.has('vo2peak')).to.equal(false);
    expect(reg.get('vemax')!.unit).to.equal('L/min');
    expect(() => reg.compute(recording, ['vo2peak'])).to.throw(MetricRegistryError, /unknown metric vo2peak/);
  });

  it('gives MISSING_CHANNEL with the required and missing lists before running an entry', () => {
    let ran = false;
    const reg = createMetricRegistry([
      entry('needs_spo2', {
        requires: ['VO2', 'SpO2'],
        compute: () => {
          ran = true;
          return { status: 'ok', value: 1 };
        },
      }),
    ]);
    const r = reg.compute(recording, ['needs_spo2']).needs_spo2;
    expect(r).to.deep.include({ status: 'unavailable', error: 'MISSING_CHANNEL' });
    expect((r as { context: unknown }).context).to.deep.equal({ required: ['VO2', 'SpO2'], missing: ['SpO2'] });
    expect(ran).to.equal(false);
  });

  it('gives INSUFFICIENT_DURATION with required_s and actual_s', () => {
    const reg = createMetricRegistry([entry('long_one', { min_duration_s: 5000 })]);
    const r = reg.compute(recording, ['long_one']).long_one;
    expect(r).to.deep.include({ status: 'unavailable', error: 'INSUFFICIENT_DURATION' });
    if (r.status !== 'unavailable') return;
    expect(r.context.required_s).to.equal(5000);
    expect(r.context.actual_s).to.be.within(900, 1000);
  });

  it('turns an exception inside an entry into INSUFFICIENT_SIGNAL carrying its message', () => {
    const reg = createMetricRegistry([
      entry('throws', {
        compute: () => {
          throw new Error('division by nothing');
        },
      }),
    ]);
    const r = reg.compute(recording, ['throws', 'vo2max']);
    expect(r.throws).to.deep.include({ status: 'unavailable', error: 'INSUFFICIENT_SIGNAL' });
    expect((r.throws as { message: string }).message).to.match(/division by nothing/);
    expect(r.vo2max.status).to.equal('ok');
  });
});
