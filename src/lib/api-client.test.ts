import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endedSchema } from '@/contract/people';
import { signInAnswerReader } from '@/contract/sign-in-answers';
import { callOwnApi, createProduct, getFormCase, getSites, REQUEST_TIMEOUT_MS } from './api-client';
import { ListEnvelopeError, listFormCases } from './case-list-reader';
import { ApiError } from './api-error';
import { setSiteScope } from './site-scope';
import { isExactNumber } from './exact-number';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const answer = (status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Response(body, { status, headers });

/** A fetch that answers only when its signal aborts, the way a hung server behaves. */
function hangUntilAborted(_input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    if (init?.signal?.aborted) reject(new DOMException('The operation was aborted.', 'AbortError'));
    init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
  });
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('listFormCases', () => {
  const withPlatform = (status: number, body: string) =>
    answer(status, body, { 'content-type': 'application/json', 'x-platform-status': String(status) });

  it('asks for the page with its query and reads it through the site’s envelope, ids exact', async () => {
    fetchMock.mockResolvedValue(
      withPlatform(200, '{"results":[{"id":12345678901234567890}],"total_entries":51,"total_pages":2,"current_page":2,"per_page":50}'),
    );
    const page = await listFormCases('21', { per_page: 50, page: 2, sort_order: 'desc', filter: { email: { contains: 'a' } } }, 'results');
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      `/api/site/v2/forms/21/cases?per_page=50&page=2&sort_order=desc&filter=${encodeURIComponent('{"email":{"contains":"a"}}')}`,
    );
    expect(page).toMatchObject({ total: 51, page: 2, hasMore: false, noCases: false });
    expect(isExactNumber(page.cases[0]?.id)).toBe(true);
  });

  it('takes the platform’s 404 as no cases, and an answer in another envelope as an error that keeps it', async () => {
    fetchMock.mockResolvedValueOnce(withPlatform(404, '{"message":"The form does not contain any cases"}'));
    expect(await listFormCases('21', { per_page: 50, page: 1 }, 'results')).toMatchObject({ noCases: true, cases: [] });
    fetchMock.mockResolvedValueOnce(withPlatform(200, '[{"id":"1"}]'));
    const error = await failure(listFormCases('21', { per_page: 50, page: 1 }, 'results'));
    expect(error).toBeInstanceOf(ListEnvelopeError);
    expect((error as ListEnvelopeError).raw).toBe('[{"id":"1"}]');
    expect((error as ListEnvelopeError).found).toEqual(['array']);
  });
});

describe('getFormCase', () => {
  it('asks our server for the case and hands back the record with its text, every digit exact', async () => {
    const text = '{"id":"48217","order_id":12345678901234567890,"created_at":1761955200,"properties":{"amount":1.50}}';
    fetchMock.mockResolvedValue(answer(200, text));
    const result = await getFormCase('3', '48217');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/site/v2/forms/3/cases/48217',
      expect.objectContaining({ headers: { accept: 'application/json' } }),
    );
    expect(result.text).toBe(text);
    expect(String(result.record.order_id)).toBe('12345678901234567890');
    expect(isExactNumber(result.record.order_id)).toBe(true);
    expect(result.record.created_at).toBe(1761955200);
    expect(String((result.record.properties as Record<string, unknown>).amount)).toBe('1.50');
  });

  it('calls a parser that cannot be loaded from our server a network failure, which the page offers to retry', async () => {
    fetchMock.mockResolvedValue(answer(200, '{}'));
    vi.resetModules();
    vi.doMock('./exact-json', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    try {
      const fresh = await import('./api-client');
      const freshErrors = await import('./api-error');
      const error = await fresh.getFormCase('3', '1').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(freshErrors.ApiError);
      expect(error).toMatchObject({ failure: { type: 'network', hop: 'server' }, status: 0 });
    } finally {
      vi.doUnmock('./exact-json');
      vi.resetModules();
    }
  });

  it('accepts the empty object of the spec’s example', async () => {
    fetchMock.mockResolvedValue(answer(200, '{}'));
    expect(await getFormCase('3', '1')).toEqual({ record: {}, text: '{}' });
  });

  it.each([
    ['a list', '[1,2]'],
    ['a string', '"case"'],
    ['a big number', '12345678901234567890'],
    ['null', 'null'],
  ])('calls %s an unreadable answer, not a case', async (_what, text) => {
    fetchMock.mockResolvedValue(answer(200, text));
    const error = await failure(getFormCase('3', '1'));
    expect(error).toMatchObject({
      failure: { type: 'unreadable', status: 200, by: 'server', cutOff: false },
      status: 200,
      message: 'The case is not a JSON object.',
    });
  });

  it('calls an answer that is not JSON unreadable, with its status and the platform’s', async () => {
    fetchMock.mockResolvedValue(answer(502, '<html>Bad gateway</html>', { 'content-type': 'text/html', 'x-platform-status': '500' }));
    const error = await failure(getFormCase('3', '1'));
    expect(error).toMatchObject({ failure: { type: 'answered', status: 500, by: 'platform' }, status: 502 });
    expect(error.message).toBe('The server answered 502 with something that is not JSON.');
  });

  it('reads an error answer: status, phrase, message, details, and the platform’s status when it gave one', async () => {
    const body = { error: 'Unprocessable Entity', message: 'bad', code: 422, details: [{ field: 'id', message: 'is reserved' }] };
    fetchMock.mockResolvedValue(answer(422, JSON.stringify(body), { 'content-type': 'application/json', 'x-platform-status': '422' }));
    expect(await failure(getFormCase('3', '1'))).toMatchObject({
      failure: { type: 'answered', status: 422, by: 'platform' },
      status: 422,
      message: 'bad',
      said: 'bad',
      details: body.details,
    });
    fetchMock.mockResolvedValue(answer(504, JSON.stringify({ error: 'Gateway Timeout', message: 'slow', code: 504 })));
    expect(await failure(getFormCase('3', '1'))).toMatchObject({ failure: { type: 'timeout', hop: 'platform' }, status: 504 });
    fetchMock.mockResolvedValue(answer(500, '{"unexpected":true}', { 'x-platform-status': 'soon' }));
    expect(await failure(getFormCase('3', '1'))).toMatchObject({
      failure: { type: 'answered', status: 500, by: 'server' },
      message: 'The server answered 500.',
      said: null,
    });
  });

  it('calls a refused connection a network failure', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await failure(getFormCase('3', '1'))).toMatchObject({ failure: { type: 'network', hop: 'server' }, status: 0 });
  });

  it('gives up after its time limit, including while the body is still arriving', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(hangUntilAborted);
    const waiting = failure(getFormCase('3', '1'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toMatchObject({ failure: { type: 'timeout', hop: 'server' }, status: 0 });

    // Headers arrive at once; the body never ends.
    fetchMock.mockImplementation(async (_input, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":'));
          init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
      });
      return new Response(body, { status: 200 });
    });
    const slowBody = failure(getFormCase('3', '1'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await slowBody).toMatchObject({ failure: { type: 'timeout', hop: 'server' } });
  });

  it('calls an answer that breaks off midway cut off, with the status that had arrived', async () => {
    fetchMock.mockImplementation(async () => {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(new TextEncoder().encode('{"id":"48217","prop'));
          } else {
            controller.error(new TypeError('network error'));
          }
        },
      });
      return new Response(body, { status: 200, headers: { 'x-platform-status': '200' } });
    });
    expect(await failure(getFormCase('3', '1'))).toMatchObject({
      failure: { type: 'unreadable', status: 200, by: 'platform', cutOff: true },
      status: 200,
    });
  });

  it('passes a cancellation by the caller on untouched, not as a failure', async () => {
    fetchMock.mockImplementation(hangUntilAborted);
    const controller = new AbortController();
    const pending = getFormCase('3', '1', controller.signal);
    controller.abort();
    const error: unknown = await pending.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'AbortError' });

    const already = new AbortController();
    already.abort();
    fetchMock.mockClear();
    await expect(getFormCase('3', '1', already.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('encodes the identifiers into the path', async () => {
    fetchMock.mockResolvedValue(answer(200, '{}'));
    await getFormCase('a b', 'c/d');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/site/v2/forms/a%20b/cases/c%2Fd');
  });
});

describe('createProduct', () => {
  it('posts the body as JSON and hands back the answer, record or {}', async () => {
    fetchMock.mockResolvedValue(answer(200, '{"id":"501","name":"Mug"}'));
    expect(await createProduct({ name: 'Mug', enabled: 'true' })).toEqual({ id: '501', name: 'Mug' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/site/v2/ecommerce/products/create');
    expect(init).toMatchObject({ method: 'POST', body: '{"name":"Mug","enabled":"true"}' });
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('keeps the Retry-After of a 429 or 503, JSON or not, so a caller can wait as long as asked', async () => {
    fetchMock.mockResolvedValueOnce(
      answer(429, '{"error":"Too Many Requests","code":429,"message":"Slow down"}', {
        'content-type': 'application/json',
        'retry-after': '7',
      }),
    );
    expect((await failure(createProduct({ name: 'Mug', enabled: 'true' }))).retryAfter).toBe('7');
    fetchMock.mockResolvedValueOnce(
      answer(503, '<html>busy</html>', { 'content-type': 'text/html', 'retry-after': 'Sun, 01 Mar 2026 10:00:30 GMT' }),
    );
    const busy = await failure(createProduct({ name: 'Mug', enabled: 'true' }));
    expect([busy.status, busy.retryAfter]).toEqual([503, 'Sun, 01 Mar 2026 10:00:30 GMT']);
    fetchMock.mockResolvedValueOnce(answer(422, '{"error":"Unprocessable Entity","code":422,"message":"x"}'));
    expect((await failure(createProduct({ name: 'Mug', enabled: 'true' }))).retryAfter).toBeNull();
  });
});

describe('getSites', () => {
  const site = { id: 'main', name: 'Sandbox', mode: 'sandbox', siteId: '1001', currencies: ['aud'], decimals: 2 };
  it('reads the sites, and calls anything else unreadable', async () => {
    fetchMock.mockResolvedValue(answer(200, JSON.stringify({ sites: [site], me: { kind: 'demo' } })));
    expect(await getSites()).toEqual({ sites: [site], me: { kind: 'demo' } });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/sites');
    fetchMock.mockResolvedValue(answer(200, JSON.stringify({ sites: [{ ...site, mode: 'elsewhere' }], me: { kind: 'demo' } })));
    expect(await failure(getSites())).toMatchObject({ failure: { type: 'unreadable' } });
    // No `me`: not an answer of this server.
    fetchMock.mockResolvedValue(answer(200, JSON.stringify({ sites: [site] })));
    expect(await failure(getSites())).toMatchObject({ failure: { type: 'unreadable' } });
  });

  it('reads who is signed in and what they may do on each site', async () => {
    const me = {
      kind: 'person',
      id: 'p1',
      email: 'a@example.com',
      displayName: 'Ada',
      grants: [{ siteId: 'main', role: 'support' }],
      managesPeople: false,
    };
    fetchMock.mockResolvedValue(answer(200, JSON.stringify({ sites: [{ ...site, can: ['lookup'] }], me })));
    expect(await getSites()).toEqual({ sites: [{ ...site, can: ['lookup'] }], me });
    // A person with no site yet gets an empty list, not a failure.
    fetchMock.mockResolvedValue(answer(200, JSON.stringify({ sites: [], me })));
    expect((await getSites()).sites).toEqual([]);
    fetchMock.mockResolvedValue(answer(200, JSON.stringify({ sites: [{ ...site, can: ['delete'] }], me })));
    expect(await failure(getSites())).toMatchObject({ failure: { type: 'unreadable' } });
  });
});

describe('the site a call goes to', () => {
  it('uses the short address on a single-site server and names the site otherwise', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(answer(200, '{}')));
    setSiteScope(null);
    await getFormCase('3', '48217');
    setSiteScope('harbour-linen');
    await getFormCase('3', '48217');
    await createProduct({ name: 'Mug', enabled: 'true' });
    setSiteScope(null);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/site/v2/forms/3/cases/48217',
      '/api/s/harbour-linen/site/v2/forms/3/cases/48217',
      '/api/s/harbour-linen/site/v2/ecommerce/products/create',
    ]);
  });
});

describe('callOwnApi', () => {
  it('reads the answer with the contract’s schema, or a reader written without zod', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, '{"ended":2,"extra":true}'));
    expect(await callOwnApi('/api/account/sessions/sign-out-others', { method: 'POST', answer: endedSchema })).toEqual({ ended: 2 });
    fetchMock.mockResolvedValueOnce(answer(200, '{"result":"second-factor","ways":["passkey"],"setUp":true}'));
    expect(await callOwnApi('/api/sign-in/password', { method: 'POST', body: {}, answer: signInAnswerReader })).toEqual({
      result: 'second-factor',
      ways: ['passkey'],
      setUp: true,
    });
  });

  it('calls an answer that is not the shape expected unreadable, never handing it on', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, '{"ended":"two"}'));
    const error = await failure(callOwnApi('/api/account/sessions/sign-out-others', { method: 'POST', answer: endedSchema }));
    expect(error.failure).toEqual({ type: 'unreadable', status: 200, by: 'server', cutOff: false });
  });

  it('hands back nothing for an answer without a body', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    expect(await callOwnApi('/api/people/second-factor', { method: 'PUT', body: { everyone: false, roles: [] } })).toBeUndefined();
  });
});
