/**
 * The `cpet` command as a user runs it (the package's bin, in a child process), on copies of the
 * real vendor fixtures: in process, against a live service on the loopback interface, with a
 * format plugin from the working directory, and its usage mistakes.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import type { FileOutcome } from '../../src/cli/analyze/outcome.js';
import { SUMMARY_COLUMNS } from '../../src/cli/analyze/summary-csv.js';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { generateSample } from '../../src/synthetic/sample.js';
import { installWalkthroughPackage, walkthroughFiles } from '../plugin-kit/walkthrough.js';
import { startHarness, type Harness } from '../server/harness.js';

const CPET = join(PROJECT_ROOT, 'src', 'cli', 'cpet.mjs');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cpet(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = { ...process.env };
  delete base.REDIS_URL;
  delete base.FORMAT_PLUGINS;
  return new Promise((resolve) => {
    execFile(process.execPath, [CPET, ...args], { cwd, env: { ...base, ...env }, timeout: 170_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/**
 * The lab's folder: real exports under names a lab would give them (a ZAN export as the cart names
 * it, without an extension), a README, a table that is no export and a PDF report.
 */
const EXPORTS: Record<string, string> = {
  'cosmed/athlete-01.xlsx': 'formats/cosmed-xlsx/fixtures/pft-suite-en-breath-by-breath/input.xlsx',
  'vyntus/patient-07.txt': 'formats/vyntus-sentrysuite-txt/fixtures/spiro-vyntus/input.txt',
  'zan/ramp.dat': 'formats/zan-dat/fixtures/spiro-zan-gxt/input.dat',
  'zan/EXED0042': 'formats/zan-dat/fixtures/spiro-zan-gxt/input.dat',
};
/** The files no format reads: each must be tried and listed with the failures, never skipped. */
const NOT_EXPORTS = ['README.md', 'notes.csv', 'report.pdf'];
/** A minimal PDF: what a lab keeps beside its exports (the cart's printed report). */
const PDF = '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n';

function csvRows(path: string): string[][] {
  // The cells the tests read hold no comma or quote, so a split suffices here.
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
}

function readOutcome(path: string): FileOutcome {
  return JSON.parse(readFileSync(path, 'utf8')) as FileOutcome;
}

/** An envelope without what differs between two runs (when and how fast it ran). */
function stable(outcome: FileOutcome): unknown {
  return {
    analyses: outcome.analyses.map((e) => ({ ...e, provenance: { ...e.provenance, computed_at: undefined, latency_ms: undefined } })),
    metrics: outcome.metrics,
    format: outcome.summary?.source.format,
  };
}

describe('cpet (command line)', function () {
  this.timeout(180_000);
  let lab = '';
  let local: Promise<Run> | null = null;
  /** The in-process run of the lab's folder, once (the remote run is compared with it). */
  const localRun = (): Promise<Run> => (local ??= cpet(lab, ['analyze', 'exports', '--out', 'results-local', '--jobs', '2']));

  before(() => {
    lab = mkdtempSync(join(tmpdir(), 'cpet-cli-'));
    const data = join(lab, 'exports');
    for (const [name, source] of Object.entries(EXPORTS)) {
      mkdirSync(join(data, name, '..'), { recursive: true });
      copyFileSync(join(PROJECT_ROOT, source), join(data, name));
    }
    const sample = generateSample(false);
    writeFileSync(join(data, sample.filename), sample.content);
    writeFileSync(join(data, 'README.md'), 'Exports of the spring study.\n');
    writeFileSync(join(data, 'notes.csv'), 'subject,visit\nA,1\n');
    writeFileSync(join(data, 'report.pdf'), PDF);
  });

  after(() => rmSync(lab, { recursive: true, force: true }));

  describe('usage', () => {
    it('answers --help for itself and every command, exit code 0', async () => {
      const runs = await Promise.all([[], ['analyze'], ['formats'], ['sample'], ['keys'], ['mcp']].map((cmd) => cpet(lab, [...cmd, '--help'])));
      for (const run of runs) expect(run.code, run.stderr).to.equal(0);
      expect(runs[0].stdout)
        .to.match(/analyze <files or folders\.\.\.>/)
        .and.match(/mcp/);
      expect(runs[1].stdout)
        .to.match(/--url <url>/)
        .and.match(/--jobs <n>/)
        .and.match(/summary\.csv/);
      expect(runs[4].stdout).to.match(/cpet keys create --name <name> --tier/);
    });

    it('refuses a usage mistake with exit code 2 and a pointer to --help', async () => {
      const cases: [string[], RegExp][] = [
        [['frobnicate'], /unknown command "frobnicate"/],
        [['analyze'], /needs at least one file or folder/],
        [['analyze', 'exports', '--jobs', 'many'], /--jobs must be a whole number/],
        [['analyze', 'exports', '--colour', 'red'], /Unknown option '--colour'/],
        [['analyze', 'exports', '--url', 'http://127.0.0.1:9'], /--url needs an API key/],
        [['analyze', 'no-such-folder'], /no-such-folder: no such file or folder/],
      ];
      const runs = await Promise.all(cases.map(([args]) => cpet(lab, args, { CPET_API_KEY: '' })));
      for (const [i, [args, message]] of cases.entries()) {
        expect(runs[i].code, args.join(' ')).to.equal(2);
        expect(runs[i].stderr, args.join(' '))
          .to.match(message)
          .and.match(/--help/);
      }
    });
  });

  describe('analyze, in process', () => {
    let run: Run;
    const out = () => join(lab, 'results-local');

    before(async () => {
      run = await localRun();
    });

    it('tries every file of the folder, whatever its extension, counts each in the summary and lists every unreadable one with its code and message (exit 1)', () => {
      expect(run.code, run.stderr).to.equal(1);
      expect(run.stdout).to.match(/8 files analysed in process: 5 ok, 3 failed/);
      const table = run.stderr.slice(run.stderr.indexOf('FILE'));
      expect(table.split('\n')[0]).to.match(/^FILE\s+ERROR\s+MESSAGE$/);
      expect(table).to.match(/exports\/notes\.csv\s+UNSUPPORTED_FORMAT\s+notes\.csv is not recognised/);
      expect(table).to.match(/exports\/report\.pdf\s+UNSUPPORTED_FORMAT\s+report\.pdf is not recognised/);
      expect(table).to.match(/exports\/README\.md\s+UNSUPPORTED_FORMAT/);
      expect(table.trimEnd().split('\n')).to.have.length(1 + NOT_EXPORTS.length);
    });

    it('prints one plain progress line per file when not on a terminal, the extension-less ZAN export read by its content', () => {
      const lines = run.stderr.split('\n').filter((l) => /^\[\d\/8\]/.test(l));
      expect(lines).to.have.length(8);
      expect(lines.join('\n')).to.match(/ok {6}exports\/zan\/ramp\.dat \(zan-dat\)/);
      expect(lines.join('\n')).to.match(/ok {6}exports\/zan\/EXED0042 \(zan-dat\)/);
    });

    it('writes one JSON per file, mirroring the folders, a failed one for each file no format reads', () => {
      for (const name of [...Object.keys(EXPORTS), 'sample-incremental.json', ...NOT_EXPORTS]) expect(existsSync(join(out(), `${name}.json`)), name).to.equal(true);
      for (const name of NOT_EXPORTS) expect(readOutcome(join(out(), `${name}.json`)), name).to.deep.include({ status: 'failed' });
      expect(readOutcome(join(out(), 'zan/EXED0042.json')).summary?.source.format).to.equal('zan-dat');
      const zan = readOutcome(join(out(), 'zan/ramp.dat.json'));
      expect(zan).to.include({ file: 'exports/zan/ramp.dat', status: 'ok', cpet_id: null, error: null });
      expect(zan.summary?.source.format).to.equal('zan-dat');
      expect(zan.summary).to.not.have.property('retention');
      expect(zan.analyses.map((e) => e.analysis)).to.deep.equal(['vt', 'eov', 'substrate']);
      expect(Object.keys(zan.metrics)).to.include.members(['vo2max', 'gas_quality', 'clock_integrity']);
      const notes = readOutcome(join(out(), 'notes.csv.json'));
      expect(notes).to.include({ status: 'failed' });
      expect(notes.error?.error).to.equal('UNSUPPORTED_FORMAT');
      expect(notes.error?.context).to.have.property('recovery');
    });

    it('writes a summary CSV row per file with the thresholds, VO2peak, FATMAX, the EOV grade and every refusal', () => {
      const [header, ...rows] = csvRows(join(out(), 'summary.csv'));
      expect(header).to.deep.equal([...SUMMARY_COLUMNS]);
      expect(rows).to.have.length(8);
      const col = (row: string[], name: string) => row[header.indexOf(name)];
      const sampleRow = rows.find((r) => col(r, 'file') === 'exports/sample-incremental.json') as string[];
      const sample = readOutcome(join(out(), 'sample-incremental.json.json'));
      const vt = sample.analyses.find((e) => e.analysis === 'vt');
      const vo2max = sample.metrics.vo2max;
      expect(col(sampleRow, 'format')).to.equal('canonical-json');
      expect(col(sampleRow, 'vt1_time_s')).to.equal(String(vt?.analysis === 'vt' ? vt.findings?.vt1_time_s : ''));
      expect(col(sampleRow, 'vo2peak_ml_min')).to.equal(String(vo2max?.status === 'ok' ? vo2max.value : ''));
      expect(col(sampleRow, 'eov_grade')).to.match(/\w+/);
      expect(col(sampleRow, 'fatmax_pct_vo2peak')).to.match(/^\d+(\.\d+)?$/);
      const zanRow = rows.find((r) => col(r, 'file') === 'exports/zan/ramp.dat') as string[];
      expect(col(zanRow, 'vt_refusal')).to.equal('MISSING_CHANNEL');
      expect(col(zanRow, 'metrics_unavailable')).to.match(/o2_pulse:MISSING_CHANNEL/);
      const failedRow = rows.find((r) => col(r, 'file') === 'exports/notes.csv') as string[];
      expect([col(failedRow, 'status'), col(failedRow, 'error')]).to.deep.equal(['failed', 'UNSUPPORTED_FORMAT']);
    });

    it('exits 0 when every file is analysed', async () => {
      const ok = await cpet(lab, ['analyze', 'exports/sample-incremental.json', 'exports/zan', '--out', 'results-ok', '--analyses', 'vt']);
      expect(ok.code, ok.stderr).to.equal(0);
      expect(ok.stdout).to.match(/3 files analysed in process: 3 ok, 0 failed/);
      expect(readOutcome(join(lab, 'results-ok', 'sample-incremental.json.json')).analyses.map((e) => e.analysis)).to.deep.equal(['vt']);
    });
  });

  describe('analyze, on a service (--url)', () => {
    let harness: Harness;
    let url = '';
    let key = '';
    const requests: string[] = [];

    before(async () => {
      harness = await startHarness({ store: 'sqlite' });
      key = await harness.key();
      const served = await harness.listen();
      url = served.url;
      served.server.on('request', (req: { method: string; url: string }) => requests.push(`${req.method} ${req.url}`));
    });

    after(async () => harness.close());

    it('gives the numbers the in-process run gave, file for file, and deletes each record after', async () => {
      await localRun();
      const run = await cpet(lab, ['analyze', 'exports', '--out', 'results-remote', '--url', url], { CPET_API_KEY: key });
      expect(run.code, run.stderr).to.equal(1);
      expect(run.stdout).to.include(`8 files analysed ${url}: 5 ok, 3 failed`);
      for (const name of [...Object.keys(EXPORTS), 'sample-incremental.json']) {
        const remote = readOutcome(join(lab, 'results-remote', `${name}.json`));
        const local = readOutcome(join(lab, 'results-local', `${name}.json`));
        expect(remote.cpet_id, name).to.equal(null);
        expect(stable(remote), name).to.deep.equal(stable(local));
      }
      for (const name of NOT_EXPORTS) expect(readOutcome(join(lab, 'results-remote', `${name}.json`)).error?.error, name).to.equal('UNSUPPORTED_FORMAT');
      const deleted = requests.flatMap((r) => /^DELETE \/v1\/cpet\/([\w-]+)$/.exec(r)?.[1] ?? []);
      expect(deleted).to.have.length(5);
      for (const id of deleted) await request(harness.service.app).get(`/v1/cpet/${id}`).set('X-API-Key', key).expect(404);
    });

    it('keeps the records with --keep, under the handles it writes', async () => {
      const run = await cpet(lab, ['analyze', 'exports/zan', '--out', 'results-kept', '--url', url, '--key', key, '--keep']);
      expect(run.code, run.stderr).to.equal(0);
      const kept = readOutcome(join(lab, 'results-kept', 'ramp.dat.json'));
      expect(kept.cpet_id).to.be.a('string');
      expect(kept.summary?.retention?.retain_hours).to.equal(24);
      await request(harness.service.app).get(`/v1/cpet/${kept.cpet_id}`).set('X-API-Key', key).expect(200);
    });

    it("lists the service's formats", async () => {
      const run = await cpet(lab, ['formats', '--url', url, '--json'], { CPET_API_KEY: key });
      expect(run.code, run.stderr).to.equal(0);
      expect((JSON.parse(run.stdout) as { id: string }[]).map((f) => f.id)).to.include('cosmed-xlsx');
    });
  });

  describe('a format plugin from the working directory (FORMAT_PLUGINS)', () => {
    it('is listed by formats and reads its file, in the worker threads too', async () => {
      const work = join(lab, 'with-plugin');
      installWalkthroughPackage(work, 'acme-cart-csv-format');
      writeFileSync(join(work, 'first-test.csv'), walkthroughFiles().get('formats/acme-cart-csv/fixtures/first-test/input.csv') as string);
      const env = { FORMAT_PLUGINS: 'acme-cart-csv-format' };
      const formats = await cpet(work, ['formats'], env);
      expect(formats.code, formats.stderr).to.equal(0);
      expect(formats.stdout).to.match(/^acme-cart-csv\s+csv\s+1\s+ACME Cart CSV export/m);
      const analyzed = await cpet(work, ['analyze', 'first-test.csv', '--jobs', '1'], env);
      expect(analyzed.code, analyzed.stderr).to.equal(0);
      expect(readOutcome(join(work, 'cpet-results', 'first-test.csv.json')).summary?.source.format).to.equal('acme-cart-csv');
    });
  });

  describe('sample and keys', () => {
    it('writes the sample the service serves', async () => {
      const run = await cpet(lab, ['sample', '--oscillating', '--out', 'osc.json']);
      expect(run.code, run.stderr).to.equal(0);
      expect(readFileSync(join(lab, 'osc.json'), 'utf8')).to.equal(generateSample(true).content);
      expect(run.stdout).to.match(/VT1 at \d+ s/);
    });

    it("runs the operator's key commands on the server's store", async () => {
      const dataDir = join(lab, 'data');
      const created = await cpet(lab, ['keys', 'create', '--name', 'lab2', '--tier', 'free', '--products', 'vt'], { DATA_DIR: dataDir });
      expect(created.code, created.stderr).to.equal(0);
      expect(created.stdout).to.match(/^cpet_[0-9a-f]{16}_/m);
      const listed = await cpet(lab, ['keys', 'list'], { DATA_DIR: dataDir });
      expect(listed.stdout).to.match(/lab2\s+free\s+vt/);
      const wrong = await cpet(lab, ['keys', 'create', '--name', 'x'], { DATA_DIR: dataDir });
      expect(wrong.code).to.equal(2);
      expect(wrong.stderr).to.match(/Run "cpet keys --help" for usage/);
    });
  });
});
