/**
 * The drain (issue 20, item 1): analyses sent on fresh connections with SIGTERM a moment later. No
 * connection is reset; every request is answered 200 or 503 with Retry-After (a connection refused
 * after the listener closed was never accepted, and is counted apart); the process exits 0. And
 * `npm start`, signalled at its own pid as a supervisor does, stops the service.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSample } from '../../src/synthetic/sample.js';
import { ensureBuilt, freePort, ROOT, startServer } from './processes.js';

type Outcome = { status: number; retryAfter: string | undefined; connection: string | undefined } | { error: string };

/** One POST on a connection of its own (no agent: no pooled, half-dead socket). */
function post(base: string, path: string, key: string, body: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request(`${base}${path}`, { method: 'POST', agent: false, headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], connection: res.headers.connection }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}

describe('drain on SIGTERM', function () {
  this.timeout(300_000);
  const sample = generateSample(false);
  before(ensureBuilt);

  // Ten trials (issue 20's count), SIGTERM spread evenly over 0-300 ms after 40 analyses were sent:
  // evenly rather than at random, so a failure names the delay that reproduces it.
  for (const delayMs of Array.from({ length: 10 }, (_, i) => Math.round((i * 300) / 9))) {
    it(`resets no connection with SIGTERM ${delayMs} ms after 40 analyses, answers 200 or 503 + Retry-After, exits 0`, async () => {
      const server = await startServer({ WORKERS: '2' });
      try {
        const key = readFileSync(join(server.dataDir, 'local-api-key'), 'utf8').trim();
        const uploaded = await fetch(`${server.base}/v1/cpet/content`, {
          method: 'POST',
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          body: JSON.stringify({ filename: sample.filename, content: sample.content }),
        });
        const id = ((await uploaded.json()) as { cpet_id: string }).cpet_id;
        const analyses = Array.from({ length: 40 }, () => post(server.base, `/v1/cpet/${id}/analyze`, key, JSON.stringify({ analyses: ['vt', 'substrate'] })));
        await new Promise((r) => setTimeout(r, delayMs));
        server.child.kill('SIGTERM');
        const outcomes = await Promise.all(analyses);
        expect(await server.exited).to.equal(0);
        const failed = outcomes.filter((o) => !('status' in o) || !(o.status === 200 || (o.status === 503 && o.retryAfter !== undefined)));
        expect(failed, JSON.stringify(outcomes)).to.deep.equal([]);
        for (const o of outcomes) if ('status' in o && o.status === 503) expect(o.connection).to.equal('close');
      } finally {
        if (server.child.exitCode === null) server.child.kill('SIGKILL');
      }
    });
  }

  it('stops the service when SIGTERM goes to the pid of `npm start` alone', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'cpet-npm-'));
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    // The server writes to the same pipe as npm: the pipe ends only once the server has exited too.
    const pipeClosed = new Promise<void>((resolve) => child.stdout.once('end', () => resolve()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    while (
      !(await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      expect(Date.now(), 'the service answers /health').to.be.below(deadline);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGTERM');
    await pipeClosed;
    const messages = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).to.include('shutting down: draining requests');
    expect(messages.at(-1)).to.equal('closed');
    rmSync(dataDir, { recursive: true, force: true });
    // Nothing holds the port any more: the server went with npm, not orphaned behind it.
    const refused = await fetch(`${base}/health`).then(
      () => false,
      () => true,
    );
    expect(refused, 'the port is free once npm start has exited').to.equal(true);
  });
});
