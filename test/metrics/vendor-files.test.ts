import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../../src/formats/read-upload.js';
import type { MetricResult } from '../../src/metrics/metric-entry.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { BUILTIN_METRICS } from '../../src/metrics/entries/index.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';

/** Every committed vendor fixture: formats/<id>/fixtures/<case>/input.<ext>. */
function fixtures(): { name: string; path: string; file: string }[] {
  const out: { name: string; path: string; file: string }[] = [];
  const root = join(PROJECT_ROOT, 'formats');
  for (const id of readdirSync(root)) {
    const dir = join(root, id, 'fixtures');
    if (!existsSync(dir)) continue;
    for (const c of readdirSync(dir)) {
      if (!statSync(join(dir, c)).isDirectory()) continue;
      const input = readdirSync(join(dir, c)).find((f) => f.startsWith('input.'));
      if (input) out.push({ name: `${id}/${c}`, path: join(dir, c, input), file: input });
    }
  }
  return out;
}

type Check = (v: any) => void;

/** What a physiologically plausible value of each metric looks like. */
const PLAUSIBLE: Record<string, Check> = {
  vo2max: (v) => expect(v).to.be.within(150, 7500),
  vemax: (v) => expect(v).to.be.within(5, 250),
  rermax: (v) => expect(v).to.be.within(0.6, 1.8),
  o2_pulse: (v) => expect(v).to.be.within(3, 40),
  ve_vco2_slope: (v) => {
    expect(v).to.be.an('array').that.is.not.empty;
    for (const s of v) {
      expect(s.slope).to.be.within(15, 70);
      expect(s.ci_low).to.be.at.most(s.slope);
      expect(s.ci_high).to.be.at.least(s.slope);
      expect(s.n).to.be.at.least(8);
    }
  },
  phases: (v) => {
    expect(v.exercise.t_end_s).to.be.greaterThan(v.exercise.t_start_s);
    expect(v.expected_error_s).to.be.within(1, 120);
    if (v.recovery) expect(v.recovery.t_start_s).to.be.at.least(v.exercise.t_end_s);
  },
  landmarks: (v) => {
    expect(v.vo2peak).to.be.within(150, 7500);
    for (const p of Object.values<any>(v.points)) {
      expect(p.pct_vo2peak).to.be.within(0, 100.0001);
      expect(p.t_s).to.be.a('number');
    }
    for (const why of Object.values<string>(v.not_found)) expect(why.length).to.be.greaterThan(10);
  },
  substrate_summary: (v) => expect(v).to.be.an('object'),
  gas_quality: (v) => {
    expect(v.n_passed).to.be.at.most(v.n_checks);
    expect(v.n_checks).to.be.within(1, 4);
    expect(['good', 'fair', 'poor']).to.include(v.verdict);
  },
  sampling_adequacy: (v) => {
    expect(v.period_floor_s).to.be.greaterThan(0);
    expect(v.gradable).to.equal(v.period_floor_s < 140);
  },
  clock_integrity: (v) => {
    expect(v.repaired_span_s).to.be.at.least(0);
    expect(v.samples_dropped).to.be.at.least(0);
  },
};

describe('metrics on every real vendor file', () => {
  const cases = fixtures();

  it('finds the committed vendor fixtures', () => {
    expect(cases.length).to.be.at.least(1);
  });

  it('answers every metric with a plausible value or a reason a user understands', async () => {
    const { formats, analyses } = await loadPlugins();
    const reg = createMetricRegistry(analyses.flatMap((a) => a.metrics ?? []));
    const names = reg.list().map((e) => e.name);
    let okCount = 0;
    for (const c of cases) {
      let results: Record<string, MetricResult>;
      try {
        const { recording } = await readUpload(c.file, readFileSync(c.path), formats);
        results = reg.compute(recording, names);
      } catch {
        // A fixture its own format refuses is that format's test's business, not this one's.
        continue;
      }
      for (const name of names) {
        const r = results[name];
        if (r.status === 'ok') {
          okCount++;
          const check = PLAUSIBLE[name];
          if (!check) continue;
          try {
            check(r.value);
          } catch (e) {
            throw new Error(`${c.name} ${name}: ${(e as Error).message} in ${JSON.stringify(r.value).slice(0, 300)}`);
          }
        } else {
          expect(['MISSING_CHANNEL', 'INSUFFICIENT_DURATION', 'INSUFFICIENT_SIGNAL'], `${c.name} ${name}`).to.include(r.error);
          if (BUILTIN_METRICS.some((e) => e.name === name)) expect(r.message, `${c.name} ${name}`).to.match(new RegExp(`^${name}[ :]`));
          expect(r.message.length, `${c.name} ${name}`).to.be.greaterThan(30);
          if (r.error === 'MISSING_CHANNEL') expect(r.context).to.have.keys('required', 'missing');
          if (r.error === 'INSUFFICIENT_DURATION') expect(r.context).to.have.keys('required_s', 'actual_s');
        }
      }
    }
    expect(okCount).to.be.greaterThan(cases.length);
  });
});
