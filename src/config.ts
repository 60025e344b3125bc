/**
 * Service configuration from the environment, with embedded defaults so `npm start` needs nothing.
 * The README's configuration table lists the same variables.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { secretFromEnv } from './store/shared-secret.js';

export interface Config {
  /** Port to listen on (PORT, default 8080). */
  port: number;
  /** Interface to bind (HOST, default 127.0.0.1). */
  host: string;
  /** Where the embedded store and the local key file live (DATA_DIR, default ./data). */
  dataDir: string;
  /** Redis connection for several instances (REDIS_URL); null keeps the embedded SQLite store. */
  redisUrl: string | null;
  /** Requests per key per minute before 429 RATE_LIMITED (RATE_LIMIT_PER_MINUTE, default 120). */
  rateLimitPerMinute: number;
  /** Worker threads for parsing and analyses (WORKERS, default the cores the process may use; 0 runs them in the main thread). */
  workers: number;
  /** Base URL written into upload tickets (PUBLIC_BASE_URL); default: from the request's Host header. */
  publicBaseUrl: string | null;
  /** Extra format plugins from npm packages, comma-separated (FORMAT_PLUGINS). */
  formatPackages: string[];
  /** Injected clock (ms since epoch); tests set it, production uses Date.now. TICKET_SECRET is read by the store. */
  now: () => number;
  /** Operations settings; each absent one takes its value from OPERATIONS_DEFAULTS. */
  operations?: Partial<Operations>;
}

/** How the service behaves under load, faults and shutdown. */
export interface Operations {
  /** Origins allowed to call the API from a browser (CORS_ORIGINS, comma-separated); empty: CORS off. */
  corsOrigins: string[];
  /** Longest wait for in-flight requests after SIGTERM/SIGINT before their connections are cut (DRAIN_TIMEOUT_S). */
  drainTimeoutMs: number;
  /** Wall-clock budget of one task in a worker (TASK_TIMEOUT_S): past it the task is answered and its worker stopped and replaced (an analysis's worker, maybe inside an inference, is left to finish it). */
  taskTimeoutMs: number;
  /** Old-generation heap of one worker thread (WORKER_MEMORY_MB): past it only that worker's task fails. */
  workerMemoryMb: number;
  /** Tasks waiting for a worker before new work is refused with 503 (WORKER_QUEUE_LIMIT, default QUEUE_PER_WORKER per worker). */
  workerQueueLimit: number;
  /** Rounds of analyze-all and compute-all each worker runs on synthetic tests before /ready (WARM_UP_ROUNDS; src/workers/tasks.ts warmUp). */
  warmUpRounds: number;
  /** Wall-clock ceiling of a worker's warm-up (WARM_UP_BUDGET_S): no round starts past it. */
  warmUpBudgetMs: number;
  /** Longest wait for one Redis command before the request answers 503 (STORE_TIMEOUT_MS). */
  storeTimeoutMs: number;
  /** pino level of the JSON logs (LOG_LEVEL: fatal, error, warn, info, debug, silent). */
  logLevel: string;
}

/**
 * Waiting tasks allowed per worker before 503: at the sample's ~20 ms of worker time per analyze, a
 * full queue is about two seconds of work per thread, so a client waits, never for long.
 */
export const QUEUE_PER_WORKER = 100;

export const OPERATIONS_DEFAULTS: Operations = {
  corsOrigins: [],
  drainTimeoutMs: 25_000,
  taskTimeoutMs: 30_000,
  workerMemoryMb: 1024,
  workerQueueLimit: 2 * QUEUE_PER_WORKER,
  // vt's code was still being optimised up to its ~45th call after one round (tasks.ts warmUp); twenty
  // rounds of the five warm-up tests come within a few tenths of a millisecond of steady state.
  warmUpRounds: 20,
  warmUpBudgetMs: 5_000,
  storeTimeoutMs: 1_500,
  logLevel: 'info',
};

/** The operations settings of a configuration, defaults filled in (the queue bound following the workers). */
export function operationsOf(config: Config): Operations {
  return { ...OPERATIONS_DEFAULTS, workerQueueLimit: Math.max(1, config.workers) * QUEUE_PER_WORKER, ...config.operations };
}

/** Reads the configuration from an environment (default: process.env). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  // Checked here so a weak secret stops the start, instead of every ticket request failing later.
  secretFromEnv('upload-tickets', env);
  return {
    port: integer(env.PORT, 8080, 'PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir: resolve(env.DATA_DIR || './data'),
    redisUrl: env.REDIS_URL || null,
    rateLimitPerMinute: integer(env.RATE_LIMIT_PER_MINUTE, 120, 'RATE_LIMIT_PER_MINUTE'),
    workers: integer(env.WORKERS, availableParallelism(), 'WORKERS'),
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : null,
    formatPackages: list(env.FORMAT_PLUGINS),
    now: Date.now,
    operations: {
      corsOrigins: list(env.CORS_ORIGINS).map(origin),
      drainTimeoutMs: integer(env.DRAIN_TIMEOUT_S, OPERATIONS_DEFAULTS.drainTimeoutMs / 1000, 'DRAIN_TIMEOUT_S') * 1000,
      taskTimeoutMs: integer(env.TASK_TIMEOUT_S, OPERATIONS_DEFAULTS.taskTimeoutMs / 1000, 'TASK_TIMEOUT_S') * 1000,
      workerMemoryMb: integer(env.WORKER_MEMORY_MB, OPERATIONS_DEFAULTS.workerMemoryMb, 'WORKER_MEMORY_MB'),
      ...(env.WORKER_QUEUE_LIMIT ? { workerQueueLimit: integer(env.WORKER_QUEUE_LIMIT, 0, 'WORKER_QUEUE_LIMIT') } : {}),
      warmUpRounds: integer(env.WARM_UP_ROUNDS, OPERATIONS_DEFAULTS.warmUpRounds, 'WARM_UP_ROUNDS'),
      warmUpBudgetMs: integer(env.WARM_UP_BUDGET_S, OPERATIONS_DEFAULTS.warmUpBudgetMs / 1000, 'WARM_UP_BUDGET_S') * 1000,
      storeTimeoutMs: integer(env.STORE_TIMEOUT_MS, OPERATIONS_DEFAULTS.storeTimeoutMs, 'STORE_TIMEOUT_MS'),
      logLevel: env.LOG_LEVEL || OPERATIONS_DEFAULTS.logLevel,
    },
  };
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An origin as a browser sends it (scheme://host[:port]), so a trailing slash or path in the setting cannot silently never match. */
function origin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`CORS_ORIGINS: "${value}" is not an origin like https://lab.example.org`);
  }
  if (url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '')) throw new Error(`CORS_ORIGINS: "${value}" must be an origin (scheme://host[:port]) without a path`);
  return url.origin;
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got "${value}"`);
  return n;
}
