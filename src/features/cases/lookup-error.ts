/**
 * What to tell support staff when a lookup fails: the failure's class (src/lib/api-error-class.ts) decides;
 * this adds what it means for a lookup: both identifiers on 404, the platform's details on 422, and
 * whether trying again could help.
 */
import type { ErrorDetail } from '@/contract/site-api';
import { ApiError } from '@/lib/api-client';
import { classifyApiError, describeFailure, mayRetryHelp, statusText } from '@/lib/api-error-class';

export interface LookupErrorView {
  title: string;
  message: string;
  /** What the server said, when it adds something to the message. */
  serverMessage: string | null;
  details: readonly ErrorDetail[];
  /** Another attempt might succeed (network, timeout, a server error); 404 or 422 will not change. */
  canRetry: boolean;
}

const CONFIGURATION =
  'This is a configuration matter for whoever runs this server (its SITE_API_KEY and SITE_ID settings): the browser holds no key, so nothing typed here can fix it.';

/** Words a server sent (an error body's message), or a page fault's own message; never our own wording. */
function serverMessageOf(error: unknown): string | null {
  if (error instanceof ApiError) return error.kind === 'api' ? error.message || null : null;
  return error instanceof Error ? error.message || null : null;
}

export function describeLookupError(error: unknown, form: string, id: string): LookupErrorView {
  const failure = classifyApiError(error);
  const what = describeFailure(failure);
  const view = (title: string, message: string, details: readonly ErrorDetail[] = []): LookupErrorView => ({
    title,
    message,
    serverMessage: serverMessageOf(error),
    details,
    canRetry: mayRetryHelp(failure),
  });

  switch (failure.type) {
    case 'unexpected':
      return view('Something went wrong', 'The case could not be shown because of an unexpected error in this page.');
    case 'network':
      return failure.hop === 'server'
        ? view('site-admin’s server could not be reached', `${what} Check the connection and try again.`)
        : view('The platform could not be reached', `${what} Try again in a moment.`);
    case 'timeout':
      return failure.hop === 'server'
        ? view('No answer in time', `${what} The lookup was stopped; try again.`)
        : view('The platform did not answer in time', `${what} It may be busy; try again in a moment.`);
    case 'unreadable':
      return failure.cutOff
        ? view('The answer broke off', `${what} Try again.`)
        : view('The answer was not a case', `${what} There is nothing to show. Try again; if it persists, the server or the platform is misbehaving.`);
    case 'configuration':
      return failure.by === 'platform'
        ? view(
            failure.status === 401 ? 'The server’s platform credentials were refused' : 'The server’s platform credentials lack permission',
            `${what} ${CONFIGURATION}`,
          )
        : view(
            `site-admin’s server refused the lookup (${statusText(failure.status)})`,
            `${what} ${failure.status === 401 ? 'Reload the page to sign in again.' : 'Reload the page and try again.'}`,
          );
    case 'answered':
      break;
  }

  const details = error instanceof ApiError ? error.details : [];
  if (failure.by === 'platform' && failure.status === 404) {
    return view(
      `No case ${id} in form ${form}`,
      `The platform has no case with the identifier “${id}” in the form with the identifier “${form}”. Check both: a case identifier belongs to one form.`,
    );
  }
  if (failure.by === 'platform' && failure.status === 422) {
    return view('The platform rejected the identifiers', `Form “${form}” and case “${id}” are not identifiers the platform accepts.`, details);
  }
  const who = failure.by === 'platform' ? 'The platform' : 'site-admin’s server';
  if (failure.status === 429) return view(`${who} is busy`, `${what} Wait a moment, then try again.`);
  if (failure.status >= 500) return view(`${who} had a problem (${statusText(failure.status)})`, `${what} Try again in a moment.`, details);
  return view(`The lookup failed (${statusText(failure.status)})`, `${what} The lookup was not accepted.`, details);
}
