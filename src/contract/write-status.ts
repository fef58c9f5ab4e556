/**
 * The two readings of a status that the first page needs from the write table (write-outcome.ts): how
 * long a `Retry-After` asks to wait, and whether a status is a configuration matter. Apart from the table
 * so that the first page, which reads statuses but writes nothing, loads none of the rest.
 */

/** A `Retry-After` longer than this is read as this: the person can still cancel or come back. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/** `Retry-After` as ms to wait: seconds, or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d{1,9}$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.min(Math.max(date - now, 0), MAX_RETRY_AFTER_MS);
}

/** 401 and 403: a key, a right or a sign-in is missing; nothing typed in the page can change that. */
export function isConfigurationStatus(status: number): status is 401 | 403 {
  return status === 401 || status === 403;
}
