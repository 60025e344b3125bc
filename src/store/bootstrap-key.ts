/**
 * First-start convenience (issue 2, item 5): with no keys at all, create one local key with every
 * product so `npm start` is usable at once. It is kept in a 0600 file; main shows it once on a
 * terminal only, never in a log.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRODUCTS } from './keys.js';
import type { Store } from './store.js';

/** File in the data directory that holds the bootstrap key. */
export const LOCAL_KEY_FILE = 'local-api-key';
/** Name of the bootstrap key. */
export const LOCAL_KEY_NAME = 'local';
/** The claim outlives any deployment; it only stops two instances bootstrapping at once. */
const BOOTSTRAP_CLAIM_TTL_MS = 100 * 365 * 24 * 3_600_000;

/**
 * On first start with no keys: create one 'local' key (tier research, every product), write it to
 * <dataDir>/local-api-key (mode 0600) and return it so main can print it once; otherwise null.
 * A revoked local key counts as a key, so revoking it never makes a new one appear.
 */
export async function ensureLocalKey(store: Store, dataDir: string): Promise<string | null> {
  if ((await store.keys.count()) > 0) return null;
  // Several instances may start together on one Redis: only the one that wins the claim creates.
  if (!(await store.consumeOnce('bootstrap:local-key', BOOTSTRAP_CLAIM_TTL_MS))) return null;
  const { key } = await store.keys.create({ name: LOCAL_KEY_NAME, tier: 'research', products: [...PRODUCTS] });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCAL_KEY_FILE);
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; an older file keeps its mode otherwise.
  await chmod(file, 0o600);
  return key;
}
