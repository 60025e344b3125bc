/**
 * docs/plugins.md's plugin as a third-party author ships it: `npm pack` of the walkthrough's package
 * (as TypeScript, and compiled to JavaScript), `npm install` of the tarball into the folder an
 * operator runs the service from, then a copy of the built service (plain Node, no tsx preloaded)
 * started there with FORMAT_PLUGINS: the format is listed by GET /v1/formats and detected on upload.
 * The optional peer dependency on the unpublished service must not make npm fetch it.
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { transformSync } from 'esbuild';
import { DIST } from '../../scripts/build.mjs';
import { ensureBuilt, freePort, ROOT } from '../server/processes.js';
import { walkthroughFiles } from './walkthrough.js';

const run = promisify(execFile);
const ID = 'acme-cart-csv';
const SOURCES = ['meta', 'detect', 'parse', 'index'];

/** The walkthrough's package in `dir`, as TypeScript or compiled to JavaScript; returns its tarball. */
async function pack(dir: string, variant: 'ts' | 'js', into: string): Promise<string> {
  const files = walkthroughFiles();
  const pkg = JSON.parse(files.get('package.json') as string) as { name: string; exports: string };
  mkdirSync(dir, { recursive: true });
  for (const name of SOURCES) {
    const source = files.get(`formats/${ID}/${name}.ts`) as string;
    writeFileSync(join(dir, `${name}.${variant}`), variant === 'ts' ? source : transformSync(source, { loader: 'ts', format: 'esm' }).code);
  }
  if (variant === 'js') {
    pkg.name = `${pkg.name}-js`;
    pkg.exports = './index.js';
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', into], { cwd: dir });
  return join(into, stdout.trim().split('\n').at(-1) as string);
}

describe('a format plugin packed and installed with npm, loaded by the built service', function () {
  this.timeout(300_000);
  let tmp = '';
  let service = '';
  let site = '';
  const example = walkthroughFiles().get(`formats/${ID}/fixtures/first-test/input.csv`) as string;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'cpet-packed-plugin-'));
    // A copy of the built service beside its installed dependencies, as a deployment holds it.
    await ensureBuilt();
    service = join(tmp, 'service');
    cpSync(DIST, service, { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(service, 'node_modules'), 'dir');
    const tarballs = [await pack(join(tmp, 'plugin-ts'), 'ts', tmp), await pack(join(tmp, 'plugin-js'), 'js', tmp)];
    site = join(tmp, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'lab-deployment', private: true }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], { cwd: site });
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('installs without fetching the optional peer dependency (the service is not published)', () => {
    const lock = JSON.parse(readFileSync(join(site, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).sort()).to.deep.equal(['', 'node_modules/acme-cart-csv-format', 'node_modules/acme-cart-csv-format-js']);
  });

  for (const name of ['acme-cart-csv-format', 'acme-cart-csv-format-js']) {
    it(`lists ${name} in GET /v1/formats and detects it on upload`, async () => {
      const port = await freePort();
      const dataDir = join(tmp, `data-${name}`);
      const child = spawn(process.execPath, [join(service, 'src', 'main.js')], {
        cwd: site,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, FORMAT_PLUGINS: name, RATE_LIMIT_PER_MINUTE: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const base = `http://127.0.0.1:${port}`;
      try {
        const deadline = Date.now() + 120_000;
        for (;;) {
          if (child.exitCode !== null) throw new Error(`the service exited:\n${output}`);
          try {
            if ((await fetch(`${base}/ready`)).ok) break;
          } catch {
            // not listening yet
          }
          if (Date.now() > deadline) throw new Error(`the service did not become ready:\n${output}`);
          await new Promise((r) => setTimeout(r, 250));
        }
        const key = readFileSync(join(dataDir, 'local-api-key'), 'utf8').trim();
        const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
        const formats = (await (await fetch(`${base}/v1/formats`, { headers })).json()) as { formats: { id: string }[] };
        expect(formats.formats.map((f) => f.id))
          .to.include(ID)
          .and.include('generic-table');
        const up = await fetch(`${base}/v1/cpet/content`, { method: 'POST', headers, body: JSON.stringify({ filename: 'first-test.csv', content: example }) });
        const body = (await up.json()) as { source: { format: string; detection: { confidence: string } } };
        expect(up.status, JSON.stringify(body)).to.equal(200);
        expect(body.source.format).to.equal(ID);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });
  }
});
