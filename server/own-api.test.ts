import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteInfo } from '../src/contract/site-info';
import { createOwnApi } from './own-api';
import { closeServer, errorShapeProblems, listen, send } from './test-helpers';
import http from 'node:http';
import { parseRequest } from './pipeline/context';

const SITES: SiteInfo[] = [{ id: 'main', name: 'Sandbox', mode: 'sandbox', siteId: '1001', currencies: ['eur'], decimals: 2 }];

describe('our own API', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const ownApi = createOwnApi(SITES);
    server = http.createServer((req, res) => ownApi(parseRequest(req, res)));
    port = await listen(server);
  });
  afterAll(() => closeServer(server));

  it('lists the sites, never cached', async () => {
    const reply = await send(port, { path: '/api/sites' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(reply.text)).toEqual({ sites: SITES });
  });

  it('reports health, and answers HEAD without a body', async () => {
    expect(JSON.parse((await send(port, { path: '/api/health' })).text)).toEqual({ status: 'ok' });
    const head = await send(port, { method: 'HEAD', path: '/api/sites' });
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it.each(['/api/meta', '/api/nope', '/api', '/api/sites/'])('answers %s with 404 in the error shape', async (path) => {
    const reply = await send(port, { path });
    expect(reply.status).toBe(404);
    expect(errorShapeProblems(404, reply.headers['content-type'], reply.text)).toEqual([]);
  });
});
