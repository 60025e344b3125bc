import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openStore } from '../../src/store/store.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npx tsx scripts/keys.ts ...args` on an embedded store in `dataDir`, as the operator would. */
function keys(dataDir: string, ...args: string[]): Promise<Run> {
  return spawn('npx', ['tsx', 'scripts/keys.ts', ...args], dataDir);
}

/** The same through `node --import tsx`, skipping npx's start-up for the many usage-error runs. */
function keysDirect(dataDir: string, ...args: string[]): Promise<Run> {
  return spawn(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], dataDir);
}

function spawn(command: string, args: string[], dataDir: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.REDIS_URL;
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('keys CLI', function () {
  // Each run starts a fresh tsx process: about a second on an idle machine, far more under load.
  this.timeout(180_000);
  let dataDir = '';
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'cpet-keys-cli-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a key printed once, lists it without secrets, and revokes it by name', async () => {
    const created = await keys(dataDir, 'create', '--name', 'lab1', '--tier', 'pro', '--products', 'vt,substrate', '--monthly-limit', '1000', '--expires', '2027-06-30', '--models', 'gandalf');
    expect(created.code, created.stderr).to.equal(0);
    const key = /^(cpet_[0-9a-f]{16}_[A-Za-z0-9_-]{43})$/m.exec(created.stdout)?.[1] as string;
    expect(key).to.be.a('string');
    expect(created.stdout).to.match(/shown only once/);

    const listed = await keys(dataDir, 'list');
    expect(listed.code).to.equal(0);
    const row = listed.stdout.split('\n').find((line) => line.includes('lab1')) as string;
    expect(row.split(/\s{2,}/)).to.deep.equal([key.slice(5, 21), 'lab1', 'pro', 'vt,substrate', '1000', '2027-06-30T23:59:59.999Z', 'gandalf', '-']);
    const store = await openStore({ dataDir });
    const [record] = await store.keys.list();
    expect((await store.keys.authenticate(key)).status).to.equal('ok');
    await store.close();
    expect(listed.stdout).to.not.include(key.slice(22));
    expect(listed.stdout).to.not.include(record.hash);

    const revoked = await keys(dataDir, 'revoke', 'lab1');
    expect(revoked.code).to.equal(0);
    expect(revoked.stdout).to.match(/Revoked key "lab1"/);
    const after = await keys(dataDir, 'list');
    expect(after.stdout.split('\n').find((line) => line.includes('lab1'))).to.match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
    const again = await keys(dataDir, 'revoke', 'lab1');
    expect(again.code).to.equal(1);
    expect(again.stderr).to.match(/No key with id or active name "lab1"/);
  });

  it('refuses bad arguments with a clear message, exit code 2, and no data directory created', async () => {
    const missing = path.join(dataDir, 'never');
    const cases: Array<[string[], RegExp]> = [
      [['create', '--name', 'x', '--tier', 'gold', '--products', 'vt'], /--tier must be one of free, pro, research/],
      [['create', '--name', 'x', '--tier', 'pro'], /create needs --products/],
      [['create', '--name', 'x', '--tier', 'pro', '--products', 'vt', '--monthly-limit', 'lots'], /--monthly-limit must be a positive whole number/],
      [['create', '--name', 'x', '--tier', 'pro', '--products', 'vt', '--colour', 'red'], /unknown option "--colour"/],
      [['create', '--name', '--tier', 'pro'], /--name needs a value/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['revoke'], /revoke needs exactly one id or name/],
      [['list', 'extra'], /list takes no arguments/],
    ];
    const runs = await Promise.all(cases.map(([args]) => keysDirect(missing, ...args)));
    for (const [i, [args, message]] of cases.entries()) {
      const run = runs[i];
      expect(run.code, args.join(' ')).to.equal(2);
      expect(run.stderr).to.match(message);
      expect(run.stderr).to.match(/--help/);
    }
    let exists = true;
    await stat(missing).catch(() => (exists = false));
    expect(exists).to.equal(false);
  });

  it('explains a specification the store refuses, with exit code 2', async () => {
    const run = await keys(dataDir, 'create', '--name', 'x', '--tier', 'pro', '--products', 'vt,ecg');
    expect(run.code).to.equal(2);
    expect(run.stderr).to.match(/unknown product\(s\) ecg/);
  });

  it('prints its usage on --help', async () => {
    const run = await keys(dataDir, '--help');
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/npm run keys -- create --name <name> --tier/);
    expect(run.stdout).to.match(/DATA_DIR/);
  });
});
