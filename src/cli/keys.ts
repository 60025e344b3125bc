/**
 * The operator's API key commands: create, list, revoke (`cpet keys ...`, and `npm run keys -- ...`
 * through scripts/keys.ts). They work on the same store as the server (DATA_DIR, REDIS_URL).
 * Secrets are printed once, at creation, and never again: the store keeps only their SHA-256.
 */
import { openStore, type Store } from '../store/store.js';
import { KeySpecError, PRODUCTS, TIERS, type ApiKeyRecord, type NewKey, type Product, type Tier } from '../store/keys.js';
import { UsageError } from './args.js';

/** The usage text, with the command line that runs these commands (`cpet keys`, `npm run keys --`). */
export function keysUsage(program: string): string {
  const pad = ' '.repeat(program.length);
  return `Manage CPET service API keys (same store as the server: DATA_DIR, REDIS_URL).

Usage:
  ${program} create --name <name> --tier <${TIERS.join('|')}> --products <list>
  ${pad}        [--monthly-limit <n>] [--expires <YYYY-MM-DD|ISO instant>] [--models <list>]
  ${program} list
  ${program} revoke <id|name>
  ${program} --help

  --products   comma-separated, any of ${PRODUCTS.join(', ')}
  --models     comma-separated model names the key is restricted to (default: every model of its tier)
  --expires    a bare date means the key works through the end of that day (UTC)

Environment: DATA_DIR (default ./data), REDIS_URL (when set, keys live in Redis).
Exit codes: 0 done, 1 failed (e.g. nothing to revoke), 2 wrong usage.`;
}

const CREATE_OPTIONS = ['name', 'tier', 'products', 'monthly-limit', 'expires', 'models'] as const;
type CreateOption = (typeof CREATE_OPTIONS)[number];

function parseCreate(args: string[]): NewKey {
  const given = new Map<CreateOption, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = (eq === -1 ? arg.slice(2) : arg.slice(2, eq)) as CreateOption;
    if (!CREATE_OPTIONS.includes(name)) {
      throw new UsageError(`unknown option "--${name}"; create takes ${CREATE_OPTIONS.map((o) => `--${o}`).join(', ')}`);
    }
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value`);
    }
    if (given.has(name)) throw new UsageError(`--${name} given twice`);
    given.set(name, value);
  }
  for (const required of ['name', 'tier', 'products'] as const) {
    if (!given.has(required)) throw new UsageError(`create needs --${required}`);
  }
  const tier = given.get('tier') as string;
  if (!TIERS.includes(tier as Tier)) throw new UsageError(`--tier must be one of ${TIERS.join(', ')}, not "${tier}"`);
  const list = (text: string): string[] =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  const limitText = given.get('monthly-limit');
  let monthlyLimit: number | null = null;
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) {
      throw new UsageError(`--monthly-limit must be a positive whole number, not "${limitText}"`);
    }
    monthlyLimit = Number(limitText);
  }
  const models = given.get('models');
  return {
    name: given.get('name') as string,
    tier: tier as Tier,
    products: list(given.get('products') as string) as Product[],
    monthly_limit: monthlyLimit,
    expires_at: given.get('expires') ?? null,
    allowed_models: models === undefined ? null : list(models),
  };
}

function table(records: ApiKeyRecord[]): string {
  const header = ['ID', 'NAME', 'TIER', 'PRODUCTS', 'MONTHLY_LIMIT', 'EXPIRES', 'MODELS', 'REVOKED'];
  const rows = records.map((r) => [
    r.id,
    r.name,
    r.tier,
    r.products.join(','),
    r.monthly_limit === null ? '-' : String(r.monthly_limit),
    r.expires_at ?? '-',
    r.allowed_models === null ? '(all of tier)' : r.allowed_models.join(','),
    r.revoked_at ?? '-',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function run(store: Store, command: string, args: string[]): Promise<number> {
  if (command === 'create') {
    const { key, record } = await store.keys.create(parseCreate(args));
    console.log(`Created key "${record.name}" (id ${record.id}, tier ${record.tier}, products ${record.products.join(',')}).`);
    console.log('Store this key now; it is shown only once and cannot be recovered:');
    console.log(key);
    return 0;
  }
  if (command === 'list') {
    const records = await store.keys.list();
    console.log(records.length === 0 ? 'No keys.' : table(records));
    return 0;
  }
  const revoked = await store.keys.revoke(args[0]);
  if (!revoked) {
    console.error(`No key with id or active name "${args[0]}".`);
    return 1;
  }
  console.log(`Revoked key "${revoked.name}" (id ${revoked.id}) at ${revoked.revoked_at}.`);
  return 0;
}

async function keys(argv: string[], program: string): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(keysUsage(program));
    return command === undefined ? 2 : 0;
  }
  if (!['create', 'list', 'revoke'].includes(command)) throw new UsageError(`unknown command "${command}"`);
  // Check the arguments before touching the store, so a usage mistake never creates a data directory.
  if (command === 'create') parseCreate(args);
  if (command === 'list' && args.length > 0) throw new UsageError('list takes no arguments');
  if (command === 'revoke' && args.length !== 1) throw new UsageError('revoke needs exactly one id or name');
  const store = await openStore({ dataDir: process.env.DATA_DIR || './data', redisUrl: process.env.REDIS_URL || null });
  try {
    return await run(store, command, args);
  } finally {
    await store.close();
  }
}

/** Runs one key command; answers the exit code (0 done, 1 failed, 2 wrong usage) after printing why. */
export async function runKeys(argv: string[], program: string): Promise<number> {
  try {
    return await keys(argv, program);
  } catch (error) {
    if (error instanceof UsageError || error instanceof KeySpecError) {
      console.error(`keys: ${error.message}\nRun "${program} --help" for usage.`);
      return 2;
    }
    console.error(`keys: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
