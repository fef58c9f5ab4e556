/**
 * The list of a form's cases through the operation allowlist and a site's proxy, to a stand-in platform
 * that records what it receives: a well-formed list goes on with its query rebuilt from what was checked;
 * every malformed parameter, an unknown or repeated one, a body, or another method is refused in the
 * spec's error shape, and the platform receives nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import { recordingPlatform, type RecordingPlatform } from '../testing/recording-platform';
import { closeServer, errorShapeProblems, listen, proxyListener, send } from '../testing/test-helpers';
import { matchRoute } from './operations';

const LIST = '/api/site/v2/forms/21/cases';

let platform: RecordingPlatform;
let proxyServer: http.Server;
let port: number;

beforeAll(async () => {
  platform = await recordingPlatform(() => ({
    status: 200,
    body: '{"results":[],"total_entries":0,"total_pages":0,"current_page":1,"per_page":20}',
  }));
  proxyServer = http.createServer(
    proxyListener({
      apiKey: 'secret-key',
      siteId: '1001',
      timeoutMs: 2000,
      maxBodyBytes: 1024,
      upstream: new URL(`http://127.0.0.1:${platform.port}/api/site/v2`),
    }),
  );
  port = await listen(proxyServer);
});
afterAll(async () => {
  await closeServer(proxyServer);
  await platform.close();
});
beforeEach(() => {
  platform.received.length = 0;
});

const filterOf = (text: string) => `filter=${encodeURIComponent(text)}`;

describe('a well-formed list', () => {
  it.each([
    ['no parameters', '', ''],
    [
      'every parameter, in the list’s own order',
      '?filter=%7B%7D&sort_order=asc&sort_type=id&page=3&per_page=500',
      '?per_page=500&page=3&sort_type=id&sort_order=asc&filter=%7B%7D',
    ],
    ['the limits', '?per_page=1&page=1000000', '?per_page=1&page=1000000'],
    ['each sort', '?sort_type=updated_at', '?sort_type=updated_at'],
    [
      'a filter written with + for spaces, sent on encoded',
      '?filter={"form_field_21_3":{"contains":"came+apart"}}',
      `?${filterOf('{"form_field_21_3":{"contains":"came apart"}}')}`,
    ],
    [
      'a filter whose numbers go on digit for digit',
      `?${filterOf('{"order_id":12345678901234567890,"created_at":{"gt":1700000000,"lt":"2027-01-01"}}')}`,
      `?${filterOf('{"order_id":12345678901234567890,"created_at":{"gt":1700000000,"lt":"2027-01-01"}}')}`,
    ],
  ])('goes on with %s', async (_what, query, sent) => {
    const reply = await send(port, { path: `${LIST}${query}` });
    expect(reply.status, reply.text).toBe(200);
    expect(platform.received.map(({ method, url }) => ({ method, url }))).toEqual([{ method: 'GET', url: `${LIST}${sent}` }]);
    expect(platform.received[0]?.headers).toMatchObject({ 'x-api-key': 'secret-key', 'x-site-id': '1001' });
  });
});

describe('what is refused before the platform is contacted', () => {
  it.each([
    ['per_page 0', '?per_page=0', 'per_page'],
    ['per_page over 500', '?per_page=501', 'per_page'],
    ['per_page negative', '?per_page=-5', 'per_page'],
    ['per_page with a fraction', '?per_page=2.5', 'per_page'],
    ['per_page with a leading zero', '?per_page=020', 'per_page'],
    ['per_page empty', '?per_page=', 'per_page'],
    ['per_page in words', '?per_page=ten', 'per_page'],
    ['page 0', '?page=0', 'page'],
    ['page huge', '?page=99999999999999999999', 'page'],
    ['page negative', '?page=-1', 'page'],
    ['page with an exponent', '?page=1e3', 'page'],
    ['page with spaces', '?page=%201', 'page'],
    ['sort_order in capitals', '?sort_order=DESC', 'sort_order'],
    ['sort_order empty', '?sort_order=', 'sort_order'],
    ['sort_type not in the list', '?sort_type=email', 'sort_type'],
    ['sort_type as SQL', `?sort_type=${encodeURIComponent('created_at; DROP TABLE x')}`, 'sort_type'],
    ['filter not JSON', `?${filterOf('{email:"a"}')}`, 'filter'],
    ['filter with a key twice, the first unchecked', `?${filterOf('{"email":{"like":"x"},"email":"a"}')}`, 'filter'],
    ['filter with a key twice inside a condition', `?${filterOf('{"created_at":{"gt":1,"gt":"x"}}')}`, 'filter'],
    ['filter with a number beyond any', `?${filterOf('{"created_at":{"gt":1e400}}')}`, 'filter.created_at'],
    ['filter a list', `?${filterOf('["email"]')}`, 'filter'],
    ['filter a string', `?${filterOf('"email"')}`, 'filter'],
    ['filter null', `?${filterOf('null')}`, 'filter'],
    ['filter too long', `?${filterOf(JSON.stringify({ email: 'x'.repeat(1000), name: 'y'.repeat(1000) }))}`, 'filter'],
    [
      'filter with too many conditions',
      `?${filterOf(JSON.stringify(Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`f${n}`, n]))))}`,
      'filter',
    ],
    ['filter with a key that is no field name', `?${filterOf('{"properties.email":"a"}')}`, 'filter'],
    ['filter with an unknown operator', `?${filterOf('{"email":{"like":"a"}}')}`, 'filter.email'],
    ['filter with an empty condition', `?${filterOf('{"email":{}}')}`, 'filter.email'],
    ['filter with null', `?${filterOf('{"email":null}')}`, 'filter.email'],
    ['filter with a list value', `?${filterOf('{"email":["a","b"]}')}`, 'filter.email'],
    ['filter comparing with true', `?${filterOf('{"created_at":{"gt":true}}')}`, 'filter.created_at'],
    ['filter containing nothing', `?${filterOf('{"email":{"contains":""}}')}`, 'filter.email'],
    ['filter with a value too long', `?${filterOf(JSON.stringify({ email: 'x'.repeat(201) }))}`, 'filter.email'],
    ['a parameter the list does not have', '?limit=5', 'limit'],
    ['the key as a parameter', '?x-api-key=other', 'x-api-key'],
    ['a parameter given twice', '?page=1&page=2', 'page'],
    ['a parameter without a value', '?page', 'page'],
    ['an empty parameter', '?page=1&&per_page=2', 'query'],
    ['a parameter that does not decode', '?page=%E0%A4%A', 'page'],
  ])('%s: 422 naming it', async (_what, query, field) => {
    const reply = await send(port, { path: `${LIST}${query}` });
    expect(reply.status, reply.text).toBe(422);
    expect(errorShapeProblems(422, reply.headers['content-type'], reply.text)).toEqual([]);
    const details = (JSON.parse(reply.text) as { details: { field: string }[] }).details;
    expect(details.map((detail) => detail.field)).toContain(field);
    expect(platform.received).toEqual([]);
  });

  it.each([
    ['a list with a body', 'GET', LIST, 'x', 400],
    ['a list by POST', 'POST', LIST, '{}', 404],
    ['a list by DELETE', 'DELETE', LIST, undefined, 404],
    ['a form that cannot be an identifier', 'GET', '/api/site/v2/forms/a.b/cases', undefined, 422],
    ['a form that is a dot segment', 'GET', '/api/site/v2/forms/%2e%2e/cases', undefined, 404],
  ] as const)('%s: %i', async (_what, method, path, body, status) => {
    const reply = await send(port, { method, path, body, headers: body ? { 'content-type': 'application/json' } : {} });
    expect(reply.status, reply.text).toBe(status);
    expect(errorShapeProblems(status, reply.headers['content-type'], reply.text)).toEqual([]);
    expect(platform.received).toEqual([]);
  });
});

describe('matchRoute', () => {
  it('names the list and its checked query; refusals name the list too', () => {
    expect(matchRoute('GET', '/forms/21/cases', 'page=2')).toEqual({
      name: 'list-form-cases',
      method: 'GET',
      upstreamPath: '/forms/21/cases?page=2',
    });
    expect(matchRoute('GET', '/forms/21/cases', 'page=0')).toEqual({
      name: 'list-form-cases',
      refused: [expect.objectContaining({ field: 'page' })],
    });
    expect(matchRoute('POST', '/forms/21/cases', '')).toBeNull();
  });
});
