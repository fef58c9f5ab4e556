/**
 * A refused request costs us nothing, and its answer arrives:
 *
 * - every refusal (wrong Host, cross-origin create, no such operation, no login, too many logins, a POST
 *   to a page, a lookup with a body) is answered at once with `Connection: close`, and the server stops
 *   reading: an attacker announcing 1 GiB gets to send a few MiB at most before the connection is closed;
 * - the 413 for an 8 MiB create reaches the client, also one that sends its whole request before it
 *   reads the answer (as many HTTP/1.1 clients do), 30 times out of 30.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../src/contract/site-api';
import { createBasicAuth } from './login';
import { closeServer, errorShapeProblems, listen, parseRawResponse, send, startSandboxedSite, type RawReply } from './test-helpers';

const MIB = 1024 * 1024;
const CREATE = `${API_BASE_PATH}/ecommerce/products/create`;
const LOGIN = `Basic ${Buffer.from('staff:correct horse battery').toString('base64')}`;

/**
 * Sends `head` (which announces a huge body), then streams zeros as fast as the server takes them, until
 * the server closes the connection or `capBytes` were taken. Returns the answer and how many bytes the
 * server took off our hands (written into the connection without error).
 */
function uploadUntilClosed(port: number, head: string, capBytes: number): Promise<{ reply: RawReply | null; taken: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const chunk = Buffer.alloc(64 * 1024);
    let taken = 0;
    let offered = 0;
    let closed = false;
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      resolve({ reply: parseRawResponse(Buffer.concat(received)), taken });
    });
    const pump = () => {
      while (!closed && offered < capBytes) {
        offered += chunk.length;
        const more = socket.write(chunk, (error) => {
          if (!error) taken += chunk.length;
        });
        if (!more) {
          socket.once('drain', pump);
          return;
        }
      }
      // Everything was offered and the server is still reading: stop here; the test reports it.
      if (!closed && offered >= capBytes) socket.destroy();
    };
    socket.write(head, pump);
  });
}

/**
 * A client that writes its whole request and only then reads the answer. If the connection is reset
 * while it writes, it never sees the answer: 'reset'.
 */
function sendAllThenRead(port: number, head: string, body: Buffer): Promise<RawReply | 'reset'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    const received: Buffer[] = [];
    let failed = false;
    socket.on('error', () => (failed = true));
    socket.on('close', () => resolve(failed ? 'reset' : (parseRawResponse(Buffer.concat(received)) ?? 'reset')));
    socket.write(head);
    socket.write(body, (error) => {
      if (error) return;
      socket.on('data', (data: Buffer) => received.push(data));
      socket.resume();
    });
  });
}

describe('refusals stop reading', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  let port: number;

  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-refusals-', { ADMIN_USER: 'staff', ADMIN_PASSWORD: 'correct horse battery' });
    ({ port } = running);
  });
  afterAll(() => running.stop());

  const head = (method: string, path: string, headers: Record<string, string>) =>
    `${method} ${path} HTTP/1.1\r\n${Object.entries({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': String(1024 * MIB), ...headers })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n`;

  it.each([
    ['another Host', 421, 'POST', CREATE, { host: 'rebind.evil.example', authorization: LOGIN }],
    ['no login', 401, 'POST', CREATE, {}],
    ['a wrong login', 401, 'POST', CREATE, { authorization: `Basic ${Buffer.from('staff:guess').toString('base64')}` }],
    ['a create from another site', 403, 'POST', CREATE, { authorization: LOGIN, origin: 'https://evil.example' }],
    ['no such operation', 404, 'PUT', `${API_BASE_PATH}/forms/3/cases/48217`, { authorization: LOGIN, 'sec-fetch-site': 'same-origin' }],
    ['a POST to a page', 405, 'POST', '/products/new', { authorization: LOGIN }],
    ['a lookup with a body', 400, 'GET', `${API_BASE_PATH}/forms/3/cases/48217`, { authorization: LOGIN }],
    ['an unknown endpoint', 404, 'POST', '/api/meta', { authorization: LOGIN }],
  ] as const)('answers %s (%i) at once, closes, and takes no more than a few MiB of a 1 GiB body', async (_what, status, method, path, headers) => {
    const { reply, taken } = await uploadUntilClosed(port, head(method, path, headers), 256 * MIB);
    expect(reply?.status).toBe(status);
    expect(errorShapeProblems(status, reply?.headers['content-type']?.[0], reply?.text ?? '')).toEqual([]);
    expect(reply?.headers.connection).toEqual(['close']);
    // Kernel buffers on both ends, plus a brief drain after the answer.
    expect(taken).toBeLessThan(64 * MIB);
  }, 60_000);

  it('answers too many logins (429) at once and closes too', async () => {
    const login = createBasicAuth({
      user: 'staff',
      password: 'correct horse battery',
      limits: { perAddress: { points: 1, durationSec: 600 } },
    });
    const bare = http.createServer((req, res) => login(req, res, () => res.end('welcome')));
    const barePort = await listen(bare);
    try {
      const authorization = `Basic ${Buffer.from('staff:guess').toString('base64')}`;
      expect((await send(barePort, { method: 'POST', path: '/', headers: { authorization } })).status).toBe(401);
      const guess = `POST / HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nContent-Length: ${1024 * MIB}\r\n\r\n`;
      const { reply, taken } = await uploadUntilClosed(barePort, guess, 256 * MIB);
      expect(reply?.status).toBe(429);
      expect(reply?.headers.connection).toEqual(['close']);
      expect(taken).toBeLessThan(64 * MIB);
    } finally {
      await closeServer(bare);
    }
  });
});

describe('the 413 arrives', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  let port: number;

  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-413-');
    ({ port } = running);
  });
  afterAll(() => running.stop());

  it('reaches a client uploading an 8 MiB create, 30 times out of 30', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(8 * MIB) }));
    const head =
      `POST ${CREATE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcomes: string[] = [];
    for (let round = 0; round < 30; round += 1) {
      const reply = await sendAllThenRead(port, head, body);
      outcomes.push(reply === 'reset' ? 'reset' : String(reply.status));
      if (reply !== 'reset') expect(errorShapeProblems(413, reply.headers['content-type']?.[0], reply.text)).toEqual([]);
    }
    expect(outcomes).toEqual(Array(30).fill('413'));
    // fetch reads while it uploads; it gets the 413 as well.
    const answer = await fetch(`http://127.0.0.1:${port}${CREATE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body,
    });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ error: 'Content Too Large', code: 413 });
  }, 120_000);
});
