import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorKind } from '@/lib/api-client';
import { describeLookupError } from './lookup-error';

const apiError = (status: number, error = 'Error', message = 'msg', details: { field: string; message: string }[] = []) =>
  new ApiError({ kind: 'api', status, error, message, details });
const failure = (kind: ApiErrorKind, status = 0) => new ApiError({ kind, status, error: 'x', message: 'The server could not be reached.' });

describe('describeLookupError', () => {
  it('echoes both identifiers on 404, and offers no retry', () => {
    const view = describeLookupError(apiError(404, 'Not Found', 'Form 3 has no case 9.'), '3', '9');
    expect(view.title).toBe('No case 9 in form 3');
    expect(view.message).toContain('“9”');
    expect(view.message).toContain('“3”');
    expect(view.canRetry).toBe(false);
  });

  it.each([401, 403])('calls %i a matter of the server’s configuration', (status) => {
    const view = describeLookupError(apiError(status, status === 401 ? 'Unauthorized' : 'Forbidden'), '3', '1');
    expect(view.message).toMatch(/configuration matter for whoever runs this server/);
    expect(view.message).toMatch(/browser holds no key/);
    expect(view.canRetry).toBe(false);
  });

  it('passes on the details of a 422', () => {
    const details = [{ field: 'id', message: 'The case identifier may contain only ASCII letters (A–Z, a–z), digits (0–9), "_" and "-", not “.”' }];
    const view = describeLookupError(apiError(422, 'Unprocessable Entity', 'bad', details), '3', 'a.b');
    expect(view.title).toBe('The platform rejected the identifiers');
    expect(view.details).toEqual(details);
  });

  it.each([
    [failure('network'), 'The server could not be reached'],
    [failure('timeout'), 'No answer in time'],
    [failure('invalid-response', 200), 'The answer was not a case'],
    [apiError(502), 'The platform could not be reached'],
    [apiError(504), 'No answer in time'],
    [apiError(500, 'Internal Server Error'), 'The lookup failed (500 Internal Server Error)'],
  ])('offers a retry for %s', (error, title) => {
    const view = describeLookupError(error, '3', '1');
    expect(view.title).toBe(title);
    expect(view.canRetry).toBe(true);
  });

  it('names an unexpected error without crashing', () => {
    expect(describeLookupError(new TypeError('boom'), '3', '1')).toMatchObject({ title: 'Something went wrong', serverMessage: 'boom' });
  });
});
