/**
 * Real processes for the fault tests: the built service as `npm start` runs it (scripts/start.mjs,
 * which builds dist/ when it is stale), and a private redis-server on a free loopback port that a
 * test may stop and start again. Every process is started here and ended by its own pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDist, fingerprint, STAMP } from '../../scripts/build.mjs';
import { existsSync, readFileSync } from 'node:fs';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Temporary folders the processes of this run wrote; removed when mocha's run ends. */
const scratch: string[] = [];
process.once('exit', () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Builds dist/ once per test run when it is missing or stale, so child processes start at once. */
export async function ensureBuilt(): Promise<void> {
  const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
  if (stamp !== fingerprint()) await buildDist({ quiet: true });
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  dataDir: string;
  /** Every JSON log line the process wrote so far. */
  logs(): Record<string, unknown>[];
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Starts `node scripts/start.mjs src/main` with `env` on a free port (or env.PORT, to restart in place);
 * resolves once /health answers, failing after `answerWithinMs`.
 */
export async function startServer(env: Record<string, string> = {}, dataDir = scratchDir('cpet-proc-'), answerWithinMs = 60_000): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), 'src/main'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? String(signal))));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + answerWithinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited before answering:\n${out}`);
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /health within ${answerWithinMs / 1000} s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const logs = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, base, dataDir, logs, exited };
}

export interface RedisProcess {
  port: number;
  url(db: number): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP: the server keeps its connections open and answers nothing (a hung Redis). */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

/**
 * A redis-server of the test's own on a free port, with an append-only file so its data survives a
 * stop and start (the shared server on 6379 is never touched).
 */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const dir = scratchDir('cpet-redis-');
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async (): Promise<void> => {
    const c = child as ChildProcess | null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  };
  await start();
  const signal = (name: NodeJS.Signals) => (child as ChildProcess | null)?.kill(name);
  return { port, url: (db) => `redis://127.0.0.1:${port}/${db}`, stop, start, pause: () => signal('SIGSTOP'), resume: () => signal('SIGCONT') };
}

/** Whether redis-server is on this machine (the Redis fault tests are pending without it). */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
}
