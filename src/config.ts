/**
 * Service configuration from the environment, with embedded defaults so `npm start` needs nothing.
 * The README's configuration table lists the same variables.
 */
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
  /** Worker threads for parsing and analyses (WORKERS, default 2; 0 runs them in the main thread). */
  workers: number;
  /** Base URL written into upload tickets (PUBLIC_BASE_URL); default: from the request's Host header. */
  publicBaseUrl: string | null;
  /** Extra format plugins from npm packages, comma-separated (FORMAT_PLUGINS). */
  formatPackages: string[];
  /** Injected clock (ms since epoch); tests set it, production uses Date.now. TICKET_SECRET is read by the store. */
  now: () => number;
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
    workers: integer(env.WORKERS, 2, 'WORKERS'),
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : null,
    formatPackages: (env.FORMAT_PLUGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    now: Date.now,
  };
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got "${value}"`);
  return n;
}
