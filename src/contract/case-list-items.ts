/**
 * What site-admin reads of one case in a list's page, besides the list's envelope (case-list.ts): its id
 * and when it was received. The activity record keeps the ids a person was shown, and the inbox's counts
 * compare when each case arrived with since when a person's "new" runs (case-work.ts, `isNewTo`); both
 * read a case the same way through here. Without zod, like case-list.ts.
 */
import { parse } from 'lossless-json';
import { isJsonObject } from './site-api-basics';

/** A case id at most, in characters: what the platform's ids look like, bounded (case-work.ts's CASE_ID). */
const MAX_CASE_ID_LENGTH = 64;

/** A number of 16 digits or more written in JSON text: one that may not survive JSON.parse. */
const LONG_NUMBER = /[:,[]\s*-?\d{16,}/;

/**
 * A list's answer parsed as JSON with every whole number beyond 2^53 kept as its digits (a string), so an
 * id such as 12345678901234567890 is recorded as the platform wrote it; throws on text that is not JSON.
 * JSON.parse unless the text has such a number: lossless-json took 4 to 10 times as long over a page of
 * 500 cases (2.5 to 12 ms against 0.4 to 1.2 ms, 160 KB, a loaded machine).
 */
export function parseListAnswer(text: string): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text) as unknown;
  return parse(text, null, (digits: string) => {
    const value = Number(digits);
    return Number.isSafeInteger(value) || !/^-?\d+$/.test(digits) ? value : digits;
  });
}

/** A case's id as text: its `id`, a string or a whole number; null when it has none that can be one. */
export function caseIdOf(item: unknown): string | null {
  if (!isJsonObject(item)) return null;
  const { id } = item;
  if (typeof id === 'number') return Number.isSafeInteger(id) && id >= 0 ? String(id) : null;
  if (typeof id === 'string' && id.length > 0 && id.length <= MAX_CASE_ID_LENGTH) return id;
  return null;
}

/** Epoch values below this are seconds (the platform's `created_at`); at or above it, milliseconds. */
const MILLISECONDS_FROM = 100_000_000_000;

/**
 * When a case was received, in ms: its `created_at`, which the platform writes as epoch seconds (a number,
 * or its digits as a string); milliseconds and ISO dates are read too. Null when it has none that reads.
 */
export function receivedAtMs(item: unknown): number | null {
  if (!isJsonObject(item)) return null;
  const value = item.created_at;
  const epoch = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : null;
  if (epoch !== null) {
    if (!Number.isFinite(epoch) || epoch < 0) return null;
    return Math.round(epoch < MILLISECONDS_FROM ? epoch * 1000 : epoch);
  }
  if (typeof value !== 'string' || value.length > 40) return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}
