/**
 * Our own API's table of endpoints, as a caller meets it: named parts of a path decoded, HEAD answered as
 * GET without a body, JSON bodies read within their bound (413, 415, 400 otherwise), and every miss or
 * failure in the spec's error shape.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOwnApi, OWN_API_MAX_BODY_BYTES, sendDone, sendJson, type Endpoint } from './own-api';
import { parseRequest } from './pipeline/context';
import { closeServer, errorShapeProblems, listen, rawExchange, send, waitFor } from './testing/test-helpers';

const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/things/:id', handle: ({ request, params }) => sendJson(request.res, 200, { params }) },
  {
    method: 'POST',
    path: '/api/things/:id/notes/:note',
    handle: ({ request, params, body }) => sendJson(request.res, 201, { params, body }),
  },
  { method: 'DELETE', path: '/api/things/:id', handle: ({ request }) => sendDone(request.res) },
  {
    method: 'GET',
    path: '/api/broken',
    handle: () => {
      throw new Error('a bug');
    },
  },
];

describe('our own API', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const ownApi = createOwnApi(ENDPOINTS);
    server = http.createServer((req, res) => ownApi.answer(parseRequest(req, res)));
    port = await listen(server);
  });
  afterAll(() => closeServer(server));

  const json = (path: string, body: string, type = 'application/json') =>
    send(port, { method: 'POST', path, headers: { 'content-type': type }, body });

  it('hands an endpoint the named parts of its path, decoded, never cached', async () => {
    const reply = await send(port, { path: '/api/things/caf%C3%A9%2F1' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(reply.text)).toEqual({ params: { id: 'café/1' } });
    const two = await json('/api/things/7/notes/n%201', '{"text":"hi"}');
    expect([two.status, JSON.parse(two.text)]).toEqual([201, { params: { id: '7', note: 'n 1' }, body: { text: 'hi' } }]);
    expect((await send(port, { method: 'DELETE', path: '/api/things/7' })).status).toBe(204);
  });

  it('answers HEAD as GET, without a body', async () => {
    const head = await send(port, { method: 'HEAD', path: '/api/things/7' });
    expect([head.status, head.text, head.headers['content-type']]).toEqual([200, '', 'application/json; charset=utf-8']);
  });

  it.each([
    ['no such endpoint', 'GET', '/api/nope'],
    ['the bare /api', 'GET', '/api'],
    ['an empty named part', 'GET', '/api/things/'],
    ['a named part that is not valid percent-encoding', 'GET', '/api/things/%E0%A4%A'],
    ['a path one segment longer', 'GET', '/api/things/7/more'],
    ['a method the path does not have', 'PUT', '/api/things/7'],
  ] as const)('answers %s with 404 in the error shape', async (_what, method, path) => {
    const reply = await send(port, { method, path });
    expect(reply.status).toBe(404);
    expect(errorShapeProblems(404, reply.headers['content-type'], reply.text)).toEqual([]);
  });

  it('refuses a body that is not JSON (415), is not valid JSON (400), or is too large (413), in the error shape', async () => {
    const path = '/api/things/7/notes/1';
    const wrongType = await json(path, 'text=hi', 'application/x-www-form-urlencoded');
    expect(wrongType.status).toBe(415);
    expect(errorShapeProblems(415, wrongType.headers['content-type'], wrongType.text)).toEqual([]);
    const broken = await json(path, '{"text":');
    expect(broken.status).toBe(400);
    expect(errorShapeProblems(400, broken.headers['content-type'], broken.text)).toEqual([]);
    const large = await json(path, JSON.stringify({ text: 'x'.repeat(OWN_API_MAX_BODY_BYTES) }));
    expect(large.status).toBe(413);
    expect(errorShapeProblems(413, large.headers['content-type'], large.text)).toEqual([]);
    // At the bound exactly, it is read.
    const fits = JSON.stringify({ text: 'x'.repeat(OWN_API_MAX_BODY_BYTES - 11) });
    expect(Buffer.byteLength(fits)).toBe(OWN_API_MAX_BODY_BYTES);
    expect((await json(path, fits)).status).toBe(201);
    // `application/json; charset=utf-8` is JSON too.
    expect((await json(path, '{}', 'application/json; charset=utf-8')).status).toBe(201);
  });

  it('refuses a body that announces no length and grows past the bound (413), and closes', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const { reply } = await rawExchange(
      port,
      Buffer.from(
        `POST /api/things/7/notes/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
      ),
    );
    expect(reply?.status).toBe(413);
    expect(errorShapeProblems(413, reply?.headers['content-type']?.[0], reply?.text ?? '')).toEqual([]);
  });

  it('reads a body that arrived whole before the endpoint was reached (as after a session looked up in the database)', async () => {
    const ownApi = createOwnApi(ENDPOINTS);
    const slow = http.createServer((req, res) => {
      void waitFor(() => req.complete, { timeoutMs: 5_000, intervalMs: 5, what: 'the body to arrive' }).then(() =>
        ownApi.answer(parseRequest(req, res)),
      );
    });
    const slowPort = await listen(slow);
    try {
      const reply = await send(slowPort, {
        method: 'POST',
        path: '/api/things/7/notes/1',
        headers: { 'content-type': 'application/json' },
        body: '{"text":"hi"}',
      });
      expect([reply.status, JSON.parse(reply.text)]).toEqual([201, { params: { id: '7', note: '1' }, body: { text: 'hi' } }]);
    } finally {
      await closeServer(slow);
    }
  });

  it('answers an endpoint that fails with 500 in the error shape, and logs the failure for the operator', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const reply = await send(port, { path: '/api/broken' });
      expect(reply.status).toBe(500);
      expect(errorShapeProblems(500, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(reply.text).not.toContain('a bug');
      expect(logged).toHaveBeenCalledWith('site-admin: GET /api/broken failed', expect.any(Error));
    } finally {
      logged.mockRestore();
    }
  });
});
