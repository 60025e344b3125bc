/**
 * API keys (spec 2.6 and 5): `cpet_<id>_<secret>`; only SHA-256 of the whole key is stored, so a
 * leaked store does not leak usable keys. The id in the clear lets authentication fetch one record
 * instead of scanning, and the hash comparison runs in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type Keyv from 'keyv';
import type { Product, Tier } from '../analyses/analysis-plugin.js';

export type { Product, Tier } from '../analyses/analysis-plugin.js';

/** Every tier, lowest first. */
export const TIERS: readonly Tier[] = ['free', 'pro', 'research'];
/** Every product a key can be licensed for. */
export const PRODUCTS: readonly Product[] = ['vt', 'eov', 'substrate'];
/** The fixed prefix of every key (spec 2.6). */
export const KEY_PREFIX = 'cpet_';

/** A key as stored: the hash, never the secret. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** Hex SHA-256 of the full presented key. */
  hash: string;
  tier: Tier;
  products: Product[];
  monthly_limit: number | null;
  /** ISO 8601 instant after which the key answers KEY_EXPIRED. */
  expires_at: string | null;
  allowed_models: string[] | null;
  created_at: string;
  revoked_at: string | null;
}

/** What the operator asks for when creating a key. */
export interface NewKey {
  name: string;
  tier: Tier;
  products: Product[];
  monthly_limit?: number | null;
  /** ISO 8601 instant, or a date `YYYY-MM-DD` meaning the end of that day (UTC). */
  expires_at?: string | null;
  allowed_models?: string[] | null;
}

/** The outcome of presenting a key. */
export type AuthResult = { status: 'ok'; record: ApiKeyRecord } | { status: 'invalid' } | { status: 'expired'; record: ApiKeyRecord };

/** Operator and server operations on API keys. */
export interface KeyStore {
  /** Creates a key; `key` is returned once and never stored. */
  create(spec: NewKey): Promise<{ key: string; record: ApiKeyRecord }>;
  /** Every key, revoked ones included, oldest first. */
  list(): Promise<ApiKeyRecord[]>;
  /** Revokes by id, else the active key of that name; null when nothing matches. */
  revoke(idOrName: string): Promise<ApiKeyRecord | null>;
  /** 'ok' with the record, or why not (revoked and unknown keys are both 'invalid'). */
  authenticate(presented: string): Promise<AuthResult>;
  /** Number of keys ever created and still stored, revoked ones included. */
  count(): Promise<number>;
  /** The key with this id (revoked ones included), or null. */
  get(id: string): Promise<ApiKeyRecord | null>;
}

/** A key specification the store refuses; the message says what would have worked. */
export class KeySpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeySpecError';
  }
}

const ID_BYTES = 8;
const SECRET_BYTES = 32;
const KEY_PATTERN = /^cpet_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const MODEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Compared against when the id is unknown, so a miss costs the same as a wrong secret. */
const DUMMY_HASH = Buffer.alloc(32);

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Normalises an expiry to an ISO instant; a bare date means the key works through that whole day. */
export function normaliseExpiry(value: string): string {
  const text = value.trim();
  const instant = DATE_ONLY.test(text) ? Date.parse(`${text}T23:59:59.999Z`) : Date.parse(text);
  if (!Number.isFinite(instant)) {
    throw new KeySpecError(`expires_at "${value}" is not a date; use YYYY-MM-DD or an ISO 8601 instant`);
  }
  return new Date(instant).toISOString();
}

function validate(spec: NewKey): Omit<ApiKeyRecord, 'id' | 'hash' | 'created_at' | 'revoked_at'> {
  if (typeof spec.name !== 'string' || !NAME_PATTERN.test(spec.name)) {
    throw new KeySpecError('name must be 1-64 characters of letters, digits, ".", "_" or "-", starting with a letter or digit');
  }
  if (!TIERS.includes(spec.tier)) {
    throw new KeySpecError(`tier must be one of ${TIERS.join(', ')}`);
  }
  if (!Array.isArray(spec.products) || spec.products.length === 0) {
    throw new KeySpecError(`products must list at least one of ${PRODUCTS.join(', ')}`);
  }
  const unknown = spec.products.filter((p) => !PRODUCTS.includes(p));
  if (unknown.length > 0) {
    throw new KeySpecError(`unknown product(s) ${unknown.join(', ')}; products are ${PRODUCTS.join(', ')}`);
  }
  const limit = spec.monthly_limit ?? null;
  if (limit !== null && !(Number.isSafeInteger(limit) && limit > 0)) {
    throw new KeySpecError('monthly_limit must be a positive whole number, or absent for no limit');
  }
  const models = spec.allowed_models ?? null;
  if (models !== null) {
    if (!Array.isArray(models) || models.length === 0) {
      throw new KeySpecError('allowed_models must name at least one model, or be absent for every model of the tier');
    }
    const bad = models.filter((m) => typeof m !== 'string' || !MODEL_PATTERN.test(m));
    if (bad.length > 0) throw new KeySpecError(`invalid model name(s): ${bad.join(', ')}`);
  }
  return {
    name: spec.name,
    tier: spec.tier,
    products: PRODUCTS.filter((p) => spec.products.includes(p)),
    monthly_limit: limit,
    expires_at: spec.expires_at == null ? null : normaliseExpiry(spec.expires_at),
    allowed_models: models === null ? null : [...new Set(models)],
  };
}

/**
 * A KeyStore over one keyv namespace holding `ApiKeyRecord`s by id, without TTL.
 * Name uniqueness is checked by reading the list first: key creation is a rare operator action,
 * so two simultaneous creations of one name are not guarded against.
 */
export function createKeyStore(keyv: Keyv, now: () => number): KeyStore {
  async function list(): Promise<ApiKeyRecord[]> {
    if (!keyv.iterator) throw new Error('the key store adapter cannot list its entries');
    const records: ApiKeyRecord[] = [];
    for await (const [, value] of keyv.iterator(undefined)) {
      records.push(value as ApiKeyRecord);
    }
    return records.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  return {
    async create(spec) {
      const fields = validate(spec);
      const clash = (await list()).find((r) => r.name === fields.name && r.revoked_at === null);
      if (clash) {
        throw new KeySpecError(`an active key named "${fields.name}" exists (id ${clash.id}); revoke it or pick another name`);
      }
      const id = randomBytes(ID_BYTES).toString('hex');
      const key = `${KEY_PREFIX}${id}_${randomBytes(SECRET_BYTES).toString('base64url')}`;
      const record: ApiKeyRecord = {
        id,
        ...fields,
        hash: sha256(key).toString('hex'),
        created_at: new Date(now()).toISOString(),
        revoked_at: null,
      };
      await keyv.set(id, record);
      return { key, record };
    },

    list,

    async get(id) {
      return ((await keyv.get(id)) as ApiKeyRecord | undefined) ?? null;
    },

    async revoke(idOrName) {
      const byId = /^[0-9a-f]{16}$/.test(idOrName) ? ((await keyv.get(idOrName)) as ApiKeyRecord | undefined) : undefined;
      const record = byId ?? (await list()).find((r) => r.name === idOrName && r.revoked_at === null);
      if (!record) return null;
      if (record.revoked_at !== null) return record;
      const revoked: ApiKeyRecord = { ...record, revoked_at: new Date(now()).toISOString() };
      await keyv.set(record.id, revoked);
      return revoked;
    },

    async authenticate(presented) {
      const match = typeof presented === 'string' ? KEY_PATTERN.exec(presented) : null;
      if (!match) return { status: 'invalid' };
      const record = (await keyv.get(match[1])) as ApiKeyRecord | undefined;
      const expected = record ? Buffer.from(record.hash, 'hex') : DUMMY_HASH;
      const presentedHash = sha256(presented);
      const same = expected.length === presentedHash.length && timingSafeEqual(expected, presentedHash);
      if (!record || !same || record.revoked_at !== null) return { status: 'invalid' };
      if (record.expires_at !== null && now() >= Date.parse(record.expires_at)) {
        return { status: 'expired', record };
      }
      return { status: 'ok', record };
    },

    async count() {
      return (await list()).length;
    },
  };
}
