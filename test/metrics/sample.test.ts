import { expect } from 'chai';
import { readUpload } from '../../src/formats/read-upload.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { loadPlugins } from '../../src/plugins.js';
import { generateSample } from '../../src/synthetic/sample.js';

describe('metrics on the public sample, uploaded as a user would', () => {
  it('answers every metric ok, with the peak and the thresholds the sample promises', async () => {
    const { formats, analyses } = await loadPlugins();
    const reg = createMetricRegistry(analyses.flatMap((a) => a.metrics ?? []));
    const sample = generateSample(false);
    const { recording } = await readUpload(sample.filename, Buffer.from(sample.content), formats);
    const r = reg.compute(
      recording,
      reg.list().map((e) => e.name),
    );
    // The sample is a ramp: stage_summary has no stages to summarise and says so.
    for (const [name, result] of Object.entries(r)) expect(result.status, `${name}: ${JSON.stringify(result)}`).to.equal(name === 'stage_summary' ? 'unavailable' : 'ok');
    const vo2max = (r.vo2max as { value: number }).value;
    expect(vo2max / sample.expected.vo2peak_ml_min - 1).to.be.within(-0.03, 0.07);
    const points = (r.landmarks as { value: { points: Record<string, { t_s: number }> } }).value.points;
    expect(Math.abs(points.v_slope_breakpoint.t_s - sample.expected.vt1!.time_s)).to.be.at.most(75);
    expect(Math.abs(points.rcp_breakpoint.t_s - sample.expected.vt2!.time_s)).to.be.at.most(75);
    const sampling = (r.sampling_adequacy as { value: { gradable: boolean; raw_interval_s: number } }).value;
    expect(sampling).to.include({ gradable: true, raw_interval_s: sample.expected.interval_s });
  });
});
