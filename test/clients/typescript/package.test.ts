/**
 * The client package as a user gets it: built with tsc, installed into a fresh node_modules beside
 * its one dependency, imported by its name, and its README example run, unchanged, against a live
 * service on the loopback interface.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import request from 'supertest';
import { PROJECT_ROOT } from '../../../src/plugins.js';
import { startHarness, type Harness } from '../../server/harness.js';

const run = promisify(execFile);
const CLIENT_DIR = join(PROJECT_ROOT, 'clients', 'typescript');
const XLSX = join(PROJECT_ROOT, 'formats', 'cosmed-xlsx', 'fixtures', 'pft-suite-en-breath-by-breath', 'input.xlsx');

interface ClientPackage {
  name: string;
  version: string;
  license: string;
  type: string;
  types: string;
  files: string[];
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
}

/** The README's example: its first `js` block. */
function readmeExample(): string {
  const readme = readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8');
  const block = /^```js\n([\s\S]*?)^```$/m.exec(readme);
  if (!block) throw new Error('clients/typescript/README.md has no js example');
  return block[1];
}

/** Every file path an `exports` map points at. */
function exportTargets(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (node && typeof node === 'object') return Object.values(node).flatMap(exportTargets);
  return [];
}

describe('clients/typescript (cpet-analysis-client)', function () {
  this.timeout(240_000);
  const pkg = JSON.parse(readFileSync(join(CLIENT_DIR, 'package.json'), 'utf8')) as ClientPackage;
  let project = '';
  let installed = '';

  before(async () => {
    // A user's project, with the package installed as its README says: `npm pack` of the folder
    // (its `prepare` builds dist/), then `npm install` of the tarball, which fetches openapi-fetch.
    project = mkdtempSync(join(tmpdir(), 'cpet-client-user-'));
    installed = join(project, 'node_modules', pkg.name);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'lab-script', private: true, type: 'module' }));
    const { stdout } = await run('npm', ['pack', '--silent', CLIENT_DIR], { cwd: project });
    const tarball = stdout.trim().split('\n').at(-1) as string;
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], { cwd: project });
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(PROJECT_ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  });

  after(() => rmSync(project, { recursive: true, force: true }));

  it('is publish-ready: a name, a licence, ESM exports (Node.js and other runtimes) whose built files and types exist', () => {
    expect(pkg).to.include({ name: 'cpet-analysis-client', license: 'MIT', type: 'module' });
    expect(pkg.version).to.match(/^\d+\.\d+\.\d+$/);
    expect(pkg.files).to.include.members(['dist', 'README.md', 'LICENSE']);
    const targets = exportTargets(pkg.exports['.']);
    expect(targets).to.include.members(['./dist/index.js', './dist/index.d.ts', './dist/node.js', './dist/node.d.ts']);
    for (const target of [...targets, pkg.types]) expect(existsSync(join(installed, target)), target).to.equal(true);
    const root = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as ClientPackage;
    expect(Object.keys(pkg.dependencies)).to.deep.equal(['openapi-fetch']);
    expect(pkg.dependencies['openapi-fetch']).to.equal(root.dependencies['openapi-fetch']);
  });

  it("has a README example of five lines that type-checks against the package's declarations", async () => {
    const example = readmeExample();
    expect(example.trim().split('\n')).to.have.length(5);
    writeFileSync(join(project, 'example.mts'), example);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: ['node'] }, files: ['example.mts'] }),
    );
    await run(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(project, 'tsconfig.json')], { cwd: project });
  });

  describe('against a live service', () => {
    let harness: Harness;
    let url = '';
    let key = '';

    before(async () => {
      harness = await startHarness({ store: 'sqlite' });
      key = await harness.key();
      ({ url } = await harness.listen());
    });

    after(async () => harness.close());

    it('runs the README example unchanged on a binary export and prints what analyze answers', async () => {
      writeFileSync(join(project, 'example.mjs'), readmeExample());
      const { stdout } = await run(process.execPath, ['example.mjs', XLSX], { cwd: project, env: { ...process.env, CPET_URL: url, CPET_API_KEY: key } });
      const app = harness.service.app;
      const uploaded = await request(app).post('/v1/cpet').set('X-API-Key', key).attach('file', XLSX).expect(200);
      const analyzed = await request(app)
        .post(`/v1/cpet/${uploaded.body.cpet_id}/analyze`)
        .set('X-API-Key', key)
        .send({ analyses: ['vt'] })
        .expect(200);
      const vt = analyzed.body.results[0];
      // console.log prints each value as String() does.
      expect(stdout.trim()).to.equal([uploaded.body.source.format, vt.status, vt.findings?.vt1_time_s, vt.findings?.vt1_vo2_ml_min, vt.notes.join(' ')].map(String).join(' '));
    });

    it('covers the lifecycle: capabilities, sample, content upload, summary, series, typed metrics, delete', async () => {
      const script = `
import { createCpetClient, CpetApiError } from 'cpet-analysis-client';
const cpet = createCpetClient({ baseUrl: process.env.CPET_URL, apiKey: process.env.CPET_API_KEY });
const health = await cpet.waitFor();
const caps = await cpet.capabilities();
const sample = await cpet.sample();
const rec = await cpet.uploadContent({ filename: sample.filename, content: sample.content });
const summary = await cpet.summary(rec.cpet_id);
const series = await cpet.series(rec.cpet_id, { channels: 'VE,PetCO2', max_points: 50 });
const { metrics } = await cpet.compute(rec.cpet_id, ['vo2max', 'gas_quality']);
const formats = await cpet.formats();
const deleted = await cpet.deleteRecording(rec.cpet_id);
let gone = null;
try { await cpet.summary(rec.cpet_id); } catch (err) { gone = err instanceof CpetApiError ? [err.status, err.code] : String(err); }
console.log(JSON.stringify({ health: health.status, analyses: caps.analyses, format: summary.source.format, series: Object.keys(series.series), vo2max: metrics.vo2max, verdict: metrics.gas_quality.value?.verdict, formats: formats.formats.length, deleted, gone }));
`;
      writeFileSync(join(project, 'lifecycle.mjs'), script);
      const { stdout } = await run(process.execPath, ['lifecycle.mjs'], { cwd: project, env: { ...process.env, CPET_URL: url, CPET_API_KEY: key } });
      const out = JSON.parse(stdout) as Record<string, unknown>;
      expect(out).to.deep.include({ health: 'ok', format: 'canonical-json', series: ['VE', 'PetCO2'], gone: [404, 'CPET_NOT_FOUND'] });
      expect(out.analyses).to.have.members(['vt', 'eov', 'substrate']);
      expect(out.vo2max).to.include({ status: 'ok' });
      expect(out.verdict).to.be.oneOf(['good', 'fair', 'poor']);
      expect(out.deleted).to.deep.include({ deleted: true });
    });
  });
});
