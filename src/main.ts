/**
 * `npm start`: opens the store (embedded SQLite in DATA_DIR unless REDIS_URL is set), creates a
 * local API key on first start, and listens. SIGTERM and SIGINT drain in-flight requests, then close
 * the worker pool and the store (lifecycle.ts). Logs are JSON lines on stdout (pino).
 */
import { join } from 'node:path';
import { configFromEnv, operationsOf } from './config.js';
import { createService } from './server/app.js';
import { serve } from './server/lifecycle.js';
import { ensureLocalKey, LOCAL_KEY_FILE } from './store/bootstrap-key.js';

const config = configFromEnv();
const service = await createService(config);
const { logger } = service.deps;
const localKey = await ensureLocalKey(service.deps.store, config.dataDir);
const running = await serve(service, config.port, config.host);
const url = `http://${config.host}:${running.port}`;
const keyFile = join(config.dataDir, LOCAL_KEY_FILE);
logger.info({ url, store: service.deps.store.kind, data_dir: config.dataDir, workers: config.workers, cors_origins: operationsOf(config).corsOrigins }, `CPET analysis service listening on ${url}`);
if (localKey) {
  // The key goes to the file only; a terminal also shows it once, a log collector never sees it.
  logger.info({ key_file: keyFile }, `first start: created a local API key with every product in ${keyFile} (mode 0600)`);
  if (process.stdout.isTTY) {
    process.stdout.write(`\nFirst start: your local API key (also in ${keyFile}):\n  ${localKey}\n  try: curl -s -H "X-API-Key: $(cat ${keyFile})" ${url}/v1/capabilities\n\n`);
  }
}
if (process.stdout.isTTY) {
  process.stdout.write(`  web application: ${url}/   health: ${url}/health   ready: ${url}/ready   API description: ${url}/v1/openapi.json\n`);
}

const stop = (signal: string): void => {
  running.shutdown(signal).then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
