import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import plugin from '../../../../../analyses/vt/index.js';
import type { AnalysisOutcome } from '../../../../../src/analyses/analysis-plugin.js';
import { readUpload } from '../../../../../src/formats/read-upload.js';
import { builtInFixtureCases } from '../../../../../src/plugin-kit/fixtures.js';
import { loadPlugins } from '../../../../../src/plugins.js';
import type { Recording } from '../../../../../src/recording/recording.js';
import { generateSampleTest } from '../../../../../src/synthetic/sample.js';
import { request, withoutChannel } from '../../helpers.js';

type Ok = Extract<AnalysisOutcome, { status: 'ok' }>;
type Refused = Extract<AnalysisOutcome, { status: 'not_analysable' }>;
interface Evidence {
  channels_read: string[];
  vt1_criteria: { criterion: string }[];
  vt2_criteria: { criterion: string }[];
  criteria_not_run: { criterion: string; threshold: string; missing: string[]; why: string }[];
}

const web = (version: string) => request('research', { model: 'wasserman', model_version: version, surface: 'web' });
const sample = generateSampleTest(false).recording;

async function fixture(name: string): Promise<Recording> {
  const { formats } = await loadPlugins();
  const c = builtInFixtureCases().find((x) => x.name === name);
  if (!c) throw new Error(`no fixture ${name}`);
  return (await readUpload(`input.${c.extension}`, readFileSync(c.input), formats)).recording;
}

describe('analyses/vt/engines/wasserman: the classic engine on the channels a file has (wasserman v1.2.0, issue 19 item 2)', () => {
  it('is served by the web application only: an API request for it is refused', async () => {
    const out = await plugin.run(sample, request('research', { model: 'wasserman', model_version: 'v1.2.0' }));
    expect(out).to.deep.include({ status: 'not_analysable', error: 'MODEL_NOT_FOUND' });
  });

  it('gives v1.1.0 exactly on every fixture that has all five channels (same thresholds, same criteria)', async function () {
    this.timeout(120_000);
    const { formats } = await loadPlugins();
    let compared = 0;
    for (const c of builtInFixtureCases()) {
      const rec = (await readUpload(`input.${c.extension}`, readFileSync(c.input), formats)).recording;
      if (!['VO2', 'VCO2', 'VE', 'PetO2', 'PetCO2'].every((ch) => rec.channels[ch as keyof Recording['channels']])) continue;
      const a = await plugin.run(rec, web('v1.1.0'));
      const b = await plugin.run(rec, web('v1.2.0'));
      expect(b.status, c.name).to.equal(a.status);
      if (a.status !== 'ok' || b.status !== 'ok') continue;
      const { evidence: ea, ...fa } = a.findings as Record<string, unknown> & { evidence: Record<string, unknown> };
      const { evidence: eb, ...fb } = b.findings as Record<string, unknown> & { evidence: Evidence };
      expect(fb, c.name).to.deep.equal(fa);
      expect(eb.vt1_criteria, c.name).to.deep.equal(ea.vt1_criteria);
      expect(eb.vt2_criteria, c.name).to.deep.equal(ea.vt2_criteria);
      expect(eb.criteria_not_run, c.name).to.deep.equal([]);
      compared++;
    }
    expect(compared).to.be.at.least(4);
  });

  it('reads a real file without end-tidal channels (ZAN, spiro zan_gxt): VT1 from V-slope, excess CO2 and VE/VO2, and says the end-tidal criteria could not run', async () => {
    const rec = await fixture('spiro-zan-gxt');
    const out = (await plugin.run(rec, web('v1.2.0'))) as Ok;
    expect(out.status).to.equal('ok');
    const ev = out.findings.evidence as unknown as Evidence;
    expect(ev.channels_read).to.deep.equal(['VO2', 'VCO2', 'VE']);
    expect(ev.vt1_criteria.map((c) => c.criterion)).to.deep.equal(['V-slope (VCO2 vs VO2)', 'excess CO2 starts to rise', 'VE/VO2 starts to rise']);
    expect(ev.vt2_criteria.map((c) => c.criterion)).to.deep.equal(['VE vs VCO2 steepening (respiratory compensation)', 'VE/VCO2 starts to rise']);
    expect(ev.criteria_not_run.map((c) => [c.criterion, c.threshold, c.missing])).to.deep.equal([
      ['PetO2 nadir', 'VT1', ['PetO2']],
      ['PetCO2 starts to fall', 'VT2', ['PetCO2']],
    ]);
    expect(ev.criteria_not_run[0].why).to.match(/ZAN exports no end-tidal/);
    expect(out.findings.vt1_time_s).to.be.a('number');
    expect(out.notes.join(' ')).to.match(/could not run without PetO2, PetCO2/);
    // v1.1.0 needs all five channels and refuses the same file.
    expect(await plugin.run(rec, web('v1.1.0'))).to.deep.include({ status: 'not_analysable', error: 'MISSING_CHANNEL' });
  });

  it('needs only VO2 and VCO2: without VE or end-tidal it reads VT1 from V-slope and excess CO2 and says VT2 was not sought', async () => {
    const rec = withoutChannel(withoutChannel(withoutChannel(sample, 'VE'), 'PetO2'), 'PetCO2');
    const out = (await plugin.run(rec, web('v1.2.0'))) as Ok;
    expect(out.status).to.equal('ok');
    const ev = out.findings.evidence as unknown as Evidence;
    expect(ev.channels_read).to.deep.equal(['VO2', 'VCO2']);
    expect(ev.vt1_criteria.map((c) => c.criterion)).to.deep.equal(['V-slope (VCO2 vs VO2)', 'excess CO2 starts to rise']);
    expect(ev.vt2_criteria).to.deep.equal([]);
    expect(ev.criteria_not_run.map((c) => c.criterion)).to.deep.equal([
      'VE/VO2 starts to rise',
      'PetO2 nadir',
      'VE vs VCO2 steepening (respiratory compensation)',
      'VE/VCO2 starts to rise',
      'PetCO2 starts to fall',
    ]);
    expect(out.findings.vt2_time_s).to.equal(null);
    expect(out.notes.join(' '))
      .to.match(/VT2 was not sought/)
      .and.not.match(/test ended before the severe domain/);
  });

  it('refuses without VCO2 (MISSING_CHANNEL), since no criterion can run', async () => {
    const out = (await plugin.run(withoutChannel(sample, 'VCO2'), web('v1.2.0'))) as Refused;
    expect(out).to.deep.include({ status: 'not_analysable', error: 'MISSING_CHANNEL' });
    expect(out.context.missing).to.deep.equal(['VCO2']);
  });

  it("makes the default model's MISSING_CHANNEL say that the web application's alternative engine can read the file, and not when it cannot", async () => {
    const rec = await fixture('spiro-zan-gxt');
    const out = (await plugin.run(rec, request('research'))) as Refused;
    expect(out).to.deep.include({ status: 'not_analysable', error: 'MISSING_CHANNEL' });
    expect(out.context.missing).to.deep.equal(['PetO2', 'PetCO2']);
    const alternatives = out.context.alternatives as { model: string; model_version: string; surface: string; requires: string[] }[];
    expect(alternatives.map((a) => [a.model, a.model_version, a.surface, a.requires])).to.deep.equal([['wasserman', 'v1.2.0', 'web', ['VO2', 'VCO2']]]);
    expect(out.message).to.match(/alternative engine \(wasserman\) can read this file/);
    const older = (await plugin.run(rec, web('v1.1.0'))) as Refused;
    expect((older.context.alternatives as { model_version: string }[]).map((a) => a.model_version)).to.deep.equal(['v1.2.0']);
    const noCo2 = (await plugin.run(withoutChannel(rec, 'VCO2'), request('research'))) as Refused;
    expect(noCo2.context.alternatives).to.equal(undefined);
  });
});
