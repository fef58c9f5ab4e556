/**
 * What to tell support staff when a lookup fails: a specific title and explanation per cause, the
 * platform's details on 422, and whether trying again could help.
 */
import type { ErrorDetail } from '@/contract/site-api';
import { ApiError } from '@/lib/api-client';

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

export function describeLookupError(error: unknown, form: string, id: string): LookupErrorView {
  if (!(error instanceof ApiError)) {
    return {
      title: 'Something went wrong',
      message: 'The case could not be shown because of an unexpected error in this page.',
      serverMessage: error instanceof Error ? error.message : null,
      details: [],
      canRetry: true,
    };
  }
  const server = error.message || null;
  const view = (title: string, message: string, canRetry: boolean, details: readonly ErrorDetail[] = []): LookupErrorView => ({
    title,
    message,
    serverMessage: server,
    details,
    canRetry,
  });

  switch (error.kind) {
    case 'network':
      return view('The server could not be reached', 'No answer came back: the connection may be down, or the server stopped. Check the connection and try again.', true);
    case 'timeout':
      return view('No answer in time', 'The lookup took too long and was stopped. The platform may be busy; try again.', true);
    case 'invalid-response':
      return view(
        'The answer was not a case',
        `The server answered${error.status ? ` ${error.status}` : ''} with something that is not a JSON object, so there is nothing to show. Try again; if it persists, the server or the platform is misbehaving.`,
        true,
      );
    case 'api':
      break;
  }

  switch (error.status) {
    case 404:
      return view(`No case ${id} in form ${form}`, `The platform has no case with the identifier “${id}” in the form with the identifier “${form}”. Check both: a case identifier belongs to one form.`, false);
    case 401:
      return view('The server’s platform credentials were refused', `The platform answered 401 ${error.error}: the API key or site id the server sends is missing or not valid. ${CONFIGURATION}`, false);
    case 403:
      return view('The server’s platform credentials lack permission', `The platform answered 403 ${error.error}: the key the server sends is valid but may not read this site’s form cases. ${CONFIGURATION}`, false);
    case 422:
      return view('The platform rejected the identifiers', `Form “${form}” and case “${id}” are not identifiers the platform accepts.`, false, error.details);
    case 502:
      return view('The platform could not be reached', 'The server is running but could not get an answer from the platform. Try again in a moment.', true);
    case 504:
      return view('No answer in time', 'The platform did not answer the server in time. Try again in a moment.', true);
    default:
      return view(
        `The lookup failed (${error.status} ${error.error})`,
        error.status >= 500 ? 'The server or the platform had a problem. Try again in a moment.' : 'The server did not accept the lookup.',
        error.status >= 500 || error.status === 429,
        error.details,
      );
  }
}
