import * as z from 'zod/mini';
import { EventEmitter, once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLATFORM_STATUS_HEADER } from '../src/contract/server-meta';
import { errorBodySchema, type ErrorBody } from '../src/contract/site-api';
import { createSiteAdminServer, type SiteAdminServer } from './app';
import { loadConfig } from './config';
import type { RequestLogEntry } from './pipeline/request-log';
import { seedCases } from './sandbox/seed';
import { configError, proxyListener } from './testing/test-helpers';

// ---------------------------------------------------------------------------------------------------------------
// Helpers: listening on loopback, raw HTTP requests (fetch would normalise `..` and `%2e%2e` before sending).
// ---------------------------------------------------------------------------------------------------------------

async function listen(server: http.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function closeServer(server: http.Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

function send(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; chunked?: boolean },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && !options.chunked) headers['content-length'] = String(Buffer.byteLength(options.body));
    const method = options.method ?? 'GET';
    const req = http.request({ host: '127.0.0.1', port, method, path: options.path, headers, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as unknown }));
      res.on('error', reject);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** Checks the error shape: error = status phrase, code = HTTP status, message present. */
function expectError(reply: Reply, status: number, phrase: string): ErrorBody {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  const body = reply.json();
  expect(z.strictObject(errorBodySchema.shape).safeParse(body).success, reply.text).toBe(true);
  const error = body as ErrorBody;
  expect(error).toMatchObject({ error: phrase, code: status });
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

// ---------------------------------------------------------------------------------------------------------------
// A throwaway upstream that records every request and answers according to the case id in the path.
// ---------------------------------------------------------------------------------------------------------------

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const upstreamEvents = new EventEmitter();

function upstreamHandler(req: IncomingMessage, res: ServerResponse) {
  const entry: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
  received.push(entry);
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (entry.body += chunk));
  req.on('error', () => undefined);
  req.on('end', () => {
    const json = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    if (entry.url.endsWith('/cases/slow')) {
      // Answers long after the proxy's time-out, unless the proxy hangs up first.
      const timer = setTimeout(() => json(200, { late: true }), 10_000);
      res.on('close', () => {
        clearTimeout(timer);
        upstreamEvents.emit('slow-closed');
      });
      return;
    }
    if (entry.url.endsWith('/cases/html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Maintenance</body></html>');
      return;
    }
    if (entry.url.endsWith('/cases/html500')) {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body>Internal error</body></html>');
      return;
    }
    if (entry.url.endsWith('/cases/stall')) {
      // Sends its headers and half a body, then nothing more.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":"stall","properties":');
      return;
    }
    const key = String(req.headers['x-api-key']);
    // Answers a careless or hostile platform might give, each under its own case id.
    const odd: Record<string, () => void> = {
      'html-json': () => {
        res.writeHead(200, { 'content-type': 'text/html; x=/json' });
        res.end('<script>alert(document.domain)</script>');
      },
      'problem-json': () => {
        res.writeHead(200, { 'content-type': 'application/problem+json' });
        res.end('{"id":"1"}');
      },
      'not-json': () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('<html><body>Maintenance</body></html>');
      },
      'latin1-json': () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
        res.end('{"id":"1"}');
      },
      down: () => {
        res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '120' });
        res.end('<html><body>Down for maintenance until 10:00</body></html>');
      },
      'odd-error': () => json(500, { status: 'error', detail: 'Database unavailable', trace: 'x1' }),
      'bare-error': () => {
        res.writeHead(502, { 'content-length': '0' });
        res.end();
      },
      'echo-key': () =>
        json(200, { id: '1', debug: { headers: { 'x-api-key': key }, url: `https://shop.example/?key=${encodeURIComponent(key)}` } }),
      'echo-key-escaped': () => {
        const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
        const text = `{"id":"1","echo":"${escaped}","n":12345678901234567890}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(text);
      },
      'echo-key-error': () => json(401, { error: 'Unauthorized', message: `The key ${key} is not valid for this site.`, code: 401 }),
      'big-number': () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":"1","order_id":12345678901234567890123,"total":1.10}');
      },
      redirect: () => {
        res.writeHead(302, { location: 'https://evil.example/', 'content-type': 'application/json' });
        res.end('{}');
      },
    };
    const oddCase = odd[entry.url.split('/').pop() ?? ''];
    if (oddCase) {
      oddCase();
      return;
    }
    if (entry.url.endsWith('/cases/gone')) {
      json(404, { error: 'Not Found', message: 'Form 3 has no case gone.', code: 404 });
      return;
    }
    if (entry.url.endsWith('/ecommerce/products/create')) {
      const product = JSON.parse(entry.body) as Record<string, unknown>;
      if (product.name === '') {
        const details = [{ field: 'name', message: 'Name is required' }];
        json(422, { error: 'Unprocessable Entity', message: 'bad', code: 422, details });
        return;
      }
      json(200, { id: '501', ...product });
      return;
    }
    json(200, { id: 'case', echo: { method: entry.method, url: entry.url } });
  });
}

const PROXY_OPTIONS = { site: 'main', apiKey: 'secret-key', siteId: '1001', timeoutMs: 500, maxBodyBytes: 1024 } as const;

let upstream: http.Server;
let upstreamPort: number;
let proxyServer: http.Server;
let proxyPort: number;
const logs: RequestLogEntry[] = [];

beforeAll(async () => {
  upstream = http.createServer(upstreamHandler);
  upstreamPort = await listen(upstream);
  const proxy = proxyListener({
    ...PROXY_OPTIONS,
    upstream: new URL(`http://127.0.0.1:${upstreamPort}/api/site/v2`),
    log: (entry) => logs.push(entry),
  });
  proxyServer = http.createServer(proxy);
  proxyPort = await listen(proxyServer);
});

afterAll(async () => {
  await closeServer(proxyServer);
  await closeServer(upstream);
});

beforeEach(() => {
  received.length = 0;
  logs.length = 0;
});

const get = (path: string, headers: Record<string, string> = {}) => send(proxyPort, { path, headers });
const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
  send(proxyPort, { method: 'POST', path, body, headers: { 'content-type': 'application/json', ...headers } });

describe('proxy: credentials', () => {
  it('injects x-api-key and x-site-id from its settings', async () => {
    const reply = await get('/api/site/v2/forms/3/cases/48211');
    expect(reply.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['x-api-key']).toBe('secret-key');
    expect(received[0]?.headers['x-site-id']).toBe('1001');
  });

  it('never forwards the caller’s x-api-key, x-site-id, authorization or cookie', async () => {
    const sneaky = {
      'x-api-key': 'client-key',
      'x-site-id': '9999',
      authorization: 'Bearer client-token',
      cookie: 'session=abc',
      'x-forwarded-for': '10.0.0.1',
    };
    await get('/api/site/v2/forms/3/cases/48211', sneaky);
    await postJson('/api/site/v2/ecommerce/products/create', '{"name":"Mug"}', sneaky);
    expect(received).toHaveLength(2);
    for (const r of received) {
      expect(r.headers['x-api-key']).toBe('secret-key');
      expect(r.headers['x-site-id']).toBe('1001');
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers.cookie).toBeUndefined();
      expect(r.headers['x-forwarded-for']).toBeUndefined();
      expect(JSON.stringify(r.headers)).not.toContain('client-');
    }
  });

  it('does not send the key back to the caller', async () => {
    const reply = await get('/api/site/v2/forms/3/cases/48211');
    expect(JSON.stringify(reply.headers)).not.toContain('secret-key');
    expect(reply.text).not.toContain('secret-key');
  });
});

describe('proxy: only the two operations of the spec', () => {
  it('forwards GET forms/{form}/cases/{id} to the same path under the upstream base', async () => {
    const reply = await get('/api/site/v2/forms/3/cases/48211', { accept: 'application/json' });
    expect(reply.status).toBe(200);
    expect(received).toEqual([expect.objectContaining({ method: 'GET', url: '/api/site/v2/forms/3/cases/48211', body: '' })]);
    expect(received[0]?.headers.accept).toBe('application/json');
  });

  it('forwards POST ecommerce/products/create with its body and Content-Type intact', async () => {
    const body = JSON.stringify({ name: 'Café throw', slug: 'cafe-throw', attributes: [{ name: 'Größe' }] });
    const reply = await postJson('/api/site/v2/ecommerce/products/create', body, {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ id: '501', ...(JSON.parse(body) as object) });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/api/site/v2/ecommerce/products/create', body });
    expect(received[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it.each([
    ['POST', '/api/site/v2/forms/3/cases/1'],
    ['PUT', '/api/site/v2/forms/3/cases/1'],
    ['DELETE', '/api/site/v2/forms/3/cases/1'],
    ['GET', '/api/site/v2/ecommerce/products/create'],
    ['PATCH', '/api/site/v2/ecommerce/products/create'],
    ['GET', '/api/site/v2'],
    ['GET', '/api/site/v2/'],
    ['POST', '/api/site/v2/forms/3/cases'],
    ['GET', '/api/site/v2/forms/3/cases/'],
    ['GET', '/api/site/v2/forms//cases/1'],
    ['GET', '/api/site/v2/forms/3/cases/1/extra'],
    ['GET', '/api/site/v2/forms/3/cases/1/'],
    ['DELETE', '/api/site/v2/ecommerce/products/1042'],
    ['POST', '/api/site/v2/ecommerce/products/1042'],
    ['PUT', '/api/site/v2/ecommerce/products/create'],
    ['POST', '/api/site/v2/ecommerce/products/create/'],
    ['POST', '/api/site/v2/ecommerce/products/delete'],
    ['GET', '/api/site/v2/users/me'],
  ])('answers %s %s with 404 in the error shape and sends nothing upstream', async (method, path) => {
    const body = method === 'GET' ? undefined : '{}';
    const reply = await send(proxyPort, { method, path, headers: { 'content-type': 'application/json' }, body });
    expectError(reply, 404, 'Not Found');
    expect(received).toEqual([]);
  });
});

describe('proxy: paths', () => {
  it.each([
    ['an encoded question mark', 'a%3Fb'],
    ['an encoded space', 'x%20y'],
    ['encoded UTF-8', 'caf%C3%A9'],
    ['a percent sign encoded twice', '%252e%252e'],
    ['fullwidth dots', '%EF%BC%8E%EF%BC%8E'],
    ['an encoded NUL', '%00'],
    ['encoded CR and LF', 'a%0D%0Ab'],
    ['an identifier of 65 characters', 'x'.repeat(65)],
  ])('refuses %s in an identifier with 422, before the platform sees it', async (_what, segment) => {
    const form = await get(`/api/site/v2/forms/${segment}/cases/48211`);
    expect(expectError(form, 422, 'Unprocessable Entity').details?.map((d) => d.field)).toEqual(['form']);
    const id = await get(`/api/site/v2/forms/3/cases/${segment}`);
    expect(expectError(id, 422, 'Unprocessable Entity').details?.map((d) => d.field)).toEqual(['id']);
    expect(received).toEqual([]);
  });

  it('refuses a lookup that carries a body, without forwarding it or reading on', async () => {
    const reply = await send(proxyPort, { method: 'GET', path: '/api/site/v2/forms/3/cases/48211', body: '{"x":1}' });
    expectError(reply, 400, 'Bad Request');
    expect(reply.headers.connection).toBe('close');
    expect(received).toEqual([]);
  });

  it.each([
    '/api/site/v2/forms/a%2Fb/cases/1',
    '/api/site/v2/forms/3/cases/..%2F..%2Fadmin',
    '/api/site/v2/forms/a%5Cb/cases/1',
    '/api/site/v2/forms/../cases/1',
    '/api/site/v2/forms/3/cases/..',
    '/api/site/v2/forms/./cases/1',
    '/api/site/v2/forms/%2e%2e/cases/1',
    '/api/site/v2/forms/3/cases/%2E%2E',
    '/api/site/v2/forms/.%2e/cases/1',
    '/api/site/v2/forms/3/cases/%2e',
    '/api/site/v2/../../admin/forms/3/cases/1',
    '/api/site/v2/forms/3/cases/1/../../../../secret',
    '/api/site/v2/forms/%ZZ/cases/1',
  ])('never lets %s reach the upstream', async (path) => {
    const reply = await get(path);
    expectError(reply, 404, 'Not Found');
    expect(received).toEqual([]);
  });

  it('drops the query string', async () => {
    await get('/api/site/v2/forms/3/cases/48211?include=all&x-api-key=evil');
    await postJson('/api/site/v2/ecommerce/products/create?site=2', '{"name":"Mug"}');
    expect(received.map((r) => r.url)).toEqual(['/api/site/v2/forms/3/cases/48211', '/api/site/v2/ecommerce/products/create']);
  });
});

describe('proxy: answers', () => {
  it('passes the upstream status and JSON body through', async () => {
    const ok = await get('/api/site/v2/forms/3/cases/48211');
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ok.json()).toEqual({ id: 'case', echo: { method: 'GET', url: '/api/site/v2/forms/3/cases/48211' } });

    const missing = await get('/api/site/v2/forms/3/cases/gone');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not Found', message: 'Form 3 has no case gone.', code: 404 });

    const invalid = await postJson('/api/site/v2/ecommerce/products/create', '{"name":""}');
    expect(invalid.status).toBe(422);
    expect(invalid.json()).toMatchObject({ code: 422, details: [{ field: 'name', message: 'Name is required' }] });
  });

  it('returns the caller’s x-request-id and forwards it', async () => {
    const reply = await get('/api/site/v2/forms/3/cases/48211', { 'x-request-id': 'req-abc.123' });
    expect(reply.headers['x-request-id']).toBe('req-abc.123');
    expect(received[0]?.headers['x-request-id']).toBe('req-abc.123');
  });

  it('makes up an x-request-id when there is none, or it is not a safe token, and forwards that one', async () => {
    const none = await get('/api/site/v2/forms/3/cases/1');
    const unsafe = await get('/api/site/v2/forms/3/cases/2', { 'x-request-id': 'has spaces <and> "quotes"' });
    for (const [i, reply] of [none, unsafe].entries()) {
      const id = reply.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(received[i]?.headers['x-request-id']).toBe(id);
    }
    expect(none.headers['x-request-id']).not.toBe(unsafe.headers['x-request-id']);
  });

  it('returns an x-request-id on answers it gives itself', async () => {
    const reply = await get('/api/site/v2/nothing-here', { 'x-request-id': 'r1' });
    expect(reply.status).toBe(404);
    expect(reply.headers['x-request-id']).toBe('r1');
  });

  it('logs each request with its route and status, but not the key', async () => {
    await get('/api/site/v2/forms/3/cases/48211', { 'x-request-id': 'log-1' });
    await get('/api/site/v2/other', { 'x-request-id': 'log-2' });
    await vi.waitFor(() => expect(logs).toHaveLength(2));
    expect(logs).toContainEqual(
      expect.objectContaining({ requestId: 'log-1', site: 'main', method: 'GET', route: 'get-form-case', status: 200 }),
    );
    expect(logs).toContainEqual(expect.objectContaining({ requestId: 'log-2', route: 'not-allowed', status: 404 }));
    expect(JSON.stringify(logs)).not.toContain('secret-key');
  });
});

describe('proxy: failures', () => {
  it('answers 413 for a declared body over maxBodyBytes and sends nothing upstream', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2000) });
    const reply = await postJson('/api/site/v2/ecommerce/products/create', body);
    expectError(reply, 413, 'Content Too Large');
    expect(received).toEqual([]);
  });

  it('answers 413 for a chunked body that grows over maxBodyBytes', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(4000) });
    const reply = await send(proxyPort, {
      method: 'POST',
      path: '/api/site/v2/ecommerce/products/create',
      headers: { 'content-type': 'application/json' },
      body,
      chunked: true,
    });
    expectError(reply, 413, 'Content Too Large');
    expect(received.filter((r) => r.body === body)).toEqual([]);
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    const name = 'x'.repeat(1024 - JSON.stringify({ name: '' }).length);
    const body = JSON.stringify({ name });
    expect(Buffer.byteLength(body)).toBe(1024);
    const reply = await postJson('/api/site/v2/ecommerce/products/create', body);
    expect(reply.status).toBe(200);
    expect(received[0]?.body).toBe(body);
  });

  it('answers 504 when the upstream is slower than timeoutMs, and hangs up on it', async () => {
    const hungUp = once(upstreamEvents, 'slow-closed');
    const started = performance.now();
    const reply = await get('/api/site/v2/forms/3/cases/slow');
    const elapsed = performance.now() - started;
    expectError(reply, 504, 'Gateway Timeout');
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(5000);
    await hungUp;
  });

  it('does not hold the caller forever when the upstream sends its headers and then stalls', async () => {
    // The 504 time-out stops at the upstream's headers; a body that never finishes must still be cut off.
    let finished = false;
    const req = http.get({ host: '127.0.0.1', port: proxyPort, path: '/api/site/v2/forms/3/cases/stall', agent: false });
    req.on('error', () => (finished = true));
    req.on('response', (res) => {
      res.resume();
      res.on('error', () => (finished = true));
      res.on('close', () => (finished = true));
    });
    try {
      await vi.waitFor(() => expect(finished).toBe(true), { timeout: PROXY_OPTIONS.timeoutMs * 6, interval: 25 });
    } finally {
      req.destroy();
    }
  });

  it('reaches an upstream given as an IPv6 literal', async (ctx) => {
    const v6 = http.createServer(upstreamHandler);
    try {
      v6.listen(0, '::1');
      await once(v6, 'listening');
    } catch {
      ctx.skip(); // no IPv6 loopback on this machine
      return;
    }
    const v6Port = (v6.address() as AddressInfo).port;
    const v6Proxy = http.createServer(proxyListener({ ...PROXY_OPTIONS, upstream: new URL(`http://[::1]:${v6Port}/api/site/v2`) }));
    try {
      const port = await listen(v6Proxy);
      const reply = await send(port, { path: '/api/site/v2/forms/3/cases/48211' });
      expect(reply.status, reply.text).toBe(200);
      expect(received.map((r) => r.url)).toEqual(['/api/site/v2/forms/3/cases/48211']);
    } finally {
      await closeServer(v6Proxy);
      await closeServer(v6);
    }
  });

  it('forwards a small chunked body intact', async () => {
    const body = JSON.stringify({ name: 'Chunked mug' });
    const reply = await send(proxyPort, {
      method: 'POST',
      path: '/api/site/v2/ecommerce/products/create',
      headers: { 'content-type': 'application/json' },
      body,
      chunked: true,
    });
    expect(reply.status).toBe(200);
    expect(received[0]?.body).toBe(body);
  });

  it.each([
    ['text/html with a parameter that contains /json', 'html-json'],
    ['application/problem+json', 'problem-json'],
    ['application/json whose body is not JSON', 'not-json'],
    ['JSON in a charset other than UTF-8', 'latin1-json'],
  ])('answers 502 for a 200 of %s, and serves none of it', async (_what, id) => {
    const reply = await get(`/api/site/v2/forms/3/cases/${id}`);
    const error = expectError(reply, 502, 'Bad Gateway');
    expect(error.message).toContain('200');
    expect(reply.text).not.toMatch(/script|Maintenance|"id"/);
  });

  it('puts a platform error that is not in the spec’s shape into that shape, keeping the platform’s text', async () => {
    const down = await get('/api/site/v2/forms/3/cases/down');
    expect(expectError(down, 503, 'Service Unavailable').message).toContain('Down for maintenance until 10:00');
    expect(down.headers['retry-after']).toBe('120');
    const odd = await get('/api/site/v2/forms/3/cases/odd-error');
    expect(expectError(odd, 500, 'Internal Server Error').message).toContain('Database unavailable');
    const bare = await get('/api/site/v2/forms/3/cases/bare-error');
    expect(expectError(bare, 502, 'Bad Gateway').message).toMatch(/502/);
    const redirect = await get('/api/site/v2/forms/3/cases/redirect');
    expectError(redirect, 502, 'Bad Gateway');
    expect(redirect.headers.location).toBeUndefined();
  });

  it('never lets the key out, even when the platform echoes it (plainly, URL-encoded or \\u-escaped)', async () => {
    for (const id of ['echo-key', 'echo-key-escaped', 'echo-key-error']) {
      const reply = await get(`/api/site/v2/forms/3/cases/${id}`);
      expect(reply.text, id).not.toContain(PROXY_OPTIONS.apiKey);
      expect(reply.text, id).not.toContain(encodeURIComponent(PROXY_OPTIONS.apiKey));
      expect(JSON.stringify(JSON.parse(reply.text)), id).not.toContain(PROXY_OPTIONS.apiKey);
      expect(JSON.stringify(reply.headers), id).not.toContain(PROXY_OPTIONS.apiKey);
      expect(reply.text, id).toContain('[redacted]');
    }
    const error = await get('/api/site/v2/forms/3/cases/echo-key-error');
    expect(expectError(error, 401, 'Unauthorized').message).toBe('The key [redacted] is not valid for this site.');
  });

  it('passes a JSON answer on as the platform wrote it (numbers beyond 2^53 stay exact)', async () => {
    const reply = await get('/api/site/v2/forms/3/cases/big-number');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('{"id":"1","order_id":12345678901234567890123,"total":1.10}');
  });

  it('answers 502 when the upstream answers something that is not JSON', async () => {
    const reply = await get('/api/site/v2/forms/3/cases/html');
    const error = expectError(reply, 502, 'Bad Gateway');
    expect(reply.text).not.toContain('Maintenance');
    expect(error.message).toContain('200');
  });

  it('tells the browser the platform’s own status on every answer the platform gave, and only then', async () => {
    // The browser tells a platform error from an unreachable platform by it: a 200 that is not JSON and an
    // unreachable platform both reach it as 502.
    const html500 = await get('/api/site/v2/forms/3/cases/html500');
    expectError(html500, 500, 'Internal Server Error');
    expect(html500.headers[PLATFORM_STATUS_HEADER]).toBe('500');
    expect((await get('/api/site/v2/forms/3/cases/html')).headers[PLATFORM_STATUS_HEADER]).toBe('200');
    expect((await get('/api/site/v2/forms/3/cases/gone')).headers[PLATFORM_STATUS_HEADER]).toBe('404');
    expect((await get('/api/site/v2/forms/3/cases/48211')).headers[PLATFORM_STATUS_HEADER]).toBe('200');
    expect((await get('/api/site/v2/forms/3/cases/slow')).headers[PLATFORM_STATUS_HEADER]).toBeUndefined();
    expect((await get('/api/site/v2/not-an-operation')).headers[PLATFORM_STATUS_HEADER]).toBeUndefined();
  });

  describe('with an upstream that cannot be reached', () => {
    let deadProxy: http.Server;
    let deadPort: number;

    beforeAll(async () => {
      const gone = http.createServer();
      const goneport = await listen(gone);
      await closeServer(gone);
      deadProxy = http.createServer(proxyListener({ ...PROXY_OPTIONS, upstream: new URL(`http://127.0.0.1:${goneport}/api/site/v2`) }));
      deadPort = await listen(deadProxy);
    });

    afterAll(async () => {
      await closeServer(deadProxy);
    });

    it('answers 502 in the error shape for both operations, with no platform status', async () => {
      const lookup = await send(deadPort, { path: '/api/site/v2/forms/3/cases/1' });
      expectError(lookup, 502, 'Bad Gateway');
      expect(lookup.headers[PLATFORM_STATUS_HEADER]).toBeUndefined();
      expectError(
        await send(deadPort, {
          method: 'POST',
          path: '/api/site/v2/ecommerce/products/create',
          headers: { 'content-type': 'application/json' },
          body: '{"name":"Mug"}',
        }),
        502,
        'Bad Gateway',
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The whole server: createSiteAdminServer(loadConfig(...)).
// ---------------------------------------------------------------------------------------------------------------

async function startSiteAdmin(env: Record<string, string>, sandboxThread: 'this' | 'worker' = 'this') {
  const site = await createSiteAdminServer(loadConfig(env), { sandboxThread });
  const server = http.createServer((req, res) => site.handle(req, res));
  const port = await listen(server);
  return { site, server, port };
}

// `npm start` runs the sandbox in a worker thread; tests and the dev server on their own thread: both alike.
describe.each(['this', 'worker'] as const)('createSiteAdminServer in sandbox mode (the sandbox on %s thread)', (sandboxThread) => {
  const SANDBOX_KEY = 'sandbox-key-that-must-stay-on-the-server';
  let dataDir: string;
  let site: SiteAdminServer;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'site-admin-test-'));
    ({ site, server, port } = await startSiteAdmin({ SANDBOX_DATA_DIR: dataDir, SANDBOX_API_KEY: SANDBOX_KEY }, sandboxThread));
  });

  afterAll(async () => {
    await closeServer(server);
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says it works on the sandbox, with the site id and never the key', async () => {
    const reply = await send(port, { path: '/api/sites' });
    expect(reply.status).toBe(200);
    expect(reply.json()).toMatchObject({ sites: [{ id: 'main', mode: 'sandbox', siteId: '1001' }] });
    expect(reply.text).not.toContain(SANDBOX_KEY);
    expect(JSON.stringify(reply.headers)).not.toContain(SANDBOX_KEY);
  });

  it('reports health', async () => {
    const reply = await send(port, { path: '/api/health' });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown /api endpoint with 404 in the error shape', async () => {
    expectError(await send(port, { path: '/api/unknown' }), 404, 'Not Found');
    expectError(await send(port, { method: 'POST', path: '/api/sites', body: '{}' }), 404, 'Not Found');
  });

  it('fetches a seeded case end to end through the proxy', async () => {
    const seeded = seedCases().find((c) => c.form === '7')!;
    const reply = await send(port, { path: `/api/site/v2/forms/${seeded.form}/cases/${seeded.id}` });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual(seeded.record);
  });

  it('passes the sandbox’s 404 and 422 through', async () => {
    expectError(await send(port, { path: '/api/site/v2/forms/3/cases/1' }), 404, 'Not Found');
    const error = expectError(await send(port, { path: '/api/site/v2/forms/a.b/cases/1' }), 422, 'Unprocessable Entity');
    expect(error.details?.map((d) => d.field)).toEqual(['form']);
  });

  it('creates a product end to end, stored in the sandbox', async () => {
    const before = site.sandbox!.store.countProducts();
    const reply = await send(port, {
      method: 'POST',
      path: '/api/site/v2/ecommerce/products/create',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ name: 'End to end mug', slug: 'end-to-end-mug' }),
    });
    expect(reply.status).toBe(200);
    expect(reply.json()).toMatchObject({ id: expect.any(String), name: 'End to end mug', slug: 'end-to-end-mug' });
    expect(site.sandbox!.store.countProducts()).toBe(before + 1);
  });

  it('refuses a create from another site, or with no origin at all, before it reaches the platform', async () => {
    const before = site.sandbox!.store.countProducts();
    const attempts: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: `http://127.0.0.1:${port}` },
      {},
    ];
    for (const extra of attempts) {
      const reply = await send(port, {
        method: 'POST',
        path: '/api/site/v2/ecommerce/products/create',
        headers: { 'content-type': 'application/json', ...extra },
        body: JSON.stringify({ name: 'Forged', slug: 'forged' }),
      });
      expectError(reply, 403, 'Forbidden');
    }
    expect(site.sandbox!.store.countProducts()).toBe(before);
  });

  it('accepts a create that the browser marks as same-origin', async () => {
    const reply = await send(port, {
      method: 'POST',
      path: '/api/site/v2/ecommerce/products/create',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ name: 'Fetched mug', slug: 'fetched-mug' }),
    });
    expect(reply.status).toBe(200);
  });

  it('sends the security headers on pages, API answers and errors alike', async () => {
    for (const path of ['/api/health', '/api/sites', '/api/site/v2/forms/3/cases/1', '/api/nope']) {
      const reply = await send(port, { path });
      expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('does not let a caller reach the sandbox helpers through the proxy', async () => {
    expectError(await send(port, { path: '/api/site/v2/../../__sandbox/products' }), 404, 'Not Found');
  });
});

describe('createSiteAdminServer in platform mode', () => {
  let dataDir: string;
  let site: SiteAdminServer;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'site-admin-test-'));
    ({ site, server, port } = await startSiteAdmin({
      SITE_API_BASE_URL: `http://127.0.0.1:${upstreamPort}/api/site/v2`,
      SITE_API_KEY: 'platform-key-xyz',
      SITE_ID: '2002',
      DATA_DIR: dataDir,
    }));
  });

  afterAll(async () => {
    await closeServer(server);
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts no sandbox and names the platform host, never the key', async () => {
    expect(site.sandbox).toBeUndefined();
    const reply = await send(port, { path: '/api/sites' });
    expect(reply.json()).toMatchObject({ sites: [{ mode: 'platform', host: `127.0.0.1:${upstreamPort}`, siteId: '2002' }] });
    expect(reply.text).not.toContain('platform-key-xyz');
  });

  it('forwards to the platform with the configured credentials', async () => {
    const reply = await send(port, { path: '/api/site/v2/forms/3/cases/77?x=1', headers: { 'x-api-key': 'mine' } });
    expect(reply.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ url: '/api/site/v2/forms/3/cases/77' });
    expect(received[0]?.headers).toMatchObject({ 'x-api-key': 'platform-key-xyz', 'x-site-id': '2002' });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// loadConfig
// ---------------------------------------------------------------------------------------------------------------

describe('loadConfig', () => {
  const platform = 'https://shop.example.com/api/site/v2';

  it('defaults to the sandbox with its local key and site 1001', () => {
    const config = loadConfig({});
    expect(config.siteProfile).toBeUndefined();
    expect(config.host).toBe('127.0.0.1');
    expect(config.sites).toEqual([
      {
        profile: { id: 'main', name: 'Sandbox', platform: { sandbox: true, siteId: '1001' } },
        upstream: 'sandbox',
        apiKey: 'sandbox-local-key',
        siteId: '1001',
      },
    ]);
  });

  it('names both settings when SITE_API_BASE_URL is set without SITE_API_KEY and SITE_ID', () => {
    const error = configError({ SITE_API_BASE_URL: platform });
    expect(error.message).toContain('SITE_API_KEY');
    expect(error.message).toContain('SITE_ID');
  });

  it('names SITE_API_KEY alone when only the key is missing (or blank)', () => {
    const envs: Record<string, string>[] = [
      { SITE_API_BASE_URL: platform, SITE_ID: '1001' },
      { SITE_API_BASE_URL: platform, SITE_ID: '1001', SITE_API_KEY: '  ' },
    ];
    for (const env of envs) {
      const error = configError(env);
      expect(error.message).toContain('SITE_API_KEY');
      expect(error.message).not.toMatch(/SITE_ID\b/);
    }
  });

  it('names SITE_ID alone when only the site id is missing', () => {
    const error = configError({ SITE_API_BASE_URL: platform, SITE_API_KEY: 'k' });
    expect(error.message).toContain('SITE_ID');
    expect(error.message).not.toContain('SITE_API_KEY');
  });

  it('does not fall back to the sandbox credentials in platform mode', () => {
    const error = configError({ SITE_API_BASE_URL: platform, SANDBOX_API_KEY: 'k', SANDBOX_SITE_ID: '1' });
    expect(error.message).toContain('SITE_API_KEY');
  });

  it.each([
    [{ SITE_API_BASE_URL: 'not a url', SITE_API_KEY: 'k', SITE_ID: '1' }, 'SITE_API_BASE_URL'],
    [{ SITE_API_BASE_URL: 'ftp://shop.example.com/api/site/v2', SITE_API_KEY: 'k', SITE_ID: '1' }, 'SITE_API_BASE_URL'],
    [{ SITE_API_BASE_URL: platform, SITE_API_KEY: 'k', SITE_ID: 'shop-1' }, 'SITE_ID'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PROXY_TIMEOUT_MS: '10' }, 'PROXY_TIMEOUT_MS'],
    [{ MAX_BODY_BYTES: '1.5' }, 'MAX_BODY_BYTES'],
  ])('refuses %j, naming %s', (env, setting) => {
    expect(configError(env).message).toContain(setting);
  });

  it('reads a complete platform configuration, trimming the credentials', () => {
    const config = loadConfig({
      SITE_API_BASE_URL: ` ${platform} `,
      SITE_API_KEY: ' key-1 ',
      SITE_ID: ' 2002 ',
      PROXY_TIMEOUT_MS: '2500',
    });
    expect(config.proxyTimeoutMs).toBe(2500);
    expect(config.sites).toHaveLength(1);
    const site = config.sites[0]!;
    expect(site.upstream).toEqual(new URL(platform));
    expect(site).toMatchObject({ apiKey: 'key-1', siteId: '2002', profile: { id: 'main', name: 'shop.example.com' } });
    expect(JSON.stringify(site.profile)).not.toContain('key-1');
  });
});
