import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { createBasicAuth, hostName, isAllowedHost, isLoopbackHost, isSameOrigin } from './security';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '10.0.0.1'])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

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

describe('loadConfig: who may use the server', () => {
  it('refuses to listen beyond loopback without a login, and says why', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/ADMIN_USER and ADMIN_PASSWORD/);
  });
  it('listens anywhere with a login', () => {
    const config = loadConfig({ HOST: '0.0.0.0', ADMIN_USER: 'staff', ADMIN_PASSWORD: 'a long passphrase' });
    expect(config.login).toEqual({ user: 'staff', password: 'a long passphrase' });
  });
  it('needs both halves of the login, and a password that is not trivially short', () => {
    expect(() => loadConfig({ ADMIN_USER: 'staff' })).toThrow(/ADMIN_PASSWORD must be set/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'a long passphrase' })).toThrow(/ADMIN_USER must be set/);
    expect(() => loadConfig({ ADMIN_USER: 'staff', ADMIN_PASSWORD: 'short' })).toThrow(/at least 12/);
  });
});

describe('HTTP Basic login', () => {
  let server: http.Server;
  let port: number;
  const check = createBasicAuth({ user: 'staff', password: 'correct horse battery', failureDelayMs: 60, maxDelayMs: 240 });

  beforeAll(async () => {
    server = http.createServer((req, res) => check(req, res, () => res.end('welcome')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ask = async (authorization?: string) => {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/`, { headers: authorization ? { authorization } : {} });
    return { status: response.status, text: await response.text(), challenge: response.headers.get('www-authenticate'), ms: performance.now() - started };
  };
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('asks for a login, in the error shape', async () => {
    const reply = await ask();
    expect(reply.status).toBe(401);
    expect(reply.challenge).toMatch(/^Basic realm="site-admin"/);
    expect(JSON.parse(reply.text)).toMatchObject({ error: 'Unauthorized', code: 401 });
  });

  it('lets the right login in and keeps a wrong one out', async () => {
    expect((await ask(basic('staff', 'correct horse battery'))).text).toBe('welcome');
    expect((await ask(basic('staff', 'wrong'))).status).toBe(401);
    // The next attempt waits out the short window the failure opened.
    await vi.waitFor(async () => expect((await ask(basic('other', 'correct horse battery'))).status).toBe(401), {
      timeout: 5000,
      interval: 20,
    });
  });

  it('makes an address wait after a failed attempt, answering 429 without checking anything meanwhile', async () => {
    // Earlier failures from this address count too: its window has grown by now.
    let first = await ask(basic('staff', 'guess'));
    await vi.waitFor(async () => {
      first = await ask(basic('staff', 'guess'));
      expect(first.status).toBe(401);
    }, { timeout: 5000, interval: 20 });
    // Inside the window even the right password is not looked at, and parallel guesses gain nothing.
    const parallel = await Promise.all([1, 2, 3, 4, 5].map((n) => ask(basic('staff', `parallel ${n}`))));
    expect(parallel.map((r) => r.status)).toEqual([429, 429, 429, 429, 429]);
    const early = await ask(basic('staff', 'correct horse battery'));
    expect(early.status).toBe(429);
    expect(JSON.parse(early.text)).toMatchObject({ error: 'Too Many Requests', code: 429 });
    // After the wait, the right login gets in.
    await vi.waitFor(async () => expect((await ask(basic('staff', 'correct horse battery'))).text).toBe('welcome'), {
      timeout: 5000,
      interval: 20,
    });
  });
});

describe('allowed hosts (DNS rebinding)', () => {
  it('answers loopback names on loopback, and nothing else', () => {
    const allowed = loadConfig({}).allowedHosts;
    for (const host of ['127.0.0.1:4173', 'localhost:4173', '[::1]:4173', 'LOCALHOST', '127.0.0.2:80']) {
      expect(isAllowedHost(host, allowed), host).toBe(true);
    }
    for (const host of ['evil.example:4173', 'evil.example', '', undefined, '127.0.0.1.evil.example']) {
      expect(isAllowedHost(host, allowed), String(host)).toBe(false);
    }
  });
  it('takes the operator’s list, and answers any host off loopback when none is listed', () => {
    const listed = loadConfig({ HOST: '0.0.0.0', ADMIN_USER: 'a', ADMIN_PASSWORD: 'a long passphrase', ALLOWED_HOSTS: 'admin.example.com' });
    expect(isAllowedHost('admin.example.com', listed.allowedHosts)).toBe(true);
    expect(isAllowedHost('other.example.com', listed.allowedHosts)).toBe(false);
    const open = loadConfig({ HOST: '0.0.0.0', ADMIN_USER: 'a', ADMIN_PASSWORD: 'a long passphrase' });
    expect(isAllowedHost('whatever.example', open.allowedHosts)).toBe(true);
  });
  it('reads host names from Host headers', () => {
    expect(hostName('[::1]:4173')).toBe('::1');
    expect(hostName('Example.COM:8080')).toBe('example.com');
    expect(hostName('bad:host:x')).toBe('');
  });
});
