/**
 * docs/plugins.md's walkthrough, built as it says: its code blocks (fenced with `file=<path>`) make a
 * plugin folder and an npm package, and each is discovered, detected and read with nothing else
 * changed. The folder lives under the project's ignored tmp/, so the plugin reaches the kit the way
 * a folder under formats/ does; the package sits in another working directory's node_modules.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { readUpload } from '../../src/formats/read-upload.js';
import { checkFixture, listFixtureCases } from '../../src/plugin-kit/fixtures.js';
import { loadPlugins, PluginError, PROJECT_ROOT } from '../../src/plugins.js';
import { installWalkthroughPackage, walkthroughFiles, write } from './walkthrough.js';

const run = promisify(execFile);
const ID = 'acme-cart-csv';
const PACKAGE = 'acme-cart-csv-format';
/** The walkthrough's files that only its npm package has (a folder under formats/ is the service's). */
const PACKAGE_ONLY = new Set(['package.json', 'tsconfig.json']);

describe('a new format plugin, as docs/plugins.md writes it', function () {
  this.timeout(180_000);
  const files = walkthroughFiles();
  const root = join(PROJECT_ROOT, 'tmp', `plugin-kit-${process.pid}-${Date.now()}`);
  const example = files.get(`formats/${ID}/fixtures/first-test/input.csv`) as string;

  after(() => rmSync(root, { recursive: true, force: true }));

  it('has every file the walkthrough names', () => {
    expect([...files.keys()].sort()).to.deep.equal(
      [
        `formats/${ID}/detect.ts`,
        `formats/${ID}/fixtures/first-test/input.csv`,
        `formats/${ID}/index.ts`,
        `formats/${ID}/meta.ts`,
        `formats/${ID}/parse.ts`,
        `test/formats/${ID}.test.ts`,
        'package.json',
        'tsconfig.json',
      ].sort(),
    );
  });

  it('reads the example file as a generic table before the plugin exists, as the walkthrough says', async () => {
    const { recording, detection } = await readUpload('input.csv', Buffer.from(example), (await loadPlugins()).formats);
    expect(recording.format).to.equal('generic-table');
    expect(detection.confidence).to.equal('last_resort');
  });

  describe('as one new folder', () => {
    before(() => {
      for (const [path, text] of files) if (!PACKAGE_ONLY.has(path)) write(join(root, path), text);
    });

    it('is discovered from its folder alone and reads the example file with the units row applied', async () => {
      const plugins = await loadPlugins({ root });
      expect(plugins.formats.map((f) => f.meta.id)).to.deep.equal([ID]);
      const plugin = plugins.formats[0];
      const [fixture] = listFixtureCases(join(root, 'formats', ID));
      const { recording, detection } = await checkFixture(plugin, fixture, { update: true });
      expect(detection.confidence).to.equal('detected');
      expect(recording.format).to.equal(ID);
      expect(recording.channels.VO2?.unit_in).to.equal('L/min');
      expect(recording.channels.VO2?.values.slice(0, 2)).to.deep.equal([348, 356]);
      expect(recording.channels.Load?.values.at(-1)).to.equal(200);
      expect(JSON.parse(readFileSync(join(fixture.dir, 'expected.json'), 'utf8')).format).to.equal(ID);
    });

    it("passes the walkthrough's own test, which imports only the kit", async () => {
      const env = { ...process.env };
      delete env.UPDATE;
      const mocha = join(PROJECT_ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
      const { stdout } = await run(process.execPath, [mocha, '--no-config', '--node-option', 'import=tsx', '--timeout', '120000', join(root, 'test', 'formats', `${ID}.test.ts`)], {
        cwd: PROJECT_ROOT,
        env,
      });
      expect(stdout).to.match(/2 passing/);
    });
  });

  describe('as an npm package in the working directory', () => {
    const work = join(root, 'lab');

    before(() => installWalkthroughPackage(work, PACKAGE));

    it('is found through FORMAT_PLUGINS from the working directory, beside every built-in format, and takes the example file', async () => {
      const plugins = await loadPlugins({ packages: [PACKAGE], cwd: work });
      const ids = plugins.formats.map((f) => f.meta.id);
      expect(ids.at(-1)).to.equal(ID);
      expect(ids).to.include.members(['canonical-json', 'generic-table']);
      const { recording, detection } = await readUpload('first-test.csv', Buffer.from(example), plugins.formats);
      expect(recording.format).to.equal(ID);
      expect(detection.confidence).to.equal('detected');
    });

    it('says where it looked when the package is not installed', async () => {
      let error: unknown;
      try {
        await loadPlugins({ packages: ['no-such-format-plugin'], cwd: work });
      } catch (err) {
        error = err;
      }
      expect(error).to.be.instanceOf(PluginError);
      expect((error as PluginError).code).to.equal('PLUGIN_NOT_FOUND');
      expect((error as Error).message)
        .to.include(PROJECT_ROOT)
        .and.include(work);
    });
  });
});
