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

/**
 * For a write: true when the platform may have done it although no clear answer says so. No answer, no
 * answer in time, an answer that could not be read, and an error of the platform's own (5xx) all leave
 * the outcome unknown; a 4xx says it was refused, so nothing was written.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  const failure = classifyApiError(error);
  switch (failure.type) {
    case 'network':
    case 'timeout':
    case 'unreadable':
    case 'unexpected':
      return true;
    case 'configuration':
      return false;
    case 'answered':
      return failure.status >= 500;
  }
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
