/**
 * What a failed call to one of our own endpoints (signing in, people, your account, the activity record,
 * the import) means for the page that made it: the one translator, read from the fetch layer's
 * classification (`api-error.ts`), as `explainFailure` (`api-error-class.ts`) is for the platform's calls.
 */
import { ApiError, classifyApiError } from './api-error';
import { retryAfterMs } from '@/contract/write-status';
import { describeFailure } from './api-error-class';

/**
 * - `unreachable`: no answer, none in time, or our server could not answer (a 5xx, an answer it could not
 *   finish or that is not what was expected): nothing says the call was refused; the same call may work later.
 * - `not-signed-in`: our server answered 401: no session (it ended, or a sign-in step was not accepted).
 * - `throttled`: 429, too many attempts: wait, then try again.
 * - `refused`: any other answer: the server refused the call, in its own words.
 * - `unexpected`: not a failure of the call but a fault of the page's own (or a call the page cancelled).
 */
export type OwnApiFailureKind = 'unreachable' | 'not-signed-in' | 'throttled' | 'refused' | 'unexpected';

export interface OwnApiFailure {
  kind: OwnApiFailureKind;
  /** What the person reads. */
  text: string;
  /** Our server's own words (its error body's message), where it sent some. */
  said: string | null;
}

/** The task's own words, where it knows better than the server's status what a failure means. */
export interface OwnApiWords {
  /** For 429, before how long to wait: "Too many failed sign-ins." */
  throttled?: string;
  /** For a 400 or 401 that came without words of the server's: "That e-mail address and password do not match." */
  refused?: string;
}

export function kindOfOwnApiFailure(error: unknown): OwnApiFailureKind {
  const failure = classifyApiError(error);
  switch (failure.type) {
    case 'network':
    case 'timeout':
    case 'unreadable':
      return 'unreachable';
    case 'unexpected':
      return 'unexpected';
    case 'configuration':
      return failure.status === 401 && failure.by === 'server' ? 'not-signed-in' : 'refused';
    case 'answered':
      if (failure.status === 429) return 'throttled';
      return failure.status >= 500 ? 'unreachable' : 'refused';
  }
}

/** Our own server's 401: nobody is signed in on this browser any more (a platform's 401 is not one). */
export const isNotSignedIn = (error: unknown): boolean => kindOfOwnApiFailure(error) === 'not-signed-in';

/** The one translator of an own-API failure into what it means and the words a person reads. */
export function explainOwnApiFailure(error: unknown, words: OwnApiWords = {}): OwnApiFailure {
  const kind = kindOfOwnApiFailure(error);
  const failure = classifyApiError(error);
  const said = error instanceof ApiError ? error.said : null;
  // No answer, or none in time: whatever words there are, they are not a server's.
  if (failure.type === 'network' || failure.type === 'timeout') return { kind, text: describeFailure(failure), said: null };
  if (kind === 'throttled') {
    const ms = error instanceof ApiError ? retryAfterMs(error.retryAfter, Date.now()) : null;
    const seconds = ms === null ? null : Math.max(1, Math.ceil(ms / 1000));
    const why = words.throttled ?? said ?? 'Too many attempts.';
    return { kind, text: `${why} Wait ${seconds === null ? 'a moment' : `${seconds} seconds`}, then try again.`, said };
  }
  const status = error instanceof ApiError ? error.status : 0;
  const fallback = words.refused !== undefined && (status === 400 || status === 401) ? words.refused : describeFailure(failure);
  return { kind, text: said ?? fallback, said };
}

/** What a failed own-API call tells the person, in one line. */
export const ownApiFailureText = (error: unknown, words?: OwnApiWords): string => explainOwnApiFailure(error, words).text;
