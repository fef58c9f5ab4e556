/**
 * Shared utilities of the reliability tests (fuzz, faults, load, sites): listening on loopback, plain and
 * raw HTTP exchanges (raw, because a client would normalise `..` and `%2e%2e` before sending), the spec's
 * error shape, free ports, temporary directories, polling for a condition, fast-check's run settings and
 * the refusal of a configuration.
 */
import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { once, type EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_BASE_PATH, STATUS_PHRASES } from '../../src/contract/site-api';
import { parseRequest, runSteps, type Step } from '../pipeline/context';
import { allowOperation } from '../pipeline/operations';
import { logSiteCalls, type RequestLogEntry } from '../pipeline/request-log';
import { createProxy, type ProxyOptions } from '../proxy';
import type { Grant } from '../../src/contract/access';
import type { CreateServerOptions, SiteAdminServer } from '../app';
import { ConfigError, loadConfig, type DatabaseSetting } from '../config';
import type { Database } from '../db/schema';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

// A fixed seed by default, so a CI run is repeatable; FUZZ_SEED=random explores new inputs, and
// FUZZ_SEED=<n> replays a failure.
const FUZZ_SEED = process.env.FUZZ_SEED === 'random' ? undefined : process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261122;

/** Bounded property runs: a fixed count, and a hard stop (reported as a failure) should a property run away. */
export function fuzzRuns(numRuns: number): fc.Parameters<unknown> {
  return {
    numRuns,
    ...(FUZZ_SEED === undefined ? {} : { seed: FUZZ_SEED }),
    plugins: [fc.interruptAfterTimeLimit(60_000, { failOnInterrupt: true })],
  };
}

export async function listen(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
  return (server.address() as AddressInfo).port;
}

export async function closeServer(server: http.Server | undefined): Promise<void> {
  if (!server?.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** A port that was free a moment ago (for a child process that must be told its port). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The ConfigError `loadConfig` throws for `env`; throws anything else, and throws when it accepts `env`. */
export function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** Polls `condition` every `intervalMs` until it holds; throws after `timeoutMs` naming `what`. */
export async function waitFor(
  condition: () => Promise<boolean> | boolean,
  { timeoutMs, intervalMs = 50, what }: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request with node:http (no agent, so no pooled socket survives the test). */
export function send(
  port: number,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    /** The client's address: another of 127.0.0.0/8 makes the request come from another machine, as far as the server can tell. */
    localAddress?: string;
  },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: options.method ?? 'GET',
      path: options.path,
      headers,
      agent: false,
      localAddress: options.localAddress,
      timeout: options.timeoutMs ?? 10_000,
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface RawReply {
  status: number;
  /** Lower-case names; repeated headers keep every value. */
  headers: Record<string, string[]>;
  body: Buffer;
  text: string;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Parses one HTTP/1.x response (the whole of what a `Connection: close` exchange received). */
export function parseRawResponse(data: Buffer, headRequest = false): RawReply | null {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const lines = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const statusMatch = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!statusMatch) return null;
  const headers: Record<string, string[]> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  let body = headRequest ? Buffer.alloc(0) : data.subarray(headEnd + 4);
  if (!headRequest && headers['transfer-encoding']?.some((v) => /chunked/i.test(v))) body = decodeChunked(body);
  else if (!headRequest && headers['content-length']?.[0] !== undefined) {
    body = body.subarray(0, Number(headers['content-length'][0]));
  }
  return { status: Number(statusMatch[1]), headers, body, text: body.toString('utf8') };
}

/**
 * Writes `request` byte for byte on a fresh connection and collects everything until the server closes
 * it (send `Connection: close`). Never half-closes: Node's server drops a request whose client did.
 */
export function rawExchange(
  port: number,
  request: Buffer,
  { timeoutMs = 5_000, headRequest = false }: { timeoutMs?: number; headRequest?: boolean } = {},
): Promise<{ reply: RawReply | null; raw: Buffer; timedOut: boolean; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timedOut = false;
    let error: string | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server that answers before reading the whole body (413) may reset the connection: keep what came.
    socket.on('error', (e) => (error = e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks);
      resolve({ reply: parseRawResponse(raw, headRequest), raw, timedOut, error });
    });
    socket.write(request, () => undefined);
  });
}

/**
 * Problems with an error answer, measured against the spec: a JSON object with exactly error (the status
 * phrase), message (non-empty), code (the status) and details (a non-empty list, on 400 and 422).
 * Empty when it is right.
 */
export function errorShapeProblems(status: number, contentType: string | null | undefined, text: string): string[] {
  const problems: string[] = [];
  if (!/^application\/json\b/i.test(contentType ?? '')) problems.push(`content-type is ${String(contentType)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [...problems, `body is not JSON: ${text.slice(0, 200)}`];
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [...problems, `not an object: ${text.slice(0, 200)}`];
  const error = body as Record<string, unknown>;
  const extra = Object.keys(error).filter((key) => !['error', 'message', 'code', 'details'].includes(key));
  if (extra.length > 0) problems.push(`fields outside the error shape: ${extra.join(', ')}`);
  const phrase = STATUS_PHRASES[status];
  if (error.error !== phrase) problems.push(`error is ${JSON.stringify(error.error)}, not "${String(phrase)}"`);
  if (error.code !== status) problems.push(`code is ${JSON.stringify(error.code)}, not ${status}`);
  if (typeof error.message !== 'string' || error.message.trim() === '') problems.push('message is missing or empty');
  const details = error.details;
  if (details !== undefined) {
    const wellFormed =
      Array.isArray(details) &&
      details.every((d: unknown) => {
        const entry = d as Record<string, unknown> | null;
        return typeof entry === 'object' && entry !== null && typeof entry.field === 'string' && typeof entry.message === 'string';
      });
    if (!wellFormed) problems.push(`details is not a list of { field, message }: ${JSON.stringify(details).slice(0, 200)}`);
  }
  if ((status === 400 || status === 422) && !(Array.isArray(details) && details.length > 0)) {
    problems.push(`no details on ${status}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// autocannon 9 ships no types, and bench/ declares its own view of the module; rather than a second ambient
// declaration to merge with it, the load test and the soak load it untyped and use these local types.
// ---------------------------------------------------------------------------------------------------------------

export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request is sent; returns the request to send. */
  setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

export interface AutocannonOptions {
  url: string;
  connections?: number;
  /** Stop after this many requests in total. */
  amount?: number;
  /** Seconds to run, unless `amount` is given. */
  duration?: number;
  /** Seconds before a request counts as timed out. */
  timeout?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: AutocannonRequest[];
  /** Each response body must equal this, else it counts as a mismatch. */
  expectBody?: string;
}

export interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  resets: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  /** `total`: requests completed; `sent`: requests sent. */
  requests: { average: number; total: number; sent: number };
  latency: { average: number; p50: number; p99: number; max: number };
}

export interface AutocannonInstance extends EventEmitter {
  stop(): void;
}

type Autocannon = (options: AutocannonOptions, callback: (error: Error | null, result: AutocannonResult) => void) => AutocannonInstance;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Runs autocannon to the end; `onStart` gets the instance (for its per-response events). */
export function runAutocannon(options: AutocannonOptions, onStart?: (instance: AutocannonInstance) => void): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    onStart?.(instance);
  });
}

/**
 * The whole server in sandbox mode on a free loopback port, with its own data folder and any further
 * settings in `env` (an owner by ADMIN_USER, say); `stop` cleans up.
 */
export function startSandboxedSite(prefix: string, env: Readonly<Record<string, string>> = {}) {
  return startWholeServer(env, { prefix });
}

/**
 * One site's proxy as a server of its own, behind the steps of a site's call that concern it (the request
 * log and the operation allowlist), as the whole server runs them after site resolution. Every address is
 * this site's: one outside /api/site/v2 is simply not one of its operations.
 */
export function proxyListener(options: ProxyOptions & { site?: string; log?: (entry: RequestLogEntry) => void }) {
  const forward = createProxy(options);
  const site = { id: options.site ?? 'main', forward };
  const siteCall = runSteps([
    logSiteCalls(options.log),
    allowOperation(options.maxBodyBytes),
    ({ req, res, operation, requestId }) => {
      if (operation && requestId) forward(req, res, operation, requestId);
    },
  ]);
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const request = parseRequest(req, res);
    const operationPath = request.path.startsWith(`${API_BASE_PATH}/`) ? request.path.slice(API_BASE_PATH.length) : null;
    siteCall({ ...request, site, address: { kind: 'site', site: null, base: API_BASE_PATH, operationPath } });
  };
}

/**
 * Steps of the pipeline on a loopback server of their own, to test them one at a time: after them, a last
 * step answers 200 with what they learnt of the request (who, which site, which operation, the request id).
 */
export async function serveSteps(...steps: Step[]) {
  const learnt: Step = ({ res, who, site, operation, operationName, requestId }) => {
    const body = JSON.stringify({ passed: true, who, site: site?.id, operation, operationName, requestId });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const pipeline = runSteps([...steps, learnt]);
  const server = http.createServer((req, res) => pipeline(parseRequest(req, res)));
  const port = await listen(server);
  return { port, close: () => closeServer(server) };
}

/**
 * The environment of a server or sandbox started as a child process by a test: only what node needs to
 * run (PATH, HOME, TMPDIR) and the settings given, so no setting of the developer's shell leaks in.
 */
export function childEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...settings };
}

// ---------------------------------------------------------------------------------------------------------------
// People and sign-in on a whole server
// ---------------------------------------------------------------------------------------------------------------

/** A person as a test adds them straight to a server's database: a password (Argon2id, as stored) and grants. */
export interface TestPerson {
  email: string;
  password?: string;
  displayName?: string;
  grants?: readonly Grant[];
  disabled?: boolean;
}

/** Adds `people` to the database of `site` (the real stores); resolves to their ids, in order. */
export async function addPeople(site: Pick<SiteAdminServer, 'accounts'>, people: readonly TestPerson[]): Promise<string[]> {
  const { hashPassword } = await import('../auth/password-hash');
  const { accounts } = site;
  const ids: string[] = [];
  for (const person of people) {
    const added = await accounts.people.add({
      email: person.email,
      displayName: person.displayName ?? person.email.split('@')[0] ?? person.email,
      passwordHash: person.password === undefined ? null : await hashPassword(person.password),
      now: accounts.now(),
    });
    if (!added.ok) throw new Error(`${person.email} could not be added: ${added.reason}`);
    if (person.grants) await accounts.people.setGrants(added.person.id, person.grants, accounts.now());
    if (person.disabled) await accounts.people.setDisabled(added.person.id, true, accounts.now());
    ids.push(added.person.id);
  }
  return ids;
}

/**
 * The whole server on a free loopback port, with the settings of `env` (a data folder of its own unless
 * DATA_DIR or SANDBOX_DATA_DIR is given; `database` in place of the one the settings name) and the options
 * of createSiteAdminServer (a moved clock, the login's limits); `stop` cleans up.
 */
export async function startWholeServer(
  env: Readonly<Record<string, string>> = {},
  options: CreateServerOptions & { database?: DatabaseSetting; prefix?: string } = {},
) {
  const { createSiteAdminServer } = await import('../app');
  const { database, prefix = 'site-admin-server-', ...serverOptions } = options;
  const dataDir = tempDir(prefix);
  let site: SiteAdminServer;
  try {
    const config = loadConfig({ SANDBOX_DATA_DIR: dataDir, LOG_REQUESTS: 'false', ...env });
    site = await createSiteAdminServer(database ? { ...config, database } : config, serverOptions);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const server = http.createServer((req, res) => site.handle(req, res));
  const port = await listen(server);
  return {
    site,
    server,
    port,
    async stop() {
      await closeServer(server);
      await site.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every `name=value` a reply set as a cookie (the attributes left off), by name. */
export function cookiesSet(reply: Pick<Reply, 'headers'>): Map<string, string> {
  const set = reply.headers['set-cookie'] ?? [];
  return new Map(
    set.map((line) => {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
    }),
  );
}

/**
 * POST /api/sign-in/password as the app's own page sends it (same origin, JSON), from `from` (another
 * address of 127.0.0.0/8) with the cookies given.
 */
export function signInWithPassword(
  port: number,
  email: string,
  password: string,
  { cookie, from }: { cookie?: string; from?: string } = {},
): Promise<Reply> {
  return send(port, {
    method: 'POST',
    path: '/api/sign-in/password',
    headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ email, password }),
    localAddress: from,
  });
}

/**
 * Makes the activity record refuse every entry, as a full disk or a lost database would, on either engine;
 * resolves to what puts it back. For the tests of "nothing happens unrecorded".
 */
export async function refuseActivityEntries(db: Kysely<Database>, engine: DatabaseSetting['engine']): Promise<() => Promise<void>> {
  if (engine === 'sqlite') {
    await sql`create trigger refuse_entries before insert on activity begin select raise(abort, 'the record is full'); end`.execute(db);
  } else {
    await sql`create function refuse_entries() returns trigger language plpgsql as $$ begin raise exception 'the record is full'; end $$`.execute(
      db,
    );
    await sql`create trigger refuse_entries before insert on activity for each row execute function refuse_entries()`.execute(db);
  }
  return async () => {
    await sql`drop trigger refuse_entries${sql.raw(engine === 'sqlite' ? '' : ' on activity')}`.execute(db);
    if (engine !== 'sqlite') await sql`drop function refuse_entries()`.execute(db);
  };
}
