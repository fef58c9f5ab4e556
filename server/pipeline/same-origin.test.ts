import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblems, send, serveSteps } from '../testing/test-helpers';
import { checkSameOrigin, isSameOrigin } from './same-origin';

describe('isSameOrigin', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  it('trusts the browser’s Sec-Fetch-Site when it is sent', () => {
    expect(isSameOrigin(req({ 'sec-fetch-site': 'same-origin' }))).toBe(true);
    expect(isSameOrigin(req({ 'sec-fetch-site': 'same-site', origin: 'http://a:1', host: 'a:1' }))).toBe(false);
  });
  it('otherwise needs an Origin whose host is the host asked', () => {
    expect(isSameOrigin(req({ origin: 'http://127.0.0.1:4173', host: '127.0.0.1:4173' }))).toBe(true);
    expect(isSameOrigin(req({ origin: 'http://127.0.0.1:9999', host: '127.0.0.1:4173' }))).toBe(false);
    expect(isSameOrigin(req({ origin: 'null', host: '127.0.0.1:4173' }))).toBe(false);
    expect(isSameOrigin(req({ host: '127.0.0.1:4173' }))).toBe(false);
  });
});

describe('the same-origin check', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  const CREATE = '/api/site/v2/ecommerce/products/create';
  beforeAll(async () => {
    served = await serveSteps(checkSameOrigin);
  });
  afterAll(() => served.close());

  it('hands on what only reads, from anywhere', async () => {
    expect((await send(served.port, { path: '/api/site/v2/forms/3/cases/1', headers: { origin: 'https://evil.example' } })).status).toBe(
      200,
    );
    expect((await send(served.port, { method: 'HEAD', path: '/', headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('hands on a change from our own pages', async () => {
    const headers = { 'sec-fetch-site': 'same-origin' };
    expect((await send(served.port, { method: 'POST', path: CREATE, headers, body: '{}' })).status).toBe(200);
  });

  it.each<Record<string, string>>([{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, {}])(
    'refuses a change with %j (403)',
    async (headers) => {
      const reply = await send(served.port, { method: 'POST', path: CREATE, headers, body: '{}' });
      expect(reply.status).toBe(403);
      expect(errorShapeProblems(403, reply.headers['content-type'], reply.text)).toEqual([]);
    },
  );
});
