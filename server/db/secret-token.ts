/**
 * A secret that only a browser's cookie or a link holds (a session id, a step of a sign-in in progress, a
 * one-time link's token): 256 random bits, base64url (43 characters). The database keeps its SHA-256 and
 * looks it up by that, so a copy of the database signs nobody in and opens nothing. A fast hash is enough:
 * the token is random, not a guessable password.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A new token: 32 random bytes, base64url. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token, and finds it by. */
export function secretTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `value` is shaped like a token (43 base64url characters): anything else is not looked up. */
export function isSecretToken(value: string | undefined): value is string {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);
}
