/**
 * The one table of failures: every answer a call can end with, what it is (`ApiError.failure`), and what it
 * means for a lookup (the title a person reads, whether Try again may help) and for a create (whether the
 * product may exist, may be sent again, or was refused), in the words of the one translator. Last, every
 * answer a platform can give a create (src/contract/write-answers.ts), as the browser receives it from our
 * server, read by the fetch layer: what the page makes of it, beside what the server's test
 * (server/write-outcome.test.ts) holds the activity record and the import to.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fullProduct } from '@/contract/fixtures';
import { PLATFORM_STATUS_HEADER } from '@/contract/server-meta';
import { WRITE_ANSWERS } from '@/contract/write-answers';
import { createProduct } from './api-client';
import { apiErrors, type ApiFailure } from './api-error';
import { explainFailure, failureSentence } from './api-error-class';
import { explainWriteFailure, writeMeaning, type WriteMeaning } from './write-meaning';

const body = (message = 'msg', details: { field: string; message: string }[] = []) => ({ message, details });

type Row = {
  answer: string;
  error: unknown;
  failure: ApiFailure;
  lookup: { title: string; canRetry: boolean };
  create: { meaning: WriteMeaning['type']; title: string };
};

const UNKNOWN = "We can't tell whether the product was created";

const TABLE: Row[] = [
  {
    answer: 'no answer from our server (before any answer)',
    error: apiErrors.noAnswer(),
    failure: { type: 'network', hop: 'server' },
    lookup: { title: 'site-admin’s server could not be reached', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'the browser’s time limit',
    error: apiErrors.noAnswerInTime(30),
    failure: { type: 'timeout', hop: 'server' },
    lookup: { title: 'No answer in time', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'our 502: the platform could not be reached',
    error: apiErrors.answered(502, null, body()),
    failure: { type: 'network', hop: 'platform' },
    lookup: { title: 'The platform could not be reached', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'our 504: the platform did not answer in time',
    error: apiErrors.answered(504, null, body()),
    failure: { type: 'timeout', hop: 'platform' },
    lookup: { title: 'The platform did not answer in time', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'the platform’s 400',
    error: apiErrors.answered(400, 400, body('bad', [{ field: 'slug', message: 'must be a string' }])),
    failure: { type: 'answered', status: 400, by: 'platform' },
    lookup: { title: 'The lookup failed (400 Bad Request)', canRetry: false },
    create: { meaning: 'refused', title: 'The platform did not accept the product (400 Bad Request)' },
  },
  {
    answer: 'the platform’s 401',
    error: apiErrors.answered(401, 401, body()),
    failure: { type: 'configuration', status: 401, by: 'platform' },
    lookup: { title: 'The server’s platform credentials were refused', canRetry: false },
    create: { meaning: 'configuration', title: 'The platform refused our server’s credentials' },
  },
  {
    answer: 'our own 401 (no session)',
    error: apiErrors.answered(401, null, body('Sign in')),
    failure: { type: 'configuration', status: 401, by: 'server' },
    lookup: { title: 'Your sign-in has ended', canRetry: false },
    create: { meaning: 'configuration', title: 'Your sign-in has ended' },
  },
  {
    answer: 'our own 403 (the person’s role)',
    error: apiErrors.answered(403, null, body('You may look up cases on Harbour Linen but not create products there.')),
    failure: { type: 'configuration', status: 403, by: 'server' },
    lookup: { title: 'You may not look up cases on this site', canRetry: false },
    create: { meaning: 'configuration', title: 'You may not create products on this site' },
  },
  {
    answer: 'the platform’s 403',
    error: apiErrors.answered(403, 403, body()),
    failure: { type: 'configuration', status: 403, by: 'platform' },
    lookup: { title: 'The server’s platform credentials lack permission', canRetry: false },
    create: { meaning: 'configuration', title: 'Our server has no permission on this site' },
  },
  {
    answer: 'the platform’s 404',
    error: apiErrors.answered(404, 404, body('Form 3 has no case 9.')),
    failure: { type: 'answered', status: 404, by: 'platform' },
    lookup: { title: 'No case 9 in form 3', canRetry: false },
    create: { meaning: 'refused', title: 'The platform did not accept the product (404 Not Found)' },
  },
  {
    answer: 'our 413 (too large)',
    error: apiErrors.answered(413, null, body()),
    failure: { type: 'answered', status: 413, by: 'server' },
    lookup: { title: 'The lookup failed (413 Content Too Large)', canRetry: false },
    create: { meaning: 'refused', title: 'site-admin’s server did not accept the product (413 Content Too Large)' },
  },
  {
    answer: 'the platform’s 422',
    error: apiErrors.answered(422, 422, body('bad', [{ field: 'id', message: 'is reserved' }])),
    failure: { type: 'answered', status: 422, by: 'platform' },
    lookup: { title: 'The platform rejected the identifiers', canRetry: false },
    create: { meaning: 'refused', title: 'The platform did not accept the product (422 Unprocessable Entity)' },
  },
  {
    answer: 'the platform’s 429 with Retry-After',
    error: apiErrors.answered(429, 429, body(), '5'),
    failure: { type: 'answered', status: 429, by: 'platform' },
    lookup: { title: 'The platform is busy', canRetry: true },
    create: { meaning: 'not-processed', title: 'The platform asked us to slow down' },
  },
  {
    answer: 'the platform’s 500',
    error: apiErrors.answered(500, 500, body()),
    failure: { type: 'answered', status: 500, by: 'platform' },
    lookup: { title: 'The platform had a problem (500 Internal Server Error)', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'the platform’s 500 in HTML (our 502 beside it)',
    error: apiErrors.answered(502, 500, body()),
    failure: { type: 'answered', status: 500, by: 'platform' },
    lookup: { title: 'The platform had a problem (500 Internal Server Error)', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'the platform’s 503 with Retry-After',
    error: apiErrors.answered(503, 503, body(), '30'),
    failure: { type: 'answered', status: 503, by: 'platform' },
    lookup: { title: 'The platform had a problem (503)', canRetry: true },
    create: { meaning: 'not-processed', title: 'The platform asked us to slow down' },
  },
  {
    answer: 'the platform’s 503 without Retry-After',
    error: apiErrors.answered(503, 503, body()),
    failure: { type: 'answered', status: 503, by: 'platform' },
    lookup: { title: 'The platform had a problem (503)', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'the platform’s 200 in HTML (our 502 beside it)',
    error: apiErrors.answered(502, 200, body()),
    failure: { type: 'unreadable', status: 200, by: 'platform', cutOff: false },
    lookup: { title: 'The answer was not a case', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'a page that is not JSON from our server',
    error: apiErrors.notJson(200, null),
    failure: { type: 'unreadable', status: 200, by: 'server', cutOff: false },
    lookup: { title: 'The answer was not a case', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'an answer broken off',
    error: apiErrors.cutOff(200, 200),
    failure: { type: 'unreadable', status: 200, by: 'platform', cutOff: true },
    lookup: { title: 'The answer broke off', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
  {
    answer: 'a fault in this page',
    error: new TypeError('boom'),
    failure: { type: 'unexpected' },
    lookup: { title: 'Something went wrong', canRetry: true },
    create: { meaning: 'unknown', title: UNKNOWN },
  },
];

describe('every answer, and what it means for a lookup and for a create', () => {
  it.each(TABLE)('$answer', ({ error, failure, lookup, create }) => {
    if (!(error instanceof TypeError)) expect(error).toMatchObject({ failure });
    const looked = explainFailure(error, { kind: 'lookup', form: '3', id: '9' });
    expect({ title: looked.title, canRetry: looked.canRetry }).toEqual(lookup);
    expect(writeMeaning(error).type).toBe(create.meaning);
    expect(explainWriteFailure(error).title).toBe(create.title);
  });

  it('never calls an answer from the platform “could not be reached”', () => {
    for (const row of TABLE.filter((r) => r.failure.type === 'answered' || r.failure.type === 'unreadable')) {
      expect(explainFailure(row.error, { kind: 'lookup', form: '3', id: '1' }).title).not.toMatch(/could not be reached/);
    }
  });
});

describe('explainFailure, for a lookup', () => {
  it('echoes both identifiers on 404, with what the platform said', () => {
    const view = explainFailure(apiErrors.answered(404, 404, body('Form 3 has no case 9.')), { kind: 'lookup', form: '3', id: '9' });
    expect(view.message).toContain('“9”');
    expect(view.message).toContain('“3”');
    expect(view.said).toBe('Form 3 has no case 9.');
  });

  it('calls the platform’s 401 and 403 a matter of the server’s configuration; our own login says to sign in again', () => {
    for (const status of [401, 403]) {
      const view = explainFailure(apiErrors.answered(status, status, body()), { kind: 'lookup', form: '3', id: '1' });
      expect(view.message).toMatch(/configuration matter for whoever runs this server/);
      expect(view.message).toMatch(/browser holds no key/);
    }
    expect(explainFailure(apiErrors.answered(401, null, body('Sign in')), { kind: 'lookup', form: '3', id: '1' }).message).toMatch(
      /sign in again/,
    );
    // Our own 403 is the person's role, never the server's configuration; the server's words say what is allowed.
    const refused = explainWriteFailure(
      apiErrors.answered(403, null, body('You may look up cases on Harbour Linen but not create products there.')),
    );
    expect(refused.message).toMatch(/your role on this site does not allow it/);
    expect(refused.message).not.toMatch(/configuration/);
    expect(refused.said).toBe('You may look up cases on Harbour Linen but not create products there.');
  });

  it('passes on the details of a 422', () => {
    const details = [
      { field: 'id', message: 'The case identifier may contain only ASCII letters (A–Z, a–z), digits (0–9), "_" and "-", not “.”' },
    ];
    expect(explainFailure(apiErrors.answered(422, 422, body('bad', details)), { kind: 'lookup', form: '3', id: 'a.b' }).details).toEqual(
      details,
    );
  });

  it('says what happened, in the words shared by every feature', () => {
    expect(explainFailure(apiErrors.noAnswer(), { kind: 'lookup', form: '3', id: '1' }).message).toMatch(
      /^No answer came from site-admin’s server/,
    );
    expect(explainFailure(apiErrors.answered(504, null, body()), { kind: 'lookup', form: '3', id: '1' }).message).toMatch(
      /did not answer site-admin’s server in time/,
    );
    expect(explainFailure(apiErrors.answered(502, 500, body()), { kind: 'lookup', form: '3', id: '1' }).message).toMatch(
      /^The platform answered 500 Internal Server Error/,
    );
    expect(explainFailure(apiErrors.notJson(200, null), { kind: 'lookup', form: '3', id: '1' }).message).toMatch(
      /^site-admin’s server answered 200 with something/,
    );
    expect(explainFailure(apiErrors.answered(429, 429, body()), { kind: 'lookup', form: '3', id: '1' }).message).toMatch(/Wait a moment/);
  });

  it('shows a server’s own words only when a server sent them', () => {
    expect(explainFailure(apiErrors.noAnswer(), { kind: 'lookup', form: '3', id: '1' }).said).toBeNull();
    expect(explainFailure(apiErrors.answered(500, 500, null), { kind: 'lookup', form: '3', id: '1' }).said).toBeNull();
    expect(explainFailure(apiErrors.answered(500, 500, body('Database down')), { kind: 'lookup', form: '3', id: '1' }).said).toBe(
      'Database down',
    );
    expect(explainFailure(new TypeError('boom'), { kind: 'lookup', form: '3', id: '1' }).said).toBe('boom');
  });
});

describe('explainFailure, for a create', () => {
  it('puts what a server said after what happened, once', () => {
    const text = explainWriteFailure(apiErrors.answered(422, 422, body('Slug is already used')));
    expect(failureSentence(text)).toBe(
      'The platform answered 422 Unprocessable Entity. Nothing was created. It said: “Slug is already used”',
    );
    expect(failureSentence(explainWriteFailure(apiErrors.noAnswer()))).toBe(
      'No answer came from site-admin’s server: the connection may be down, or the server stopped. The product may have been created.',
    );
  });
});

describe('every answer a platform can give a create, as the page reads what our server passes on', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(WRITE_ANSWERS)('$name', async ({ browser, page }) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (browser.platformStatus !== null) headers[PLATFORM_STATUS_HEADER] = String(browser.platformStatus);
    if (browser.retryAfter !== null) headers['retry-after'] = browser.retryAfter;
    // Our server's answer: the platform's JSON on a success, else an error in the spec's shape.
    const text =
      browser.status < 300
        ? JSON.stringify({ id: '9001', slug: 'linen' })
        : JSON.stringify({ error: 'Error', code: browser.status, message: 'It said no.', details: [] });
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(text, { status: browser.status, headers })));
    const meaning = await createProduct(fullProduct('linen')).then(
      () => 'created',
      (error: unknown) => writeMeaning(error, Date.parse('2026-03-01T10:00:00Z')).type,
    );
    expect(meaning).toBe(page);
  });
});
