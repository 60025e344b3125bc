/**
 * Per-fixture cases shared by the table-shaped formats' tests (COSMED, Cortex, Parvo): each
 * fixture is detected as its own format with the runner-up well below, and parses to the rounded
 * summary its expected.json holds (written when missing or with UPDATE=1).
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseFormat } from '../../src/formats/detect.js';
import { FileView } from '../../src/formats/file-view.js';
import type { FormatPlugin } from '../../src/formats/format-plugin.js';
import { loadPlugins, PROJECT_ROOT } from '../../src/plugins.js';
import { coverage, presentChannels, type Recording } from '../../src/recording/recording.js';
import { readWorkbook, xlsOf } from './variants/grids.js';

/** The fixtures folder of a format. */
export function fixturesOf(format: string): string {
  return join(PROJECT_ROOT, 'formats', format, 'fixtures');
}

/** A fixture case's input file name and bytes. */
export function fixtureInput(format: string, name: string): { filename: string; bytes: Buffer } {
  const dir = join(fixturesOf(format), name);
  const filename = readdirSync(dir).find((f) => f.startsWith('input.')) as string;
  return { filename, bytes: readFileSync(join(dir, filename)) };
}

function r4(v: number | null | undefined): number | null {
  return v === null || v === undefined ? null : Math.round(v * 1e4) / 1e4;
}

/** What expected.json holds: the Recording's summary in canonical units, rounded for review. */
export function summarise(rec: Recording): unknown {
  const row = (i: number) => ({ t_s: r4(rec.t_s[i]), ...Object.fromEntries(presentChannels(rec).map((n) => [n, r4(rec.channels[n]?.values[i])])) });
  return {
    format: rec.format,
    n_samples: rec.t_s.length,
    first: row(0),
    last: row(rec.t_s.length - 1),
    channels: Object.fromEntries(presentChannels(rec).map((n) => [n, { unit_in: rec.channels[n]?.unit_in, coverage: r4(coverage(rec, n)) }])),
    absent: rec.absent,
    sampling: rec.sampling,
    phases: rec.phases,
    subject: rec.subject,
    embedded_thresholds: rec.embedded_thresholds,
    flags: rec.flags,
    clock: rec.clock,
  };
}

/**
 * Registers, for every fixture of `plugin`, the detection case (its own score at least `minScore`,
 * the runner-up below 0.3) and the snapshot case.
 */
export function itDetectsAndSnapshotsEveryFixture(plugin: FormatPlugin, minScore = 0.8): void {
  const format = plugin.meta.id;
  const root = fixturesOf(format);
  let plugins: readonly FormatPlugin[];
  before(async () => {
    plugins = (await loadPlugins()).formats;
  });
  for (const name of readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)) {
    it(`detects ${name} as ${format} with every other format well below`, () => {
      const { filename, bytes } = fixtureInput(format, name);
      const { plugin: chosen, candidates } = chooseFormat(new FileView(filename, bytes), plugins);
      expect(chosen.meta.id).to.equal(format);
      expect(candidates[0].score).to.be.at.least(minScore);
      expect(candidates[1].score).to.be.below(0.3);
    });

    it(`reads ${name} as its expected.json snapshot says (UPDATE=1 rewrites it)`, async () => {
      const { filename, bytes } = fixtureInput(format, name);
      const actual = JSON.parse(JSON.stringify(summarise(await plugin.parse(new FileView(filename, bytes)))));
      const path = join(root, name, 'expected.json');
      if (!existsSync(path) || 'UPDATE' in process.env) writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
      expect(actual).to.deep.equal(JSON.parse(readFileSync(path, 'utf8')));
    });
  }
}

/** The workbook re-saved as a BIFF8 .xls (OLE container), as an older cart export would be. */
export function resavedAsXls(xlsxBytes: Buffer): Buffer {
  return xlsOf(readWorkbook(xlsxBytes));
}
