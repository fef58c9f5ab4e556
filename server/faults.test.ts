/**
 * Faults lose nothing:
 *
 * - the sandbox process is killed with SIGKILL in the middle of a burst of creates: every create it
 *   answered 200 is in the database after a restart, and the database passes PRAGMA integrity_check;
 * - the upstream goes away and comes back: the proxy answers 502 in the error shape meanwhile, and serves
 *   again as soon as an upstream listens on the same port, without being restarted.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../src/contract/site-api';
import { openStore } from './sandbox/store';
import { seedProducts } from './sandbox/seed';
import {
  childEnv,
  closeServer,
  errorShapeProblems,
  freePort,
  listen,
  proxyListener,
  REPO_ROOT,
  send,
  tempDir,
  waitFor,
} from './testing/test-helpers';

const SANDBOX_HEADERS = { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' };
const CREATE = `${API_BASE_PATH}/ecommerce/products/create`;

// ---------------------------------------------------------------------------------------------------------------
// The sandbox as a real child process
// ---------------------------------------------------------------------------------------------------------------

interface SandboxProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every child this file started and that has not exited yet: killed (by pid) after each test, pass or fail. */
const running = new Set<ChildProcess>();

afterEach(() => {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  }
});

/**
 * `node --import tsx server/sandbox/main.ts`: node itself is the child (npx or the tsx CLI would put a
 * wrapper process between us and the server, and SIGKILL would hit the wrapper).
 */
async function startSandboxProcess(dataDir: string): Promise<SandboxProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/sandbox/main.ts'], {
    cwd: REPO_ROOT,
    env: childEnv({ HOST: '127.0.0.1', SANDBOX_PORT: String(port), SANDBOX_DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let gone = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      gone = true;
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  if (child.pid === undefined) throw new Error(`could not start the sandbox: ${output}`);
  await waitFor(
    async () => {
      if (gone) throw new Error(`the sandbox exited before serving:\n${output}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${API_BASE_PATH}/forms/3/cases/48217`, {
          headers: SANDBOX_HEADERS,
          signal: AbortSignal.timeout(2000),
        });
        await res.arrayBuffer();
        return res.status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `the sandbox on port ${port} to serve` },
  );
  return { child, pid: child.pid, port, output: () => output, exited };
}

interface BurstOutcome {
  /** Slugs the sandbox answered 200 for: these must be stored. */
  confirmed: string[];
  /** Slugs whose request was under way when the process died: stored or not, but not twice. */
  unknown: string[];
  /** Any answer other than 200, or a failed request before the kill: there must be none. */
  refused: string[];
  inFlightAtKill: number;
}

/** Fires `total` creates, `concurrency` at a time; SIGKILLs the sandbox once `killAfter` were answered 200. */
async function burstThenKill(sandbox: SandboxProcess, prefix: string, total: number, concurrency: number, killAfter: number) {
  const outcome: BurstOutcome = { confirmed: [], unknown: [], refused: [], inFlightAtKill: -1 };
  let next = 0;
  let inFlight = 0;
  let killed = false;
  const worker = async () => {
    while (next < total && !killed) {
      const slug = `${prefix}-${next}`;
      next += 1;
      inFlight += 1;
      try {
        const res = await fetch(`http://127.0.0.1:${sandbox.port}${CREATE}`, {
          method: 'POST',
          headers: { ...SANDBOX_HEADERS, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Killed mid-burst ${slug}`, slug, 'module_field_14/product/price/usd/1': '1999' }),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        if (res.status === 200) {
          outcome.confirmed.push(slug);
          if (!killed && outcome.confirmed.length >= killAfter) {
            killed = true;
            outcome.inFlightAtKill = inFlight - 1;
            process.kill(sandbox.pid, 'SIGKILL');
          }
        } else {
          outcome.refused.push(`${slug}: ${res.status} ${text.slice(0, 200)}`);
        }
      } catch (error) {
        if (killed) outcome.unknown.push(slug);
        else outcome.refused.push(`${slug}: ${String(error)}`);
      } finally {
        inFlight -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (!killed) process.kill(sandbox.pid, 'SIGKILL');
  return outcome;
}

/** The slugs of the demo catalogue the sandbox gives its first site when it seeds it. */
const demoCatalogue = new Set(seedProducts('full').map(({ product }) => product.slug));

/** Slugs of the products in the database file, read straight from SQLite, read-only. */
function storedSlugs(file: string): { slugs: string[]; integrity: string } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const slugs = db
      .prepare<[], { slug: string | null }>('SELECT slug FROM products')
      .all()
      .map((r) => r.slug ?? '');
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    return { slugs, integrity };
  } finally {
    db.close();
  }
}

describe('faults: the sandbox is killed (SIGKILL) in the middle of a burst of creates', () => {
  const dirs: string[] = [];

  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every create it answered 200, across two kills, and the database passes integrity_check', async () => {
    const dataDir = tempDir('site-admin-faults-');
    dirs.push(dataDir);
    const file = join(dataDir, 'sandbox.sqlite');
    const confirmed: string[] = [];
    const attempted = new Set<string>();

    for (const round of [1, 2]) {
      const sandbox = await startSandboxProcess(dataDir);
      const outcome = await burstThenKill(sandbox, `kill-${round}`, 400, 16, 40 + round * 20);
      const exit = await sandbox.exited;
      expect(exit.signal, sandbox.output()).toBe('SIGKILL');
      expect(outcome.refused, 'answers other than 200 before the kill').toEqual([]);
      expect(outcome.confirmed.length).toBeGreaterThanOrEqual(40 + round * 20);
      // The kill really came in the middle of the burst: other creates were still under way.
      expect(outcome.inFlightAtKill).toBeGreaterThan(0);
      if (process.env.DEBUG_RELIABILITY)
        console.info(
          `round ${round}: ${outcome.confirmed.length} confirmed, ${outcome.unknown.length} cut off, ${outcome.inFlightAtKill} in flight at the kill`,
        );
      confirmed.push(...outcome.confirmed);
      for (const slug of [...outcome.confirmed, ...outcome.unknown]) attempted.add(slug);

      // Straight from the file, before anything opens it for writing again.
      const onDisk = storedSlugs(file);
      expect(onDisk.integrity).toBe('ok');
      const missing = confirmed.filter((slug) => !onDisk.slugs.includes(slug));
      expect(missing, 'answered 200, then lost').toEqual([]);
      expect(new Set(onDisk.slugs).size).toBe(onDisk.slugs.length);
      expect(
        onDisk.slugs.filter((slug) => !attempted.has(slug) && !demoCatalogue.has(slug)),
        'stored but never sent',
      ).toEqual([]);
    }

    // A restarted sandbox serves them all, and takes new creates.
    const restarted = await startSandboxProcess(dataDir);
    const listed = await fetch(`http://127.0.0.1:${restarted.port}/__sandbox/products?limit=1000`, { headers: SANDBOX_HEADERS });
    expect(listed.status).toBe(200);
    const { products } = (await listed.json()) as { products: { body: { slug?: string } }[] };
    const served = new Set(products.map((p) => p.body.slug));
    expect(
      confirmed.filter((slug) => !served.has(slug)),
      'answered 200, not served after restart',
    ).toEqual([]);
    const again = await fetch(`http://127.0.0.1:${restarted.port}${CREATE}`, {
      method: 'POST',
      headers: { ...SANDBOX_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the kills', slug: 'after-the-kills' }),
    });
    expect(again.status).toBe(200);
    // A slug confirmed before a kill is still taken.
    const duplicate = await fetch(`http://127.0.0.1:${restarted.port}${CREATE}`, {
      method: 'POST',
      headers: { ...SANDBOX_HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Duplicate', slug: confirmed[0] }),
    });
    expect(duplicate.status).toBe(422);

    // A clean stop, then the store's own check.
    process.kill(restarted.pid, 'SIGTERM');
    expect((await restarted.exited).code).toBe(0);
    const store = openStore(file, ['1001']);
    try {
      expect(store.integrityCheck()).toBe('ok');
      expect(store.countProducts()).toBeGreaterThanOrEqual(confirmed.length + 1);
    } finally {
      store.close();
    }
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// The upstream goes down and comes back
// ---------------------------------------------------------------------------------------------------------------

describe('faults: the upstream goes down and comes back', () => {
  const servers: http.Server[] = [];
  let held: ServerResponse[] = [];
  let upstreamReceived = 0;

  afterEach(async () => {
    for (const server of servers.splice(0)) await closeServer(server);
    held = [];
  });

  function upstreamHandler(req: IncomingMessage, res: ServerResponse) {
    upstreamReceived += 1;
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/cases/hold')) {
        held.push(res); // never answered: the upstream dies with it
        return;
      }
      const text = JSON.stringify({ id: '1', url: req.url });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  }

  async function upstreamOn(port: number) {
    const server = http.createServer(upstreamHandler);
    servers.push(server);
    await listen(server, port);
    return server;
  }

  async function proxyTo(upstreamPort: number) {
    const proxy = proxyListener({
      site: 'main',
      upstream: new URL(`http://127.0.0.1:${upstreamPort}/api/site/v2`),
      apiKey: 'secret',
      siteId: '1001',
      timeoutMs: 2000,
      maxBodyBytes: 64 * 1024,
    });
    const server = http.createServer(proxy);
    servers.push(server);
    return listen(server);
  }

  const lookup = (port: number) => send(port, { path: `${API_BASE_PATH}/forms/3/cases/48217` });
  const create = (port: number) =>
    send(port, { method: 'POST', path: CREATE, headers: { 'content-type': 'application/json' }, body: '{"name":"Mug"}' });

  function expectBadGateway(reply: { status: number; headers: http.IncomingHttpHeaders; text: string }) {
    expect(reply.status, reply.text).toBe(502);
    expect(errorShapeProblems(reply.status, reply.headers['content-type'], reply.text)).toEqual([]);
  }

  it('answers 502 while nothing listens, and 200 again once an upstream listens on the same port', async () => {
    let upstream = await upstreamOn(0);
    const upstreamPort = (upstream.address() as { port: number }).port;
    const proxyPort = await proxyTo(upstreamPort);

    // Up: the proxy's keep-alive pool now holds sockets to this upstream.
    for (let i = 0; i < 5; i += 1) {
      expect((await lookup(proxyPort)).status).toBe(200);
      expect((await create(proxyPort)).status).toBe(200);
    }

    // Down.
    await closeServer(upstream);
    for (let i = 0; i < 5; i += 1) {
      expectBadGateway(await lookup(proxyPort));
      expectBadGateway(await create(proxyPort));
    }

    // Back, same port, same proxy: the very first request succeeds.
    upstream = await upstreamOn(upstreamPort);
    const first = await lookup(proxyPort);
    expect(first.status, first.text).toBe(200);
    expect(JSON.parse(first.text)).toEqual({ id: '1', url: `${API_BASE_PATH}/forms/3/cases/48217` });
    for (let i = 0; i < 5; i += 1) {
      expect((await create(proxyPort)).status).toBe(200);
      expect((await lookup(proxyPort)).status).toBe(200);
    }
  }, 60_000);

  it('serves the first request after an upstream restart with no request in between (no stale pooled socket)', async () => {
    let upstream = await upstreamOn(0);
    const upstreamPort = (upstream.address() as { port: number }).port;
    const proxyPort = await proxyTo(upstreamPort);
    // Several sockets in the pool: concurrent requests.
    const warm = await Promise.all(Array.from({ length: 8 }, () => lookup(proxyPort)));
    expect(warm.map((r) => r.status)).toEqual(Array(8).fill(200));

    for (let restart = 0; restart < 3; restart += 1) {
      await closeServer(upstream);
      upstream = await upstreamOn(upstreamPort);
      const replies = await Promise.all([lookup(proxyPort), create(proxyPort), lookup(proxyPort)]);
      expect(replies.map((r) => `${r.status} ${r.status === 200 ? '' : r.text}`)).toEqual(['200 ', '200 ', '200 ']);
    }
  }, 60_000);

  it('answers 502 to requests under way when the upstream dies, then serves the next ones', async () => {
    let upstream = await upstreamOn(0);
    const upstreamPort = (upstream.address() as { port: number }).port;
    const proxyPort = await proxyTo(upstreamPort);
    upstreamReceived = 0;
    const pending = Array.from({ length: 6 }, () => send(proxyPort, { path: `${API_BASE_PATH}/forms/3/cases/hold` }));
    await waitFor(() => upstreamReceived >= 6, { timeoutMs: 10_000, what: 'the upstream to hold 6 requests' });
    await closeServer(upstream); // drops the held connections mid-request
    for (const reply of await Promise.all(pending)) expectBadGateway(reply);

    upstream = await upstreamOn(upstreamPort);
    expect((await lookup(proxyPort)).status).toBe(200);
    expect((await create(proxyPort)).status).toBe(200);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------------------------
// Upstreams on raw sockets, for what happens to a kept-alive connection after its first exchange
// ---------------------------------------------------------------------------------------------------------------

const rawUpstreams = new Set<{ server: net.Server; sockets: Set<net.Socket> }>();

/** Closes every upstream of firstOnlyUpstream and the connections still open to it. */
async function closeRawUpstreams() {
  for (const { server, sockets } of rawUpstreams) {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  rawUpstreams.clear();
}

/**
 * A keep-alive upstream that answers the first request on each connection (`{"id": "1", "request": <its
 * request line>}`) and, for every later request on the same connection, closes it (`close`) or lets it
 * vanish (`ignore`: no answer, no close, no reset). `seen` counts connections, the closes of them and the
 * request lines answered.
 */
async function firstOnlyUpstream(later: 'close' | 'ignore', keepAliveSeconds: number) {
  const seen = { connections: 0, closedByUs: 0, requests: [] as string[] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    seen.connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      seen.closedByUs += 1;
    });
    let buffered = '';
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      if (answered && later === 'ignore') return; // swallowed
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.slice(0, end);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      buffered = buffered.slice(end + 4 + length);
      if (answered) {
        socket.destroy(); // the idle close that crossed the request
        return;
      }
      answered = true;
      const requestLine = head.split('\r\n')[0] ?? '';
      seen.requests.push(requestLine);
      const body = JSON.stringify({ id: '1', request: requestLine });
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: keep-alive\r\nKeep-Alive: timeout=${keepAliveSeconds}\r\n\r\n${body}`,
      );
    });
  });
  rawUpstreams.add({ server, sockets });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { port: (server.address() as net.AddressInfo).port, seen };
}

// ---------------------------------------------------------------------------------------------------------------
// The upstream closes a kept-alive connection just as the proxy reuses it
// ---------------------------------------------------------------------------------------------------------------

describe('faults: the upstream closes an idle kept-alive connection as the proxy reuses it', () => {
  let proxyServer: http.Server | undefined;

  afterEach(async () => {
    await closeServer(proxyServer);
    await closeRawUpstreams();
  });

  /**
   * An upstream that keeps connections alive, answers the first request on each, and closes the
   * connection when a second one arrives on it: deterministically, what happens when a platform's
   * idle timeout (or its load balancer's) closes a pooled connection at the moment the proxy sends on it.
   * A request on a fresh connection is always answered.
   */
  async function idleClosingUpstream(): Promise<{ port: number; connections: () => number }> {
    const { port, seen } = await firstOnlyUpstream('close', 60);
    return { port, connections: () => seen.connections };
  }

  it('still answers a case lookup (a GET, safe to send again on a fresh connection)', async () => {
    const { port: upstreamPort, connections } = await idleClosingUpstream();
    const proxy = proxyListener({
      site: 'main',
      upstream: new URL(`http://127.0.0.1:${upstreamPort}/api/site/v2`),
      apiKey: 'secret',
      siteId: '1001',
      timeoutMs: 2000,
      maxBodyBytes: 64 * 1024,
    });
    proxyServer = http.createServer(proxy);
    const proxyPort = await listen(proxyServer);
    const first = await send(proxyPort, { path: `${API_BASE_PATH}/forms/3/cases/48217` });
    expect(first.status, first.text).toBe(200);
    expect(connections()).toBe(1);
    // The proxy reuses its pooled connection; the upstream has just closed it.
    const second = await send(proxyPort, { path: `${API_BASE_PATH}/forms/3/cases/48221` });
    expect(second.status, `the lookup failed because a pooled connection had been closed: ${second.text}`).toBe(200);
    expect(JSON.parse(second.text)).toMatchObject({ request: `GET ${API_BASE_PATH}/forms/3/cases/48221 HTTP/1.1` });
  }, 30_000);
});

// ---------------------------------------------------------------------------------------------------------------
// A NAT drops an idle pooled connection silently
// ---------------------------------------------------------------------------------------------------------------

describe('faults: a NAT silently drops an idle kept-alive connection', () => {
  let proxyServer: http.Server | undefined;

  afterEach(async () => {
    await closeServer(proxyServer);
    await closeRawUpstreams();
  });

  /**
   * An upstream behind a NAT that has forgotten every connection after its first exchange: the first
   * request on a connection is answered (keep-alive), anything later on it vanishes (no answer, no close,
   * no reset), exactly what a silently dropped mapping looks like from our side.
   */
  const blackHoleAfterFirst = () => firstOnlyUpstream('ignore', 600);

  async function proxyTo(upstreamPort: number, extra: { idleSocketMs?: number; reusedSocketAnswerMs?: number }) {
    proxyServer = http.createServer(
      proxyListener({
        site: 'main',
        upstream: new URL(`http://127.0.0.1:${upstreamPort}/api/site/v2`),
        apiKey: 'secret',
        siteId: '1001',
        timeoutMs: 4000,
        maxBodyBytes: 64 * 1024,
        ...extra,
      }),
    );
    return listen(proxyServer);
  }

  const lookup = (port: number, id: string) => send(port, { path: `${API_BASE_PATH}/forms/3/cases/${id}` });
  const create = (port: number) =>
    send(port, { method: 'POST', path: CREATE, headers: { 'content-type': 'application/json' }, body: '{"name":"Mug"}' });

  it('closes idle pooled connections before a NAT would forget them, so a create goes out on a fresh one', async () => {
    const { port: upstreamPort, seen } = await blackHoleAfterFirst();
    const proxyPort = await proxyTo(upstreamPort, { idleSocketMs: 300 });
    expect((await lookup(proxyPort, '48217')).status).toBe(200);
    // The pool lets go of the idle connection by itself (no sleep: the upstream sees it close).
    await waitFor(() => seen.closedByUs >= 1, { timeoutMs: 10_000, what: 'the proxy to close its idle pooled connection' });
    const created = await create(proxyPort);
    expect(created.status, `a create sent on a dropped connection: ${created.text}`).toBe(200);
    expect(seen.connections).toBe(2);
  }, 30_000);

  it('sends a lookup again on a fresh connection when a reused one gets no answer at all', async () => {
    const { port: upstreamPort, seen } = await blackHoleAfterFirst();
    const proxyPort = await proxyTo(upstreamPort, { idleSocketMs: 600_000, reusedSocketAnswerMs: 300 });
    expect((await lookup(proxyPort, '48217')).status).toBe(200);
    const second = await lookup(proxyPort, '48221');
    expect(second.status, `the lookup waited out the dropped connection: ${second.text}`).toBe(200);
    expect(JSON.parse(second.text)).toMatchObject({ request: `GET ${API_BASE_PATH}/forms/3/cases/48221 HTTP/1.1` });
    expect(seen.connections).toBe(2);
  }, 30_000);

  it('never sends a create twice: one on a dropped connection ends in 504 (outcome unknown), and reaches the platform once', async () => {
    const { port: upstreamPort, seen } = await blackHoleAfterFirst();
    const proxyPort = await proxyTo(upstreamPort, { idleSocketMs: 600_000, reusedSocketAnswerMs: 300 });
    expect((await lookup(proxyPort, '48217')).status).toBe(200);
    const created = await create(proxyPort);
    expect(created.status).toBe(504);
    expect(errorShapeProblems(504, created.headers['content-type'], created.text)).toEqual([]);
    expect(seen.connections).toBe(1);
  }, 30_000);
});
