/**
 * The kit as a plugin author outside the repository gets it, as docs/plugins.md says: `npm pack` of
 * packages/plugin-kit (its `prepare` builds the bundle and the declarations), `npm install` of the
 * tarball as a development dependency of the walkthrough's package in an empty folder, then `tsc` on
 * the plugin: clean as written, an error where a plugin breaks the contract. The plugin, compiled,
 * then reads the example file with the installed kit alone.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { PROJECT_ROOT } from '../../src/plugins.js';
import { walkthroughFiles } from './walkthrough.js';

const run = promisify(execFile);
const KIT_DIR = join(PROJECT_ROOT, 'packages', 'plugin-kit');
const ID = 'acme-cart-csv';
const SOURCES = ['meta', 'detect', 'parse', 'index'];
const TSC = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** `tsc` in `dir` with its own tsconfig.json: the exit code and what it printed. */
async function typeCheck(dir: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', dir], { cwd: dir });
    return { code: 0, output: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: `${e.stdout}${e.stderr}` };
  }
}

describe('the plugin kit as a package (cpet-plugin-kit), installed outside the service', function () {
  this.timeout(600_000);
  const files = walkthroughFiles();
  const pkg = JSON.parse(readFileSync(join(KIT_DIR, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string> };
  let tmp = '';
  let author = '';

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'cpet-plugin-kit-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', tmp, KIT_DIR], { cwd: tmp });
    const tarball = join(tmp, stdout.trim().split('\n').at(-1) as string);
    author = join(tmp, 'acme-cart-csv-format');
    mkdirSync(author);
    for (const file of ['package.json', 'tsconfig.json']) writeFileSync(join(author, file), files.get(file) as string);
    for (const name of SOURCES) writeFileSync(join(author, `${name}.ts`), files.get(`formats/${ID}/${name}.ts`) as string);
    await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: author });
    // typescript and @types/node, the other two packages the walkthrough installs, are the service's own.
    mkdirSync(join(author, 'node_modules', '@types'), { recursive: true });
    symlinkSync(join(PROJECT_ROOT, 'node_modules', '@types', 'node'), join(author, 'node_modules', '@types', 'node'), 'dir');
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('installs its bundle, its declarations and its own dependencies, not the unpublished service', () => {
    const installed = join(author, 'node_modules', pkg.name);
    for (const file of ['dist/index.js', 'dist/index.d.ts', 'README.md', 'LICENSE']) expect(existsSync(join(installed, file)), file).to.equal(true);
    expect(existsSync(join(installed, 'src')), 'the sources stay in the repository').to.equal(false);
    const lock = JSON.parse(readFileSync(join(author, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    expect(lock.packages['']).to.have.nested.property(`devDependencies.${pkg.name}`);
    const names = Object.keys(lock.packages).filter((p) => p !== '');
    expect(names).to.not.include('node_modules/cpet-analysis-service');
    expect(names).to.include.members(Object.keys(pkg.dependencies).map((d) => `node_modules/${d}`));
  });

  it("type-checks the walkthrough's plugin against the installed declarations", async () => {
    const { code, output } = await typeCheck(author);
    expect(output).to.equal('');
    expect(code).to.equal(0);
  });

  it('fails the type check where a plugin breaks the contract, naming the file', async () => {
    const broken = join(tmp, 'broken');
    cpSync(author, broken, { recursive: true, verbatimSymlinks: true });
    const detect = readFileSync(join(author, 'detect.ts'), 'utf8');
    const withoutReasons = detect.replace("return { score: file.extension === 'csv' ? 0.95 : 0.9, reasons };", "return { score: file.extension === 'csv' ? 0.95 : 0.9 };");
    expect(withoutReasons).to.not.equal(detect);
    writeFileSync(join(broken, 'detect.ts'), withoutReasons);
    const { code, output } = await typeCheck(broken);
    expect(code).to.not.equal(0);
    expect(output).to.match(/detect\.ts\(\d+,\d+\): error TS\d+: .*'reasons'/);
  });

  it('runs on its own: the compiled plugin detects and reads the example file, and the fixture check needs the formats to compete with', async () => {
    const out = join(tmp, 'compiled');
    await run(process.execPath, [TSC, '-p', author, '--noEmit', 'false', '--outDir', out], { cwd: author });
    writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }));
    symlinkSync(join(author, 'node_modules'), join(out, 'node_modules'), 'dir');
    const fixture = join(out, 'fixtures', 'first-test');
    mkdirSync(fixture, { recursive: true });
    writeFileSync(join(fixture, 'input.csv'), files.get(`formats/${ID}/fixtures/first-test/input.csv`) as string);
    writeFileSync(
      join(out, 'try.mjs'),
      `import { checkFixture, listFixtureCases } from 'cpet-plugin-kit';
import plugin from './index.js';
const [fixture] = listFixtureCases(process.cwd());
let alone = '';
await checkFixture(plugin, fixture).catch((err) => { alone = err.message; });
const { recording, detection } = await checkFixture(plugin, fixture, { plugins: [plugin], update: true });
console.log(JSON.stringify({ format: recording.format, confidence: detection.confidence, vo2: recording.channels.VO2.values.slice(0, 2), alone }));
`,
    );
    const { stdout } = await run(process.execPath, ['try.mjs'], { cwd: out });
    const seen = JSON.parse(stdout) as { format: string; confidence: string; vo2: number[]; alone: string };
    expect(seen).to.include({ format: ID, confidence: 'detected' });
    expect(seen.vo2).to.deep.equal([348, 356]);
    expect(seen.alone).to.include("the service's formats are not here").and.include('options.plugins');
  });
});
