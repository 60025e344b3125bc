/**
 * Per-deployment secrets (the ticket signing key). Every instance must sign and verify with the same
 * bytes, so a secret is either derived from the operator's TICKET_SECRET or created once in the store.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Bytes of a store-generated secret. */
export const SECRET_BYTES = 32;
/** Shortest TICKET_SECRET accepted: fewer characters than this is guessable. */
export const MIN_ENV_SECRET_LENGTH = 32;

/**
 * The secret for `name` derived from TICKET_SECRET, or null when the variable is unset. Each name
 * gets its own HMAC-derived secret, so one operator value never doubles as two keys.
 */
export function secretFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): Buffer | null {
  const value = env.TICKET_SECRET;
  if (value === undefined || value === '') return null;
  if (value.length < MIN_ENV_SECRET_LENGTH) {
    throw new Error(`TICKET_SECRET must be at least ${MIN_ENV_SECRET_LENGTH} characters (e.g. openssl rand -base64 48)`);
  }
  return createHmac('sha256', value).update(`cpet-shared-secret:${name}`).digest();
}

/** A fresh random secret, base64-encoded for storage. */
export function newSecretText(): string {
  return randomBytes(SECRET_BYTES).toString('base64');
}
