/**
 * What a failed call means, decided in one place for every feature: the case lookup's message, the
 * product create's "outcome unknown", and whether the query client tries again all follow from it.
 *
 * A call goes browser → our server → the platform, so "no answer" can fail at either hop. Our server says
 * which: it adds the platform's status (`x-platform-status`) to every answer the platform gave, so a 502
 * without it means the platform could not be reached, and a 502 with it means the platform answered
 * something that is not JSON.
 */
import { STATUS_PHRASES } from '@/contract/site-api-basics';
import { ApiError } from './api-client';

/** Which hop got no answer: the browser from our server, or our server from the platform. */
export type Hop = 'server' | 'platform';

export type ApiFailure =
  /** No answer at all, before anything arrived. */
  | { type: 'network'; hop: Hop }
  /** No complete answer in time: the browser's own limit (`hop: 'server'`) or our server's 504. */
  | { type: 'timeout'; hop: Hop }
  /** 401 or 403: whoever runs the server must fix credentials or permissions; nothing typed here helps. */
  | { type: 'configuration'; status: 401 | 403; by: Hop }
  /** An answer with an error status: 404, 422, 429, 500, ... `status` is the status of whoever answered. */
  | { type: 'answered'; status: number; by: Hop }
  /** An answer that could not be read: not JSON, not the expected shape, or broken off midway. */
  | { type: 'unreadable'; status: number; by: Hop; cutOff: boolean }
  /** Not a failure of the call at all: a fault in this page. */
  | { type: 'unexpected' };

export function classifyApiError(error: unknown): ApiFailure {
  if (!(error instanceof ApiError)) return { type: 'unexpected' };
  if (error.kind === 'network') return { type: 'network', hop: 'server' };
  if (error.kind === 'timeout') return { type: 'timeout', hop: 'server' };
  const platform = error.platformStatus;
  const by: Hop = platform === null ? 'server' : 'platform';
  const status = platform ?? error.status;
  if (error.kind === 'cut-off') return { type: 'unreadable', status, by, cutOff: true };
  if (error.kind === 'api' && platform === null) {
    // Our server's own answers about the platform: it could not reach it, or gave up waiting.
    if (error.status === 502) return { type: 'network', hop: 'platform' };
    if (error.status === 504) return { type: 'timeout', hop: 'platform' };
  }
  // A success status with a body that is not the JSON expected (our server turns the platform's into a
  // 502, with the platform's 200 beside it). With an error status, the status says more than the body.
  if (status < 400) return { type: 'unreadable', status, by, cutOff: false };
  if (status === 401 || status === 403) return { type: 'configuration', status, by };
  return { type: 'answered', status, by };
}

/** A status with its standard phrase where there is one: "500 Internal Server Error", "418". */
export function statusText(status: number): string {
  const phrase = STATUS_PHRASES[status];
  return phrase ? `${status} ${phrase}` : String(status);
}

/**
 * Whether the query client asks once more by itself: only after a network failure before any answer from
 * our server, and only once. Never after our server answered, 502 and 504 included: it has already waited
 * for the platform (15 s by default), and asking again would make the person wait that long twice more.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const failure = classifyApiError(error);
  return failureCount < 1 && failure.type === 'network' && failure.hop === 'server';
}

/** Whether the person may usefully press Try again: nothing says the next attempt must end the same way. */
export function mayRetryHelp(failure: ApiFailure): boolean {
  switch (failure.type) {
    case 'network':
    case 'timeout':
    case 'unreadable':
    case 'unexpected':
      return true;
    case 'configuration':
      return false;
    case 'answered':
      return failure.status >= 500 || failure.status === 429;
  }
}

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

/**
 * What an answer to a write (a product create) means, the same for the editor and the import:
 * - `not-processed`: the answer itself says the request was not handled, so sending it again cannot
 *   create a second product. `afterMs` is how long to wait first (null: the caller's own back-off).
 * - `refused`: a 4xx other than 401, 403 and 429: the request was refused; nothing was written.
 * - `configuration`: 401 or 403: nothing can succeed until whoever runs the server fixes a key or a right.
 * - `unknown`: no answer, none in time, an answer that could not be read, or a server error: the product
 *   may exist, so it is never sent again without a person deciding.
 *
 * The table, status by status:
 * - 429 (from the platform or from our server): "too many requests" is decided before the request is
 *   handled, so it was not: not-processed, after `Retry-After` if given.
 * - 503 *with* `Retry-After`: RFC 9110 (15.6.4) gives 503 to a server that is "currently unable to handle
 *   the request" and may say, with `Retry-After`, when to come back; platform-notes asks clients to honour
 *   it. A server that names the time to come back is refusing the request, not failing midway:
 *   not-processed, sent again after that time.
 * - 503 *without* `Retry-After`: some gateways answer a bare 503 when the application behind them took too
 *   long, after the request had reached it and while it may still complete. Nothing in the answer says
 *   the product was not created: unknown, like every other 5xx.
 */
export type WriteMeaning =
  | { type: 'not-processed'; status: number; afterMs: number | null }
  | { type: 'refused'; status: number }
  | { type: 'configuration'; status: 401 | 403 }
  | { type: 'unknown' };

export function writeMeaning(error: unknown, now: number = Date.now()): WriteMeaning {
  const failure = classifyApiError(error);
  switch (failure.type) {
    case 'network':
    case 'timeout':
    case 'unreadable':
    case 'unexpected':
      return { type: 'unknown' };
    case 'configuration':
      return { type: 'configuration', status: failure.status };
    case 'answered': {
      const retryAfter = error instanceof ApiError ? error.retryAfter : null;
      if (failure.status === 429) return { type: 'not-processed', status: 429, afterMs: retryAfterMs(retryAfter, now) };
      if (failure.status === 503) {
        const afterMs = retryAfterMs(retryAfter, now);
        return afterMs === null ? { type: 'unknown' } : { type: 'not-processed', status: 503, afterMs };
      }
      return failure.status >= 500 ? { type: 'unknown' } : { type: 'refused', status: failure.status };
    }
  }
}

/** For a write: true when the platform may have done it although no clear answer says so (see `writeMeaning`). */
export function isOutcomeUnknown(error: unknown): boolean {
  return writeMeaning(error).type === 'unknown';
}

/** One sentence on what happened, the same for every feature; each adds what it means for its task. */
export function describeFailure(failure: ApiFailure): string {
  switch (failure.type) {
    case 'network':
      return failure.hop === 'server'
        ? 'No answer came from site-admin’s server: the connection may be down, or the server stopped.'
        : 'site-admin’s server is running, but could not reach the platform (or lost the connection before the platform answered).';
    case 'timeout':
      return failure.hop === 'server'
        ? 'site-admin’s server did not answer in time.'
        : 'The platform did not answer site-admin’s server in time.';
    case 'configuration':
      return failure.by === 'platform'
        ? `The platform answered ${statusText(failure.status)}: ${
            failure.status === 401
              ? 'the API key or site id that site-admin’s server sends is missing or not valid.'
              : 'the key that site-admin’s server sends is valid, but lacks permission for this.'
          }`
        : `site-admin’s server refused the request (${statusText(failure.status)}).`;
    case 'answered':
      return failure.by === 'platform'
        ? `The platform answered ${statusText(failure.status)}.`
        : `site-admin’s server answered ${statusText(failure.status)}.`;
    case 'unreadable': {
      const who = failure.by === 'platform' ? 'The platform' : 'site-admin’s server';
      return failure.cutOff
        ? `${who} answered ${failure.status}, but the answer broke off before it was complete.`
        : `${who} answered ${failure.status} with something that is not the JSON expected.`;
    }
    case 'unexpected':
      return 'Something unexpected went wrong in this page.';
  }
}
