/**
 * The production install (issue 14, item 2): in a copy of the project, `npm ci --omit=dev` then
 * `npm start`, which builds dist/ and runs it with no devDependency installed; the started service
 * takes an upload, analyzes and computes, and stops cleanly on SIGTERM.
 */
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generateSample } from '../../src/synthetic/sample.js';
import { freePort, ROOT } from '../server/processes.js';

/** Top-level paths the copy leaves out: what `npm ci` and `npm start` make, and the repository. */
const LEFT_OUT = new Set(['node_modules', 'dist', 'data', '.git', 'test/output', 'scripts/train/node_modules']);

/**
 * Online, sqlite3's install script (prebuild-install) downloads its prebuilt binary; offline it
 * compiles SQLite with node-gyp, about 2 CPU minutes that the CI's own `npm ci` has just spent on the
 * same version. So the binary that install built is offered as the prebuild the script looks for
 * first (its local-prebuilds folder, named in a .prebuild-installrc beside the copy: an npm_config_
 * variable would make npm warn), and the install takes the path a networked one takes.
 */
function offerBuiltSqlite(copy: string, prebuilds: string): void {
  const built = join(ROOT, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
  const { version, binary } = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'sqlite3', 'package.json'), 'utf8')) as { version: string; binary: { napi_versions: number[] } };
  const napi = Math.max(...binary.napi_versions.filter((v) => v <= Number(process.versions.napi)));
  const staged = join(prebuilds, 'staged');
  mkdirSync(join(staged, 'build', 'Release'), { recursive: true });
  cpSync(built, join(staged, 'build', 'Release', 'node_sqlite3.node'));
  const tar = spawnSync('tar', ['-czf', join(prebuilds, `sqlite3-v${version}-napi-v${napi}-${process.platform}-${process.arch}.tar.gz`), '-C', staged, 'build'], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`tar: ${tar.stderr}`);
  writeFileSync(join(copy, '.prebuild-installrc'), `${JSON.stringify({ 'local-prebuilds': prebuilds })}\n`);
}

describe('npm ci --omit=dev, then npm start', function () {
  this.timeout(900_000);
  let copy: string;
  let prebuilds: string;

  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'cpet-prod-'));
    cpSync(ROOT, copy, { recursive: true, filter: (src) => !LEFT_OUT.has(relative(ROOT, src)) });
    prebuilds = mkdtempSync(join(tmpdir(), 'cpet-prebuilds-'));
    offerBuiltSqlite(copy, prebuilds);
  });
  after(() => {
    rmSync(copy, { recursive: true, force: true });
    rmSync(prebuilds, { recursive: true, force: true });
  });

  it('installs without devDependencies, starts, uploads, analyzes and computes', async () => {
    // As the README and the Dockerfile install: onnxruntime-node's CPU binaries ship in it, no CUDA download.
    const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: copy, encoding: 'utf8', timeout: 600_000, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' } });
    expect(install.stderr, 'no npm warning').to.not.match(/npm warn/i);
    expect(install.status, install.stderr.slice(-2000)).to.equal(0);
    expect(install.stderr, 'no engine mismatch on this Node').to.not.contain('EBADENGINE');
    // tsx is a dependency (the cpet command line, and plugin packages shipped as TypeScript); the service itself runs dist/ on plain Node.
    for (const dev of ['typescript', 'mocha', 'chai', 'supertest']) expect(existsSync(join(copy, 'node_modules', dev)), dev).to.equal(false);
    expect(existsSync(join(copy, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node')), 'sqlite3 installed its binary').to.equal(true);

    const port = await freePort();
    const dataDir = join(copy, 'data');
    // Its own process group, so SIGTERM reaches npm and the node process it started, as a service manager sends it.
    const child = spawn('npm', ['start'], {
      cwd: copy,
      detached: true,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const closed = new Promise<void>((resolve) => child.stdout.once('close', () => resolve()));
    const base = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        try {
          if ((await fetch(`${base}/ready`)).ok) break;
        } catch {
          // not listening yet
        }
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not become ready:\n${output}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(existsSync(join(copy, 'dist', 'src', 'main.js'))).to.equal(true);
      const key = readFileSync(join(dataDir, 'local-api-key'), 'utf8').trim();
      const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
      const sample = generateSample(false);
      const up = await fetch(`${base}/v1/cpet/content`, { method: 'POST', headers, body: JSON.stringify({ filename: sample.filename, content: sample.content }) });
      expect(up.status).to.equal(200);
      const id = ((await up.json()) as { cpet_id: string }).cpet_id;
      const analyze = await fetch(`${base}/v1/cpet/${id}/analyze`, { method: 'POST', headers, body: JSON.stringify({ analyses: ['vt', 'eov', 'substrate'] }) });
      expect(analyze.status).to.equal(200);
      const results = ((await analyze.json()) as { results: { analysis: string; status: string }[] }).results;
      expect(results.find((r) => r.analysis === 'vt')?.status).to.equal('ok');
      const compute = await fetch(`${base}/v1/cpet/${id}/compute`, { method: 'POST', headers, body: JSON.stringify({ metrics: ['vo2max'] }) });
      expect(compute.status).to.equal(200);
      expect((await fetch(`${base}/`)).status, 'the web page bundles from the installed packages').to.equal(200);
    } finally {
      process.kill(-(child.pid as number), 'SIGTERM');
    }
    // The pipe closes once npm and the service have both exited; the service's last line says it closed in order.
    await closed;
    expect(output).to.contain('"msg":"closed"');
  });
});
