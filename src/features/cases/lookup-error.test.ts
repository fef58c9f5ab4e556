import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorKind } from '@/lib/api-client';
import { describeLookupError } from './lookup-error';

const apiError = (status: number, error = 'Error', message = 'msg', details: { field: string; message: string }[] = [], platformStatus: number | null = status) =>
  new ApiError({ kind: 'api', status, platformStatus, error, message, details });
const failure = (kind: ApiErrorKind, status = 0, platformStatus: number | null = null) =>
  new ApiError({ kind, status, platformStatus, error: 'x', message: 'The server could not be reached.' });

describe('describeLookupError', () => {
  it('echoes both identifiers on 404, and offers no retry', () => {
    const view = describeLookupError(apiError(404, 'Not Found', 'Form 3 has no case 9.'), '3', '9');
    expect(view.title).toBe('No case 9 in form 3');
    expect(view.message).toContain('“9”');
    expect(view.message).toContain('“3”');
    expect(view.serverMessage).toBe('Form 3 has no case 9.');
    expect(view.canRetry).toBe(false);
  });

  it.each([401, 403])('calls the platform’s %i a matter of the server’s configuration', (status) => {
    const view = describeLookupError(apiError(status, status === 401 ? 'Unauthorized' : 'Forbidden'), '3', '1');
    expect(view.message).toMatch(/configuration matter for whoever runs this server/);
    expect(view.message).toMatch(/browser holds no key/);
    expect(view.canRetry).toBe(false);
  });

  it('tells our own server’s login apart from the platform’s credentials', () => {
    const view = describeLookupError(apiError(401, 'Unauthorized', 'Log in', [], null), '3', '1');
    expect(view.title).toBe('site-admin’s server refused the lookup (401 Unauthorized)');
    expect(view.message).toMatch(/sign in again/);
  });

  it('passes on the details of a 422', () => {
    const details = [{ field: 'id', message: 'The case identifier may contain only ASCII letters (A–Z, a–z), digits (0–9), "_" and "-", not “.”' }];
    const view = describeLookupError(apiError(422, 'Unprocessable Entity', 'bad', details), '3', 'a.b');
    expect(view.title).toBe('The platform rejected the identifiers');
    expect(view.details).toEqual(details);
  });

  it.each([
    ['no answer from our server', failure('network'), 'site-admin’s server could not be reached', /^No answer came from site-admin’s server/],
    ['the browser’s time limit', failure('timeout'), 'No answer in time', /did not answer in time/],
    ['our 502 without a platform status', apiError(502, 'Bad Gateway', 'x', [], null), 'The platform could not be reached', /could not reach the platform/],
    ['our 504', apiError(504, 'Gateway Timeout', 'x', [], null), 'The platform did not answer in time', /did not answer site-admin’s server in time/],
    ['the platform’s 500 in HTML (our 502)', new ApiError({ kind: 'api', status: 502, platformStatus: 500, error: 'Bad Gateway', message: 'x' }), 'The platform had a problem (500 Internal Server Error)', /^The platform answered 500 Internal Server Error/],
    ['the platform’s 500', apiError(500, 'Internal Server Error'), 'The platform had a problem (500 Internal Server Error)', /Try again in a moment/],
    ['the platform’s 200 in HTML (our 502)', new ApiError({ kind: 'api', status: 502, platformStatus: 200, error: 'Bad Gateway', message: 'x' }), 'The answer was not a case', /^The platform answered 200 with something that is not the JSON expected/],
    ['a page that is not JSON', failure('invalid-response', 200), 'The answer was not a case', /^site-admin’s server answered 200 with something/],
    ['an answer broken off', failure('cut-off', 200, 200), 'The answer broke off', /broke off before it was complete/],
    ['the platform’s 429', apiError(429, 'Too Many Requests'), 'The platform is busy', /Wait a moment/],
  ])('for %s, says what happened and offers a retry', (_what, error, title, message) => {
    const view = describeLookupError(error, '3', '1');
    expect(view.title).toBe(title);
    expect(view.message).toMatch(message);
    expect(view.canRetry).toBe(true);
  });

  it('never calls an answer from the platform “could not be reached”', () => {
    const answered = [apiError(500), apiError(502, 'Bad Gateway', 'x', [], 500), failure('invalid-response', 200), apiError(502, 'Bad Gateway', 'x', [], 200)];
    for (const error of answered) expect(describeLookupError(error, '3', '1').title).not.toMatch(/could not be reached/);
  });

  it('shows a server’s own words only when a server sent them', () => {
    expect(describeLookupError(failure('network'), '3', '1').serverMessage).toBeNull();
    expect(describeLookupError(apiError(500, 'Internal Server Error', 'Database down'), '3', '1').serverMessage).toBe('Database down');
  });

  it('names an unexpected error without crashing', () => {
    expect(describeLookupError(new TypeError('boom'), '3', '1')).toMatchObject({ title: 'Something went wrong', serverMessage: 'boom' });
  });
});
