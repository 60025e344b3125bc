import { expect } from 'chai';
import { runAnalyses } from '../../src/analyses/run.js';
import { ServiceError } from '../../src/errors.js';
import { CANONICAL_RECOVERY } from '../../src/formats/recovery.js';
import { createSchemaChecker } from '../../src/openapi/schema-check.js';
import { loadApiDocument } from '../../src/openapi/document.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { loadPlugins, type Plugins } from '../../src/plugins.js';
import { generateSample, generateSampleTest } from '../../src/synthetic/sample.js';
import { listFixtures, readFixture } from '../formats/fixture-helpers.js';

describe('domain outputs against the published schemas', () => {
  const doc = loadApiDocument();
  const check = createSchemaChecker(doc);
  let plugins: Plugins;

  before(async () => {
    plugins = await loadPlugins();
  });

  it('rejects a value that breaks a schema, so a pass means something', () => {
    expect(check.schema('FormatInfo', { id: 'not-a-format', label: 1 })).to.not.be.empty;
    expect(check.response('deleteCpet', 200, { cpet_id: 'x', deleted: false })).to.not.be.empty;
    expect(check.response('deleteCpet', 200, { cpet_id: 'x', deleted: true })).to.deep.equal([]);
  });

  it('every installed format plugin describes itself as a FormatInfo with a FormatId', () => {
    expect(plugins.formats.length).to.be.greaterThan(0);
    for (const plugin of plugins.formats) expect(check.schema('FormatInfo', plugin.meta), plugin.meta.id).to.deep.equal([]);
  });

  it('the canonical recovery shape is what UNSUPPORTED_FORMAT and if_unsupported document', () => {
    expect(check.schema('CanonicalRecovery', CANONICAL_RECOVERY)).to.deep.equal([]);
  });

  it('an error built by ServiceError has the Error shape of its response', () => {
    const body = new ServiceError('CPET_NOT_FOUND', 'No recording x for this key.', { cpet_id: 'x' }).toBody();
    expect(check.response('getCpet', 404, body)).to.deep.equal([]);
  });

  it('both samples are what GET /v1/sample documents', () => {
    for (const oscillating of [false, true]) expect(check.response('getSample', 200, generateSample(oscillating)), String(oscillating)).to.deep.equal([]);
  });

  it('the envelopes of every installed analysis on both samples are what analyze documents', async () => {
    const names = plugins.analyses.map((p) => p.name);
    for (const oscillating of [false, true]) {
      const { recording } = generateSampleTest(oscillating);
      const results = await runAnalyses(recording, names, plugins.analyses, { key: { tier: 'research', allowed_models: null } });
      expect(check.response('analyzeCpet', 200, { cpet_id: 'cpet_sample', results }), JSON.stringify(results.map((r) => [r.analysis, r.status, r.error]))).to.deep.equal([]);
    }
  });

  it('every metric on both samples and on every format fixture has the value shape compute documents for it', async () => {
    const registry = createMetricRegistry(plugins.analyses.flatMap((a) => a.metrics ?? []));
    const names = registry.list().map((m) => m.name);
    const documented = Object.keys(doc.components?.schemas?.ComputeResponse.properties?.metrics.properties ?? {});
    expect(documented, 'each registry metric has its own result schema in ComputeResponse.metrics').to.have.members(names);
    const recordings = [false, true].map((oscillating) => ({ where: `sample oscillating=${oscillating}`, recording: generateSampleTest(oscillating).recording }));
    for (const fixture of listFixtures()) recordings.push({ where: `${fixture.format}/${fixture.name}`, recording: (await readFixture(fixture)).recording });
    for (const { where, recording } of recordings) {
      const metrics = registry.compute(recording, names);
      expect(check.response('computeMetrics', 200, { cpet_id: 'x', metrics }), where).to.deep.equal([]);
    }
  });

  it('refuses a metric value of the wrong shape, so the per-metric schemas mean something', () => {
    const wrong = { cpet_id: 'x', metrics: { vo2max: { status: 'ok', value: '3100 mL/min', detail: { window_s: 30, t_start_s: 0, t_end_s: 30, n_samples: 15, phase: null } } } };
    expect(check.response('computeMetrics', 200, wrong)).to.not.be.empty;
    const vtWithEovFindings = {
      cpet_id: 'x',
      results: [
        {
          analysis: 'vt',
          status: 'ok',
          findings: { grade: 'none' },
          quality: 'good',
          notes: [],
          provenance: { analysis_version: '2026.08', schema_version: '1.0', computed_at: '2026-01-01T00:00:00Z', model: 'gandalf', latency_ms: 1 },
        },
      ],
    };
    expect(check.response('analyzeCpet', 200, vtWithEovFindings), 'an envelope is checked against its own analysis').to.not.be.empty;
  });
});
