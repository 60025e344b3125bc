/**
 * The metrics README's table of VO2peak per averaging on real vendor files is what the service
 * computes: each cell is recomputed here, so the documented figures cannot drift from the code.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readUpload } from '../../src/formats/read-upload.js';
import { createMetricRegistry } from '../../src/metrics/registry.js';
import { builtInFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import { parseAveraging } from '../../src/signal/averaging/index.js';

/** The README's column headings, as averaging specifications (JSON in the heading's code span). */
function table(): { columns: string[]; rows: { file: string; cells: string[] }[] } {
  const text = readFileSync(join(PROJECT_ROOT, 'src', 'metrics', 'README.md'), 'utf8');
  const start = text.indexOf('<!-- vo2peak-by-averaging -->');
  expect(start, 'the README holds the table').to.be.greaterThan(0);
  const lines = text
    .slice(start)
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('|'));
  const cells = (l: string) =>
    l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
  const header = cells(lines[0]);
  return {
    columns: header.slice(1).map((h) => /`(\{.*\})`/.exec(h)![1]),
    rows: lines.slice(2).map((l) => ({ file: /`([^`]+)`/.exec(cells(l)[0])![1], cells: cells(l).slice(1) })),
  };
}

describe('metrics README: VO2peak under each averaging on real files', () => {
  it('every documented figure is what compute returns', async function () {
    this.timeout(120_000);
    const { formats } = await loadPlugins();
    const reg = createMetricRegistry();
    const t = table();
    expect(t.rows.length).to.be.at.least(4);
    for (const row of t.rows) {
      const c = builtInFixtureCases().find((f) => `${f.format}/${f.name}` === row.file);
      expect(c, row.file).to.not.equal(undefined);
      const rec = (await readUpload(`input.${c!.extension}`, readFileSync(c!.input), formats)).recording;
      t.columns.forEach((json, k) => {
        const parsed = parseAveraging(JSON.parse(json));
        expect(parsed.ok, json).to.equal(true);
        const r = reg.compute(rec, ['vo2max'], { averaging: parsed.ok ? parsed.spec : undefined }).vo2max;
        const shown = r.status === 'ok' ? String(Math.round(r.value as number)) : '–';
        expect(row.cells[k], `${row.file} under ${json}`).to.equal(shown);
      });
    }
  });
});
