/**
 * A refused request costs us nothing, and its answer arrives:
 *
 * - every refusal (wrong Host, cross-origin create, no such operation, no session, a sign-in too large to
 *   read, a POST to a page, a lookup with a body) is answered at once with `Connection: close`, and the server stops
 *   reading: an attacker announcing 1 GiB gets to send a few MiB at most before the connection is closed;
 * - the 413 for an 8 MiB create reaches the client, also one that sends its whole request before it
 *   reads the answer (as many HTTP/1.1 clients do), 30 times out of 30.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../src/contract/site-api';
import { SESSION_COOKIE } from './auth/session-cookie';
import {
  childEnv,
  cookiesSet,
  errorShapeProblems,
  freePort,
  parseRawResponse,
  REPO_ROOT,
  send,
  signInWithPassword,
  startSandboxedSite,
  tempDir,
  waitFor,
  type RawReply,
} from './testing/test-helpers';

const MIB = 1024 * 1024;
const CREATE = `${API_BASE_PATH}/ecommerce/products/create`;
const OWNER = { ADMIN_USER: 'staff@example.com', ADMIN_PASSWORD: 'correct horse battery' };
/** Stands in, in the tables below (written before any server starts), for the cookie of the owner's session. */
const SIGNED_IN = 'the owner’s session';
/** A cookie that names no session (of the right shape). */
const NO_SESSION = `${SESSION_COOKIE}=${'A'.repeat(43)}`;

/** `headers` with SIGNED_IN replaced by the Cookie header of `session`. */
const withSession = (headers: Readonly<Record<string, string>>, session: string) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === SIGNED_IN ? session : value]));

/** Signs the owner in on the server at `port`: the Cookie header of their session. */
async function ownerSession(port: number): Promise<string> {
  const reply = await signInWithPassword(port, OWNER.ADMIN_USER, OWNER.ADMIN_PASSWORD);
  const id = cookiesSet(reply).get(SESSION_COOKIE);
  if (reply.status !== 200 || !id) throw new Error(`The owner could not sign in: ${reply.status} ${reply.text}`);
  return `${SESSION_COOKIE}=${id}`;
}

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
  let session: string;

  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-refusals-', OWNER);
    ({ port } = running);
    session = await ownerSession(port);
  });
  afterAll(() => running.stop());

  const head = (method: string, path: string, headers: Record<string, string>) =>
    `${method} ${path} HTTP/1.1\r\n${Object.entries({
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'content-length': String(1024 * MIB),
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n`;

  it.each([
    ['another Host', 421, 'POST', CREATE, { host: 'rebind.evil.example', cookie: SIGNED_IN }],
    ['no session', 401, 'POST', CREATE, {}],
    ['a session that is not there', 401, 'POST', CREATE, { cookie: NO_SESSION }],
    ['a create from another site', 403, 'POST', CREATE, { cookie: SIGNED_IN, origin: 'https://evil.example' }],
    ['no such operation', 404, 'PUT', `${API_BASE_PATH}/forms/3/cases/48217`, { cookie: SIGNED_IN, 'sec-fetch-site': 'same-origin' }],
    ['a POST to a page', 405, 'POST', '/products/new', { cookie: SIGNED_IN }],
    ['a lookup with a body', 400, 'GET', `${API_BASE_PATH}/forms/3/cases/48217`, { cookie: SIGNED_IN }],
    ['an unknown endpoint', 404, 'POST', '/api/nope', { cookie: SIGNED_IN }],
    ['a sign-in too large to read', 413, 'POST', '/api/sign-in/password', { 'sec-fetch-site': 'same-origin' }],
    ['a sign-in from another site', 403, 'POST', '/api/sign-in/password', { origin: 'https://evil.example' }],
  ] as const)(
    'answers %s (%i) at once, closes, and takes no more than a few MiB of a 1 GiB body',
    async (_what, status, method, path, headers) => {
      const { reply, taken } = await uploadUntilClosed(port, head(method, path, withSession(headers, session)), 256 * MIB);
      expect(reply?.status).toBe(status);
      expect(errorShapeProblems(status, reply?.headers['content-type']?.[0], reply?.text ?? '')).toEqual([]);
      expect(reply?.headers.connection).toEqual(['close']);
      // Kernel buffers on both ends, plus a brief drain after the answer.
      expect(taken).toBeLessThan(64 * MIB);
    },
    60_000,
  );
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

// ---------------------------------------------------------------------------------------------------------------
// The bound, counted where it is spent: the bytes the server process reads (Linux's /proc/<pid>/io)
// ---------------------------------------------------------------------------------------------------------------

/** Bytes a process has read through read(2) and its kin, sockets included (Linux). */
function bytesReadBy(pid: number): number {
  const match = /^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  if (!match) throw new Error(`/proc/${pid}/io has no rchar line`);
  return Number(match[1]);
}

/**
 * Sends `head` and the body's first MiB at once (so the body is on its way when the server refuses), then,
 * once the answer has begun to arrive, the rest of the announced body as fast as the server takes it, until
 * the server closes the connection or the whole body was taken. Half-open: the server's FIN after its
 * answer does not stop the upload, only the server's close does. Waiting for the answer before the rest
 * keeps the test about the server: a client starved of CPU on a loaded machine could otherwise still be
 * writing when the server's close arrives, and Linux drops an answer not yet read when a reset follows it.
 */
function uploadWhole(port: number, head: string, bodyBytes: number): Promise<RawReply | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    const chunk = Buffer.alloc(256 * 1024);
    let offered = 0;
    let closed = false;
    let answerBegun: () => void = () => undefined;
    const begun = new Promise<void>((resolveBegun) => (answerBegun = resolveBegun));
    socket.on('data', (data: Buffer) => {
      received.push(data);
      answerBegun();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      answerBegun();
      resolve(parseRawResponse(Buffer.concat(received)));
    });
    const pump = () => {
      while (!closed && offered < bodyBytes) {
        offered += chunk.length;
        if (!socket.write(chunk)) {
          // Through the event loop, so that the answer is read meanwhile: a write that completes at once
          // emits 'drain' before the loop polls the socket again.
          socket.once('drain', () => setImmediate(pump));
          return;
        }
      }
      // All of it was taken (the server read it, or its buffers hold it): our side is done too.
      if (!closed) socket.end();
    };
    socket.write(head, () => {
      for (let i = 0; i < 4 && offered < bodyBytes; i += 1) {
        offered += chunk.length;
        socket.write(chunk);
      }
      void begun.then(pump);
    });
  });
}

describe.skipIf(process.platform !== 'linux')('a refused upload costs the server process at most 16 MiB of reading', () => {
  const ROUNDS = 5;
  const BODY = 100 * MIB;
  let child: ChildProcess;
  let port: number;
  let dataDir: string;
  let distDir: string;
  let session: string;

  beforeAll(async () => {
    port = await freePort();
    dataDir = tempDir('site-admin-upload-bound-');
    distDir = tempDir('site-admin-upload-bound-dist-');
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>site-admin</title>');
    // node itself is the child, so its pid is the server's: `npm start`'s server, with its sandbox thread.
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: REPO_ROOT,
      env: childEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        DIST_DIR: distDir,
        SANDBOX_DATA_DIR: dataDir,
        LOG_REQUESTS: 'false',
        ...OWNER,
      }),
      stdio: 'ignore',
    });
    await waitFor(async () => (await send(port, { path: '/api/health' }).catch(() => undefined))?.status === 200, {
      timeoutMs: 30_000,
      what: 'the server to answer /api/health',
    });
    session = await ownerSession(port);
  }, 40_000);

  afterAll(async () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(distDir, { recursive: true, force: true });
  });

  const head = (method: string, path: string, headers: Record<string, string>) =>
    `${method} ${path} HTTP/1.1\r\n${Object.entries({
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      'content-length': String(BODY),
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')}\r\n\r\n`;

  it.each([
    ['a create from another site', 403, 'POST', CREATE, { cookie: SIGNED_IN, origin: 'https://evil.example' }],
    ['no session', 401, 'POST', CREATE, {}],
    ['a create over the size limit', 413, 'POST', CREATE, { cookie: SIGNED_IN, 'sec-fetch-site': 'same-origin' }],
    ['a POST to a page', 405, 'POST', '/products/new', { cookie: SIGNED_IN }],
    ['a lookup with a body', 400, 'GET', `${API_BASE_PATH}/forms/3/cases/48217`, { cookie: SIGNED_IN }],
    ['a sign-in too large to read', 413, 'POST', '/api/sign-in/password', { 'sec-fetch-site': 'same-origin' }],
  ] as const)(
    `answers %s (%i) and reads at most 16 MiB of a 100 MiB body, ${ROUNDS} times out of ${ROUNDS}`,
    async (_what, status, method, path, headers) => {
      const pid = child.pid!;
      const read: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const before = bytesReadBy(pid);
        const reply = await uploadWhole(port, head(method, path, withSession(headers, session)), BODY);
        // The server closed the connection: it reads nothing more of it.
        read.push(bytesReadBy(pid) - before);
        expect(reply?.status).toBe(status);
      }
      // The drain after the answer (16 MiB at most), the request's head and what was buffered before the answer.
      expect(
        read.filter((bytes) => bytes > 16 * MIB + MIB),
        `bytes read per round: ${read.join(', ')}`,
      ).toEqual([]);
    },
    120_000,
  );
});
