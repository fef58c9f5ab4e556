/**
 * What a failure means, decided in one place for every feature: the words a person reads (the one
 * translator, `explainFailure`), whether the query client asks again and whether Try again may help. The
 * failure itself is classified once, by the fetch layer (`api-error.ts`). What a write's failure means
 * (whether it may be sent again, and its words) is in `write-meaning.ts`, which only the pages that write load.
 */
import type { ErrorDetail } from '@/contract/site-api';
import { STATUS_PHRASES } from '@/contract/site-api-basics';
import { ApiError, classifyApiError, type ApiFailure } from './api-error';

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
        : failure.status === 401
          ? 'Your sign-in has ended (it timed out, or you were signed out): sign in again.'
          : 'site-admin refused this: your role on this site does not allow it. An owner can give you another role on the People page.';
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

/** What a person was doing when the call failed: it changes what the failure means for them. */
export type FailureTask =
  | { kind: 'lookup'; form: string; id: string }
  /** A task whose words live with its own chunk (the inbox's list): how it words a failure. */
  | { kind: 'other'; textOf: (failure: ApiFailure, what: string) => FailureWords };

/** A failure's title and message, and whether the server's details help. */
export type FailureWords = Pick<FailureText, 'title' | 'message'> & { details?: boolean };

/** A failure in words: a title, what happened and what it means, and what a server said, if one did. */
export interface FailureText {
  title: string;
  message: string;
  /** Words a server sent (an error body's message), or a page fault's own message; never our own wording. */
  said: string | null;
  details: readonly ErrorDetail[];
  /** Another attempt might end otherwise (network, time-out, a server error); a 404 or 422 will not. */
  canRetry: boolean;
}

/** The message with what a server said after it, where it adds something: for a line of text. */
export function failureSentence(text: Pick<FailureText, 'message' | 'said'>): string {
  return text.said && !text.message.includes(text.said) ? `${text.message} It said: “${text.said}”` : text.message;
}

export const CONFIGURATION =
  'This is a configuration matter for whoever runs this server (its SITE_API_KEY and SITE_ID settings): the browser holds no key, so nothing typed here can fix it.';

export const whoAnswered = (failure: ApiFailure) =>
  failure.type !== 'unexpected' && 'by' in failure && failure.by === 'server' ? 'site-admin’s server' : 'The platform';

/** What a failed lookup means: both identifiers on 404, the platform's details on 422, whether to try again. */
export function lookupText(
  failure: ApiFailure,
  what: string,
  form: string,
  id: string,
): Pick<FailureText, 'title' | 'message'> & { details?: boolean } {
  switch (failure.type) {
    case 'unexpected':
      return { title: 'Something went wrong', message: 'The case could not be shown because of an unexpected error in this page.' };
    case 'network':
      return failure.hop === 'server'
        ? { title: 'site-admin’s server could not be reached', message: `${what} Check the connection and try again.` }
        : { title: 'The platform could not be reached', message: `${what} Try again in a moment.` };
    case 'timeout':
      return failure.hop === 'server'
        ? { title: 'No answer in time', message: `${what} The lookup was stopped; try again.` }
        : { title: 'The platform did not answer in time', message: `${what} It may be busy; try again in a moment.` };
    case 'unreadable':
      return failure.cutOff
        ? { title: 'The answer broke off', message: `${what} Try again.` }
        : {
            title: 'The answer was not a case',
            message: `${what} There is nothing to show. Try again; if it persists, the server or the platform is misbehaving.`,
          };
    case 'configuration':
      return failure.by === 'platform'
        ? {
            title:
              failure.status === 401
                ? 'The server’s platform credentials were refused'
                : 'The server’s platform credentials lack permission',
            message: `${what} ${CONFIGURATION}`,
          }
        : failure.status === 401
          ? { title: 'Your sign-in has ended', message: what }
          : { title: 'You may not look up cases on this site', message: what };
    case 'answered':
      break;
  }
  if (failure.by === 'platform' && failure.status === 404) {
    return {
      title: `No case ${id} in form ${form}`,
      message: `The platform has no case with the identifier “${id}” in the form with the identifier “${form}”. Check both: a case identifier belongs to one form.`,
    };
  }
  if (failure.by === 'platform' && failure.status === 422) {
    return {
      title: 'The platform rejected the identifiers',
      message: `Form “${form}” and case “${id}” are not identifiers the platform accepts.`,
      details: true,
    };
  }
  const who = whoAnswered(failure);
  if (failure.status === 429) return { title: `${who} is busy`, message: `${what} Wait a moment, then try again.` };
  if (failure.status >= 500)
    return { title: `${who} had a problem (${statusText(failure.status)})`, message: `${what} Try again in a moment.`, details: true };
  return { title: `The lookup failed (${statusText(failure.status)})`, message: `${what} The lookup was not accepted.`, details: true };
}

/** The one translator of failures into words, for every feature. */
export function explainFailure(error: unknown, task: FailureTask): FailureText {
  const failure = classifyApiError(error);
  const what = describeFailure(failure);
  const text = task.kind === 'lookup' ? lookupText(failure, what, task.form, task.id) : task.textOf(failure, what);
  const said = error instanceof ApiError ? error.said : error instanceof Error ? error.message || null : null;
  return {
    title: text.title,
    message: text.message,
    said,
    details: text.details && error instanceof ApiError ? error.details : [],
    canRetry: mayRetryHelp(failure),
  };
}
