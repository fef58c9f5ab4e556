/**
 * What an answer to a write means: the one table that the proxy, the activity record, the import and the
 * browser all read, so that a product is never called created in one place and unknown in another.
 *
 * A write is anything the proxy sends that may change the platform (a product create today). The table
 * does not depend on which write it was: a new kind of write is a new row of WRITE_KINDS, and every reader
 * follows the same table for it.
 *
 * The table, answer by answer:
 * - **done**: a 2xx whose body is the JSON the platform promises.
 * - **rejected**: a 4xx other than 429: the request was refused and nothing was written; 401 and 403 are
 *   a `configuration` matter (nothing succeeds until whoever runs the server fixes a key or a right). Our
 *   own server's refusals count the same (413 for a body too large, 409 from an import's guard).
 * - **not-processed**: the answer itself says the request was not handled, so sending it again cannot
 *   write twice: 429 ("too many requests" is decided before the request is handled), after `Retry-After`
 *   when given; and 503 *with* a `Retry-After` that reads: RFC 9110 (15.6.4) gives 503 to a server that is
 *   "currently unable to handle the request" and may say when to come back; platform-notes asks clients to
 *   honour it. A server that names the time to come back is refusing the request, not failing midway.
 * - **unknown**: no answer (at either hop), none in time, an answer broken off or that could not be read
 *   (a 2xx that is not JSON may not even be the platform's), a status that is not an answer of Site API v2
 *   (1xx, 3xx), a 503 *without* `Retry-After` (some gateways answer a bare 503 when the application behind
 *   them took too long, while it may still complete the request) and every other 5xx: the write may have
 *   been done, so it is never sent again without a person deciding.
 *
 * Browser-safe: no React, DOM or Node, and no zod (the first page reads it).
 */
import type { ErrorDetail } from './site-api';
import { isConfigurationStatus, retryAfterMs } from './write-status';

export { isConfigurationStatus, retryAfterMs } from './write-status';

/** The writes the proxy forwards, and the word each uses for one that was done (the activity record's outcome). */
export const WRITE_KINDS = {
  'create-product': { done: 'created' },
  'update-product': { done: 'updated' },
} as const satisfies Record<string, { done: string }>;
export type WriteKind = keyof typeof WRITE_KINDS;

/**
 * What came back for a write, as whoever reads it saw it:
 * - `none`: no answer at all, none in time, one broken off before it was complete, or the caller gone.
 * - `answer`: the status of whoever answered (the platform's when it answered, else our server's own),
 *   whether its body was what that status promises (`readable`: false for a success that is not JSON),
 *   its `Retry-After` as sent, and what it said (`message`, `details`: the spec's error shape).
 */
export type WriteAnswer =
  | { kind: 'none' }
  | {
      kind: 'answer';
      status: number;
      readable: boolean;
      retryAfter: string | null;
      message?: string | null;
      details?: readonly ErrorDetail[];
    };

/** What a write's answer means; see the table above. */
export type WriteOutcome =
  | { kind: 'done'; status: number }
  | { kind: 'rejected'; status: number; configuration: boolean; message: string | null; details: readonly ErrorDetail[] }
  /** `afterMs`: how long to wait before sending it again, from `Retry-After` (null: the caller's own back-off). */
  | { kind: 'not-processed'; status: number; afterMs: number | null }
  | { kind: 'unknown' };

export type WriteOutcomeKind = WriteOutcome['kind'];

/** What an answer to a write means: the one table (see above). `now` reads a `Retry-After` given as a date. */
export function writeOutcome(answer: WriteAnswer, now: number = Date.now()): WriteOutcome {
  if (answer.kind === 'none') return { kind: 'unknown' };
  const { status } = answer;
  if (status >= 200 && status < 300) return answer.readable ? { kind: 'done', status } : { kind: 'unknown' };
  // An error status says more than its body, readable or not.
  if (status === 429) return { kind: 'not-processed', status, afterMs: retryAfterMs(answer.retryAfter, now) };
  if (status === 503) {
    const afterMs = retryAfterMs(answer.retryAfter, now);
    return afterMs === null ? { kind: 'unknown' } : { kind: 'not-processed', status, afterMs };
  }
  if (status >= 400 && status < 500) {
    return {
      kind: 'rejected',
      status,
      configuration: isConfigurationStatus(status),
      message: answer.message ?? null,
      details: answer.details ?? [],
    };
  }
  return { kind: 'unknown' };
}

/** The word the activity record keeps for a write's outcome: `created` for a create that was done. */
export function recordedOutcome(outcome: WriteOutcome, write: WriteKind): string {
  return outcome.kind === 'done' ? WRITE_KINDS[write].done : outcome.kind;
}
