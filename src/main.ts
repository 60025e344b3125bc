/**
 * `npm start`: opens the store (embedded SQLite in DATA_DIR unless REDIS_URL is set), creates a
 * local API key on first start, and listens. Prints the URL and, once, the new key.
 */
import { join } from 'node:path';
import { configFromEnv } from './config.js';
import { createService } from './server/app.js';
import { ensureLocalKey, LOCAL_KEY_FILE } from './store/bootstrap-key.js';

const config = configFromEnv();
const service = await createService(config);
const localKey = await ensureLocalKey(service.deps.store, config.dataDir);
const server = service.app.listen(config.port, config.host, () => {
  const url = `http://${config.host}:${config.port}`;
  console.log(`CPET analysis service listening on ${url} (store: ${service.deps.store.kind}, data: ${config.dataDir})`);
  console.log(`  web application: ${url}/   health: ${url}/health   API description: ${url}/v1/openapi.json   for language models: ${url}/llms.txt`);
  if (localKey) {
    console.log(`\nFirst start: created a local API key with every product (shown once; also saved to ${join(config.dataDir, LOCAL_KEY_FILE)}, mode 0600):`);
    console.log(`  ${localKey}\n`);
    console.log(`  try: curl -s -H 'X-API-Key: ${localKey}' ${url}/v1/capabilities`);
  }
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing`);
  server.close();
  await service.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
