/**
 * What every handler may use: configuration, store, task runner, the loaded plugins and registries,
 * and the API document. Built once by the app factory; handlers never build their own.
 */
import type { Config, Operations } from '../config.js';
import type { MetricRegistry } from '../metrics/registry.js';
import type { Plugins } from '../plugins.js';
import type { Store } from '../store/store.js';
import type { TaskRunner } from '../workers/pool.js';
import type { Logger } from './logger.js';
import type { Telemetry } from './telemetry.js';

export interface ServiceDeps {
  config: Config;
  /** The operations settings, defaults filled in. */
  operations: Operations;
  logger: Logger;
  telemetry: Telemetry;
  /** Set when shutdown starts: readiness answers 503 and every answer closes its connection. */
  lifecycle: { draining: boolean };
  store: Store;
  runner: TaskRunner;
  plugins: Plugins;
  metrics: MetricRegistry;
  /** The document the server routes by and serves at /v1/openapi.json (format ids filled in). */
  document: Record<string, unknown>;
  llms: { short: string; full: string };
  version: string;
  startedAtMs: number;
}
