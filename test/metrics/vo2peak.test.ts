import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { summaryRow } from '../../src/cli/analyze/summary-csv.js';
import { readUpload } from '../../src/formats/read-upload.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { vo2Peak } from '../../src/metrics/vo2peak.js';
import { builtInFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { loadPlugins } from '../../src/plugins.js';
import type { Recording } from '../../src/recording/recording.js';
import { generateSampleTest } from '../../src/synthetic/sample.js';

/** Every place that reports VO2peak, read off one recording (mL/min; null where that place refuses the recording). */
async function reported(rec: Recording) {
  const { analyses } = await loadPlugins();
  const reg = createMetricRegistry(analyses.flatMap((a) => a.metrics ?? []));
  const metrics = reg.compute(rec, ['vo2max', 'landmarks']);
  const vt = analyses.find((a) => a.name === 'vt')!;
  const substrate = analyses.find((a) => a.name === 'substrate')!;
  // The web surface serves every engine: the classic one reads files without end-tidal channels too.
  const vtOut = await vt.run(rec, { model: 'wasserman', key: { tier: 'research', allowed_models: null }, surface: 'web' });
  const subOut = await substrate.run(rec, { key: { tier: 'research', allowed_models: null } });
  const row = summaryRow({ file: 'x', status: 'ok', metrics, analyses: [] } as unknown as Parameters<typeof summaryRow>[0]);
  const ok = <T>(r: { status: string; value?: unknown }, pick: (v: any) => T): T | null => (r.status === 'ok' ? pick(r.value) : null);
  return {
    vo2max: ok(metrics.vo2max, (v) => v as number),
    landmarks: ok(metrics.landmarks, (v) => v.vo2peak as number),
    cli_summary: row.vo2peak_ml_min as number | null,
    vt: vtOut.status === 'ok' ? ((vtOut.findings as { vo2peak_ml_min: number }).vo2peak_ml_min ?? null) : null,
    substrate: subOut.status === 'ok' ? (subOut.findings as { vo2peak: number }).vo2peak * 1000 : null,
  };
}

/** Each place rounds for its own display: vo2max and landmarks to 0.1 mL/min, vt to 1 mL/min, substrate to 0.1 mL/min (4 decimals in L/min). */
function expectAgreement(peak: number, r: Awaited<ReturnType<typeof reported>>, where: string) {
  if (r.vo2max !== null) expect(r.vo2max, `${where}: vo2max`).to.be.closeTo(peak, 0.05);
  if (r.landmarks !== null) expect(r.landmarks, `${where}: landmarks`).to.be.closeTo(peak, 0.05);
  if (r.cli_summary !== null) expect(r.cli_summary, `${where}: cpet analyze summary`).to.be.closeTo(peak, 0.05);
  if (r.vt !== null) expect(r.vt, `${where}: vt`).to.equal(Math.round(peak));
  if (r.substrate !== null) expect(r.substrate, `${where}: substrate`).to.be.closeTo(peak, 0.051);
}

describe('one VO2peak: vo2max, landmarks, vt, substrate and the CLI summary agree', () => {
  it('on the public sample, where every analysis runs', async () => {
    const rec = generateSampleTest(false).recording;
    const peak = vo2Peak(rec)!.value;
    const r = await reported(rec);
    for (const [where, v] of Object.entries(r)) expect(v, where).to.not.equal(null);
    expectAgreement(peak, r, 'sample');
  });

  it('on every committed vendor fixture', async function () {
    this.timeout(120_000);
    const { formats } = await loadPlugins();
    let compared = 0;
    let vtCompared = 0;
    for (const c of builtInFixtureCases()) {
      let rec: Recording;
      try {
        rec = (await readUpload(`input.${c.extension}`, readFileSync(c.input), formats)).recording;
      } catch {
        // A fixture its own format refuses is that format's test's business.
        continue;
      }
      const peak = vo2Peak(rec);
      const r = await reported(rec);
      if (!peak) {
        expect(r.vo2max, `${c.format}/${c.name}`).to.equal(null);
        continue;
      }
      expectAgreement(peak.value, r, `${c.format}/${c.name}`);
      compared++;
      if (r.vt !== null) vtCompared++;
    }
    expect(compared).to.be.at.least(15);
    expect(vtCompared).to.be.at.least(3);
  });
});
