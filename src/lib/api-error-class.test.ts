import { describe, expect, it } from 'vitest';
import { apiErrors, classifyApiError, type ApiFailure } from './api-error';
import { describeFailure, mayRetryHelp, shouldRetryQuery } from './api-error-class';
import { isOutcomeUnknown, writeMeaning, type WriteMeaning } from './write-meaning';

type What = 'api' | 'network' | 'timeout' | 'invalid-response' | 'cut-off';
/** An error as the fetch layer throws it for what it got back. */
const error = (what: What, status: number, platformStatus: number | null = null) =>
  what === 'network'
    ? apiErrors.noAnswer()
    : what === 'timeout'
      ? apiErrors.noAnswerInTime(30)
      : what === 'cut-off'
        ? apiErrors.cutOff(status, platformStatus)
        : what === 'invalid-response'
          ? apiErrors.notJson(status, platformStatus)
          : apiErrors.answered(status, platformStatus, { message: 'm' });

const noAnswer = error('network', 0);
const browserTimeout = error('timeout', 0);
const platformUnreachable = error('api', 502);
const platformTimeout = error('api', 504);
const platform500Html = error('api', 502, 500);
const platform200Html = error('api', 502, 200);
const platform500 = error('api', 500, 500);
const notFound = error('api', 404, 404);
const rejected = error('api', 422, 422);
const credentials = error('api', 401, 401);
const ourLogin = error('api', 401);
const notJsonFromUs = error('invalid-response', 200);
const notACase = error('invalid-response', 200, 200);
const cutOff = error('cut-off', 200, 200);

describe('classifyApiError', () => {
  it.each<[string, unknown, ApiFailure]>([
    ['no answer from our server', noAnswer, { type: 'network', hop: 'server' }],
    ['the browser’s own time limit', browserTimeout, { type: 'timeout', hop: 'server' }],
    ['our 502 without a platform status: the platform could not be reached', platformUnreachable, { type: 'network', hop: 'platform' }],
    ['our 504: the platform did not answer in time', platformTimeout, { type: 'timeout', hop: 'platform' }],
    [
      'our 502 for the platform’s 500 in HTML: the platform’s own error',
      platform500Html,
      { type: 'answered', status: 500, by: 'platform' },
    ],
    [
      'our 502 for the platform’s 200 in HTML: an unreadable answer',
      platform200Html,
      { type: 'unreadable', status: 200, by: 'platform', cutOff: false },
    ],
    ['the platform’s 500 passed on', platform500, { type: 'answered', status: 500, by: 'platform' }],
    ['404', notFound, { type: 'answered', status: 404, by: 'platform' }],
    ['422', rejected, { type: 'answered', status: 422, by: 'platform' }],
    ['the platform’s 401', credentials, { type: 'configuration', status: 401, by: 'platform' }],
    ['our server’s own 401 (its login)', ourLogin, { type: 'configuration', status: 401, by: 'server' }],
    ['our 403 (another origin)', error('api', 403), { type: 'configuration', status: 403, by: 'server' }],
    [
      'a page that is not JSON from in front of our server',
      notJsonFromUs,
      { type: 'unreadable', status: 200, by: 'server', cutOff: false },
    ],
    ['an HTML 502 from a proxy in front of ours', error('invalid-response', 502), { type: 'answered', status: 502, by: 'server' }],
    ['JSON that is not a case', notACase, { type: 'unreadable', status: 200, by: 'platform', cutOff: false }],
    ['an answer broken off midway', cutOff, { type: 'unreadable', status: 200, by: 'platform', cutOff: true }],
    ['our server’s own 413', error('api', 413), { type: 'answered', status: 413, by: 'server' }],
    ['a fault in the page', new TypeError('x is undefined'), { type: 'unexpected' }],
  ])('%s', (_what, input, expected) => {
    expect(classifyApiError(input)).toEqual(expected);
  });
});

describe('shouldRetryQuery', () => {
  it('asks once more after no answer at all, and only once', () => {
    expect(shouldRetryQuery(0, noAnswer)).toBe(true);
    expect(shouldRetryQuery(1, noAnswer)).toBe(false);
  });

  it.each([
    ['our 504', platformTimeout],
    ['our 502', platformUnreachable],
    ['the browser’s time limit', browserTimeout],
    ['a platform 500', platform500],
    ['404', notFound],
    ['401', credentials],
    ['an unreadable answer', notACase],
    ['a cut-off answer', cutOff],
    ['a fault in the page', new Error('bug')],
  ])('never after %s: somebody answered, or waiting again is pointless', (_what, input) => {
    expect(shouldRetryQuery(0, input)).toBe(false);
  });
});

describe('mayRetryHelp', () => {
  it('offers another try where the next attempt may end otherwise', () => {
    for (const input of [
      noAnswer,
      browserTimeout,
      platformUnreachable,
      platformTimeout,
      platform500,
      platform500Html,
      notACase,
      cutOff,
      error('api', 429, 429),
    ]) {
      expect(mayRetryHelp(classifyApiError(input))).toBe(true);
    }
    for (const input of [notFound, rejected, credentials, ourLogin]) expect(mayRetryHelp(classifyApiError(input))).toBe(false);
  });
});

describe('isOutcomeUnknown', () => {
  it('is unknown without a clear answer: no answer, none in time, unreadable, or the platform’s own error', () => {
    for (const input of [
      noAnswer,
      browserTimeout,
      platformUnreachable,
      platformTimeout,
      platform500Html,
      platform500,
      notACase,
      cutOff,
      new Error('bug'),
    ]) {
      expect(isOutcomeUnknown(input)).toBe(true);
    }
  });

  it('is known when the platform refused: nothing was created', () => {
    for (const input of [error('api', 400, 400), rejected, credentials, ourLogin, error('api', 413)])
      expect(isOutcomeUnknown(input)).toBe(false);
  });
});

describe('writeMeaning: what each answer to a create means, for the editor and the import alike', () => {
  const withRetryAfter = (status: number, retryAfter: string | null, platformStatus: number | null = status) =>
    apiErrors.answered(status, platformStatus, { message: 'm' }, retryAfter);
  const now = Date.parse('2026-03-01T10:00:00Z');
  const table: [string, unknown, WriteMeaning][] = [
    ['no answer from our server', noAnswer, { type: 'unknown' }],
    ['no answer in time (browser)', browserTimeout, { type: 'unknown' }],
    ['the platform could not be reached (502)', platformUnreachable, { type: 'unknown' }],
    ['the platform did not answer in time (504)', platformTimeout, { type: 'unknown' }],
    ['an answer cut off', cutOff, { type: 'unknown' }],
    ['a 200 that is not JSON', notACase, { type: 'unknown' }],
    ['a fault in the page', new Error('bug'), { type: 'unknown' }],
    ['400', error('api', 400, 400), { type: 'refused', status: 400 }],
    ['404', notFound, { type: 'refused', status: 404 }],
    ['413 from our server', error('api', 413), { type: 'refused', status: 413 }],
    ['422', rejected, { type: 'refused', status: 422 }],
    ['401 from the platform', credentials, { type: 'configuration', status: 401 }],
    ['401 from our server', ourLogin, { type: 'configuration', status: 401 }],
    ['403 from the platform', error('api', 403, 403), { type: 'configuration', status: 403 }],
    ['429 with Retry-After: 5', withRetryAfter(429, '5'), { type: 'not-processed', status: 429, afterMs: 5000 }],
    ['429 without Retry-After', withRetryAfter(429, null), { type: 'not-processed', status: 429, afterMs: null }],
    ['429 from our own server', withRetryAfter(429, '2', null), { type: 'not-processed', status: 429, afterMs: 2000 }],
    [
      '503 with Retry-After as a date',
      withRetryAfter(503, 'Sun, 01 Mar 2026 10:00:30 GMT'),
      { type: 'not-processed', status: 503, afterMs: 30_000 },
    ],
    ['503 without Retry-After', withRetryAfter(503, null), { type: 'unknown' }],
    ['503 with an unreadable Retry-After', withRetryAfter(503, 'soon'), { type: 'unknown' }],
    ['500', platform500, { type: 'unknown' }],
    ['500 as HTML', platform500Html, { type: 'unknown' }],
  ];
  it.each(table)('%s', (_name, input, meaning) => {
    expect(writeMeaning(input, now)).toEqual(meaning);
    expect(isOutcomeUnknown(input)).toBe(meaning.type === 'unknown');
  });
});

describe('describeFailure', () => {
  it('says which hop failed and who answered what', () => {
    expect(describeFailure(classifyApiError(noAnswer))).toMatch(/^No answer came from site-admin’s server/);
    expect(describeFailure(classifyApiError(platformUnreachable))).toMatch(/could not reach the platform/);
    expect(describeFailure(classifyApiError(platformTimeout))).toBe('The platform did not answer site-admin’s server in time.');
    expect(describeFailure(classifyApiError(platform500Html))).toBe('The platform answered 500 Internal Server Error.');
    expect(describeFailure(classifyApiError(platform200Html))).toBe(
      'The platform answered 200 with something that is not the JSON expected.',
    );
    expect(describeFailure(classifyApiError(cutOff))).toBe('The platform answered 200, but the answer broke off before it was complete.');
    expect(describeFailure(classifyApiError(credentials))).toMatch(/^The platform answered 401 Unauthorized: the API key or site id/);
    expect(describeFailure(classifyApiError(error('api', 418)))).toBe('site-admin’s server answered 418.');
  });
});
