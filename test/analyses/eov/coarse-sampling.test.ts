import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import plugin from '../../../analyses/eov/index.js';
import parvo from '../../../formats/parvo-trueone/index.js';
import vyntus from '../../../formats/vyntus-sentrysuite-txt/index.js';
import { FileView } from '../../../src/formats/file-view.js';
import { generateTest } from '../../../src/synthetic/generate.js';
import { sampleOptions } from '../../../src/synthetic/sample.js';
import { binAverage, makeRecording } from './recordings.js';

const here = dirname(fileURLToPath(import.meta.url));
const request = { key: { tier: 'free' as const, allowed_models: null } };

/** The real pyoxynet test (1 Hz) as columns. */
function pyoxynet(): { t_s: number[]; channels: Record<string, number[]> } {
  const lines = readFileSync(join(here, 'fixtures/pyoxynet-data-test/data_test.csv'), 'utf8').trim().split(/\r?\n/);
  const header = lines[0].split(',');
  const col = (name: string): number => header.indexOf(name);
  const rows = lines.slice(1).map((l) => l.split(',').map(Number));
  return {
    t_s: rows.map((r) => r[col('time')]),
    channels: { VE: rows.map((r) => r[col('VE_I')]), PetCO2: rows.map((r) => r[col('PetCO2_I')]), RF: rows.map((r) => r[col('RF_I')]) },
  };
}

describe('EOV on coarsely averaged recordings', () => {
  it('refuses a real test averaged into 1-min bins, saying the sampling is too coarse', async () => {
    const binned = binAverage(pyoxynet().t_s, pyoxynet().channels, 60);
    const rec = makeRecording(binned.t_s, binned.channels, 60, 60);
    const out = await plugin.run(rec, request);
    expect(out.status).to.equal('not_analysable');
    if (out.status !== 'not_analysable') return;
    expect(out.error).to.equal('NO_USABLE_DATA');
    expect(out.message).to.match(/resolve only periods of 240 s/);
    expect(out.context).to.include({ sampling_interval_s: 60, period_floor_s: 240 });
  });

  it('narrows the band for the same real test averaged into 15-s bins, and says why', async () => {
    const binned = binAverage(pyoxynet().t_s, pyoxynet().channels, 15);
    const out = await plugin.run(makeRecording(binned.t_s, binned.channels, 15, 15), request);
    expect(out.status).to.equal('ok');
    if (out.status !== 'ok') return;
    expect(out.findings.band_narrowed).to.equal(true);
    expect(out.findings.period_floor_s).to.equal(60);
    expect(out.notes.join(' ')).to.match(/Band narrowed: samples every 15 s/);
  });

  it('narrows the band on a real Parvo TrueOne export in 30-s bins, and says why', async () => {
    const file = new FileView('parvo_excel.xlsx', readFileSync(join(here, 'fixtures/parvo-excel-30s/parvo_excel.xlsx')));
    const out = await plugin.run(await parvo.parse(file), request);
    expect(out.status).to.equal('ok');
    if (out.status !== 'ok') return;
    expect(out.findings.band_narrowed).to.equal(true);
    expect(out.findings.period_floor_s).to.equal(120);
    expect(out.notes.join(' ')).to.match(/Band narrowed: samples every 30 s/);
  });

  it('refuses a synthetic recording exported as 60-s averages', async () => {
    const test = generateTest({ ...sampleOptions(true), sampling: { kind: 'averaged', window_s: 60 } });
    const out = await plugin.run(test.recording, request);
    expect(out.status === 'not_analysable' && out.error).to.equal('NO_USABLE_DATA');
  });

  const vyntusDir = join(here, '../../../formats/vyntus-sentrysuite-txt/fixtures');
  for (const name of existsSync(vyntusDir) ? readdirSync(vyntusDir).filter((d) => existsSync(join(vyntusDir, d, 'input.txt'))) : []) {
    it(`refuses or narrows the band on the Vyntus minute-average fixture ${name}, with a reason`, async () => {
      const rec = vyntus.parse(new FileView('input.txt', readFileSync(join(vyntusDir, name, 'input.txt'))));
      const out = await plugin.run(await rec, request);
      if (out.status === 'ok') {
        expect(out.findings.band_narrowed).to.equal(true);
        expect(out.notes.join(' ')).to.match(/Band narrowed/);
      } else {
        expect(['MISSING_CHANNEL', 'NO_USABLE_DATA', 'INSUFFICIENT_DURATION']).to.include(out.error);
        expect(out.message.length).to.be.greaterThan(20);
      }
    });
  }
});
