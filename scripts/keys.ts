/**
 * `npm run keys -- create|list|revoke|--help`: the operator's API key commands (src/cli/keys.ts,
 * also `cpet keys ...`), on the same store as the server (DATA_DIR, REDIS_URL).
 */
import { runKeys } from '../src/cli/keys.js';

process.exitCode = await runKeys(process.argv.slice(2), 'npm run keys --');
