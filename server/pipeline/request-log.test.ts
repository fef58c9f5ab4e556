import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { send, serveSteps } from '../testing/test-helpers';
import { allowOperation } from './operations';
import { logSiteCalls, type RequestLogEntry } from './request-log';
import { resolveSite } from './site-resolution';

describe('the request log of a site’s calls', () => {
  const logs: RequestLogEntry[] = [];
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    const sites = new Map([['north', { id: 'north', forward: () => undefined }]]);
    served = await serveSteps(
      resolveSite(sites),
      logSiteCalls((entry) => logs.push(entry)),
      allowOperation(1024),
    );
  });
  afterAll(() => served.close());
  beforeEach(() => {
    logs.length = 0;
  });

  it('returns the caller’s x-request-id when it is a safe token, else a new one', async () => {
    const given = await send(served.port, { path: '/api/s/north/site/v2/forms/3/cases/1', headers: { 'x-request-id': 'req-1.a' } });
    expect(given.headers['x-request-id']).toBe('req-1.a');
    expect(JSON.parse(given.text)).toMatchObject({ requestId: 'req-1.a' });
    const unsafe = await send(served.port, { path: '/api/s/north/site/v2/forms/3/cases/1', headers: { 'x-request-id': 'no spaces' } });
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs each call with its site, its operation and its status; a refused one as not-allowed', async () => {
    await send(served.port, { path: '/api/s/north/site/v2/forms/3/cases/1', headers: { 'x-request-id': 'log-1' } });
    await send(served.port, { path: '/api/s/north/site/v2/users/me', headers: { 'x-request-id': 'log-2' } });
    await vi.waitFor(() => expect(logs).toHaveLength(2));
    expect(logs).toEqual([
      expect.objectContaining({ requestId: 'log-1', site: 'north', method: 'GET', route: 'get-form-case', status: 200 }),
      expect.objectContaining({ requestId: 'log-2', site: 'north', method: 'GET', route: 'not-allowed', status: 404 }),
    ]);
  });

  it('leaves pages and our own API alone', async () => {
    const reply = await send(served.port, { path: '/api/sites' });
    expect(reply.headers['x-request-id']).toBeUndefined();
    expect(logs).toEqual([]);
  });
});
