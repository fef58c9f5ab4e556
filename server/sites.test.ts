/**
 * Many sites on one server: the site profile read at start (and every way it can be wrong), what the
 * browser learns of the sites (/api/sites: never a key, never where a key lives), and the routing of
 * /api/s/{site}/site/v2/... over real loopback HTTP to one recording upstream per site, including a
 * property (fast-check) that a request naming site A reaches only A's upstream, with A's key and site id,
 * and that a request naming no configured site reaches nothing.
 */
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { siteInfoOf } from '../src/contract/site-info';
import { checkSiteProfile, type SiteConfig } from '../src/contract/site-profile';
import { createSiteAdminServer, type SiteAdminServer } from './app';
import { loadConfig, standaloneSandboxSiteIds } from './config';
import type { RequestLogEntry } from './pipeline/request-log';
import { seedCases } from './sandbox/seed';
import {
  childEnv,
  closeServer,
  configError,
  errorShapeProblems,
  fuzzRuns,
  listen,
  REPO_ROOT,
  send,
  tempDir,
  type Reply,
} from './testing/test-helpers';

const EXAMPLE_PROFILE = join(REPO_ROOT, 'server', 'site-profile.example.json');

let dirs: string[] = [];
function scratch(): string {
  const dir = tempDir('site-admin-sites-');
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** Writes a profile (an object, or text as it is) to a fresh file and returns its path. */
function profileFile(content: unknown): string {
  const file = join(scratch(), 'site-profile.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

const liveSite = (id: string, baseUrl: string, siteId: string, apiKeyEnv: string): SiteConfig => ({
  id,
  name: `Site ${id}`,
  platform: { baseUrl, siteId, apiKeyEnv },
});

function expectErrorShape(reply: Reply, status: number) {
  expect(reply.status, reply.text).toBe(status);
  expect(errorShapeProblems(status, reply.headers['content-type'], reply.text)).toEqual([]);
  return JSON.parse(reply.text) as { message: string };
}

// ---------------------------------------------------------------------------------------------------------------
// The profile at start
// ---------------------------------------------------------------------------------------------------------------

describe('SITE_PROFILE at start', () => {
  it('reads the example profile: two sandbox sites with the sandbox key, in the profile’s order', () => {
    const config = loadConfig({ SITE_PROFILE: EXAMPLE_PROFILE, SANDBOX_API_KEY: 'demo-key' });
    expect(config.siteProfile).toBe(EXAMPLE_PROFILE);
    expect(config.sites.map((s) => [s.profile.id, s.upstream, s.siteId, s.apiKey])).toEqual([
      ['harbour-linen', 'sandbox', '1001', 'demo-key'],
      ['summit-outfitters', 'sandbox', '1002', 'demo-key'],
    ]);
  });

  it('refuses a file that is not there, naming it', () => {
    const missing = join(scratch(), 'nowhere.json');
    const message = configError({ SITE_PROFILE: missing }).message;
    expect(message).toContain(missing);
    expect(message).toContain('no such file');
  });

  it('refuses a file that is not JSON, naming it and saying so', () => {
    const file = profileFile('{ "sites": [ { "id": "a", } ] }');
    const message = configError({ SITE_PROFILE: file }).message;
    expect(message).toContain(file);
    expect(message).toContain('(the whole file): is not JSON');
  });

  it('refuses a profile with mistakes, naming the file, each JSON path and what is wrong', () => {
    const example = JSON.parse(readFileSync(EXAMPLE_PROFILE, 'utf8')) as { sites: Record<string, unknown>[] };
    const sites = example.sites.map((site) => ({ ...site }));
    sites[0]!.money = { currencies: ['aud'], decimals: 3 };
    sites[1]!.id = 'Summit Outfitters';
    const file = profileFile({ sites });
    const message = configError({ SITE_PROFILE: file }).message;
    expect(message).toContain(file);
    expect(message).toContain('2 problems');
    expect(message).toContain('sites[0].money.decimals: must be one of 2, 4');
    expect(message).toMatch(/sites\[1\]\.id: must be lower-case letters and digits/);
  });

  it('refuses to start when the variable named by a live site’s apiKeyEnv is unset or blank, naming the site and the variable', () => {
    const file = profileFile({
      sites: [
        liveSite('harbour-linen', 'https://harbour.example/api/site/v2', '1', 'HARBOUR_KEY'),
        liveSite('summit', 'https://summit.example/api/site/v2', '2', 'SUMMIT_KEY'),
      ],
    });
    const message = configError({ SITE_PROFILE: file, SUMMIT_KEY: '   ' }).message;
    expect(message).toContain(file);
    expect(message).toContain('site "harbour-linen" takes its API key from the environment variable HARBOUR_KEY, which is not set');
    expect(message).toContain('site "summit" takes its API key from the environment variable SUMMIT_KEY, which is not set');
    expect(loadConfig({ SITE_PROFILE: file, HARBOUR_KEY: 'k1', SUMMIT_KEY: ' k2 ' }).sites.map((s) => s.apiKey)).toEqual(['k1', 'k2']);
  });

  it('refuses a key variable that is one of the server’s own settings', () => {
    const file = profileFile({ sites: [liveSite('shop', 'https://shop.example/api/site/v2', '1', 'ADMIN_PASSWORD')] });
    const message = configError({ SITE_PROFILE: file, ADMIN_USER: 'staff', ADMIN_PASSWORD: 'a long passphrase here' }).message;
    expect(message).toContain('sites[0].platform.apiKeyEnv: ADMIN_PASSWORD is one of site-admin');
    expect(message).not.toContain('a long passphrase here');
  });

  it('refuses a key that cannot travel in a header, without showing it', () => {
    const file = profileFile({ sites: [liveSite('shop', 'https://shop.example/api/site/v2', '1', 'SHOP_KEY')] });
    const message = configError({ SITE_PROFILE: file, SHOP_KEY: 'abc\ndef-secret' }).message;
    expect(message).toContain('SHOP_KEY');
    expect(message).not.toContain('def-secret');
  });

  it('refuses two sandbox sites with the same site id', () => {
    const file = profileFile({
      sites: [
        { id: 'a', name: 'A', platform: { sandbox: true, siteId: '1001' } },
        { id: 'b', name: 'B', platform: { sandbox: true, siteId: '1001' } },
      ],
    });
    expect(configError({ SITE_PROFILE: file }).message).toContain(
      'sites[1].platform.siteId: the sandbox already stands in for site 1001 as "a"',
    );
  });

  it.each([
    [{ SITE_API_BASE_URL: 'https://shop.example/api/site/v2' }, 'SITE_API_BASE_URL'],
    [{ SITE_ID: '12' }, 'SITE_ID'],
    [{ SITE_API_KEY: 'k' }, 'SITE_API_KEY'],
  ])('refuses a profile together with today’s site settings %j: which wins would be ambiguous', (env, name) => {
    const message = configError({ SITE_PROFILE: EXAMPLE_PROFILE, ...env }).message;
    expect(message).toContain(`SITE_PROFILE and ${name} are both set`);
    expect(message).toContain('ambiguous');
  });

  it('accepts SITE_API_KEY when the profile names it as a site’s key variable', () => {
    const file = profileFile({ sites: [liveSite('shop', 'https://shop.example/api/site/v2', '7', 'SITE_API_KEY')] });
    expect(loadConfig({ SITE_PROFILE: file, SITE_API_KEY: 'shop-key' }).sites[0]).toMatchObject({ apiKey: 'shop-key', siteId: '7' });
  });

  it('stops `npm start` before anything listens, with the file, the path and the problem on stderr', async () => {
    const file = profileFile({ sites: [{ id: 'shop', name: 'Shop', platform: { sandbox: true, siteId: 'one' } }] });
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: REPO_ROOT,
      env: childEnv({ SITE_PROFILE: file, PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(1);
    expect(stderr).toContain('site-admin cannot start');
    expect(stderr).toContain(file);
    expect(stderr).toContain('sites[0].platform');
  }, 30_000);
});

describe('`npm run sandbox` on its own', () => {
  it('serves SANDBOX_SITE_ID, and the sandbox sites of a profile after it, without needing the keys of its live sites', () => {
    expect(standaloneSandboxSiteIds({})).toEqual(['1001']);
    expect(standaloneSandboxSiteIds({ SITE_PROFILE: EXAMPLE_PROFILE })).toEqual(['1001', '1002']);
    expect(standaloneSandboxSiteIds({ SITE_PROFILE: EXAMPLE_PROFILE, SANDBOX_SITE_ID: '2000' })).toEqual(['2000', '1001', '1002']);
    const mixed = profileFile({
      sites: [
        liveSite('shop', 'https://shop.example/api/site/v2', '7', 'UNSET_SHOP_KEY'),
        { id: 'demo', name: 'Demo', platform: { sandbox: true, siteId: '3003' } },
      ],
    });
    expect(standaloneSandboxSiteIds({ SITE_PROFILE: mixed })).toEqual(['1001', '3003']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// One recording upstream per site
// ---------------------------------------------------------------------------------------------------------------

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Upstream {
  name: string;
  server: http.Server;
  port: number;
  received: Received[];
}

/** An upstream that records every request and answers 200 with its own name, so an answer says where it came from. */
async function recordingUpstream(name: string): Promise<Upstream> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const entry: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
    received.push(entry);
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (entry.body += chunk));
    req.on('end', () => {
      const text = JSON.stringify({ answeredBy: name, url: entry.url });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  const port = await listen(server);
  return { name, server, port, received };
}

/** The sites of the routing tests: ids that are prefixes of each other, base paths that differ. */
const LIVE = [
  { id: 'north', siteId: '4101', key: 'KEY-north-7f3a91c2', env: 'NORTH_API_KEY', base: '/api/site/v2' },
  { id: 'north-2', siteId: '4102', key: 'KEY-north-2-0b5e44d8', env: 'NORTH_2_API_KEY', base: '/shop/api/site/v2' },
  { id: 'south', siteId: '4103', key: 'KEY-south-c81d2e6f', env: 'SOUTH_API_KEY', base: '/api/site/v2' },
] as const;
type LiveSite = (typeof LIVE)[number];
const SANDBOX_KEY = 'KEY-sandbox-9e27b0aa';

async function startServer(env: Record<string, string>, log?: (entry: RequestLogEntry) => void) {
  const site = await createSiteAdminServer(loadConfig({ SANDBOX_DATA_DIR: scratch(), LOG_REQUESTS: 'false', ...env }), { log });
  const server = http.createServer((req, res) => site.handle(req, res));
  const port = await listen(server);
  return {
    site,
    port,
    stop: async () => {
      await closeServer(server);
      await site.close();
    },
  };
}

describe('several sites on one server', () => {
  const upstreams = new Map<string, Upstream>();
  const logs: RequestLogEntry[] = [];
  let running: Awaited<ReturnType<typeof startServer>>;
  let port: number;
  let site: SiteAdminServer;

  const allReceived = () => [...upstreams.values()].flatMap((u) => u.received.map((r) => ({ upstream: u.name, ...r })));
  const forget = () => {
    for (const u of upstreams.values()) u.received.length = 0;
    logs.length = 0;
  };

  beforeAll(async () => {
    for (const s of LIVE) upstreams.set(s.id, await recordingUpstream(s.id));
    const file = profileFile({
      sites: [
        ...LIVE.map((s) => liveSite(s.id, `http://127.0.0.1:${upstreams.get(s.id)!.port}${s.base}`, s.siteId, s.env)),
        { id: 'demo', name: 'Demo shop', platform: { sandbox: true, siteId: '1001' }, money: { currencies: ['eur'], decimals: 4 } },
      ],
    });
    running = await startServer(
      { SITE_PROFILE: file, SANDBOX_API_KEY: SANDBOX_KEY, ...Object.fromEntries(LIVE.map((s) => [s.env, s.key])) },
      (entry) => logs.push(entry),
    );
    ({ port, site } = running);
  });

  afterAll(async () => {
    await running.stop();
    for (const u of upstreams.values()) await closeServer(u.server);
  });

  afterEach(forget);

  it('lists every site at /api/sites, in the profile’s order, with no key and no name of a key variable', async () => {
    const reply = await send(port, { path: '/api/sites' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['cache-control']).toBe('no-store');
    const { sites } = JSON.parse(reply.text) as { sites: (ReturnType<typeof siteInfoOf> & { can: unknown })[] };
    expect(sites.map((s) => [s.id, s.mode, s.siteId])).toEqual([
      ['north', 'platform', '4101'],
      ['north-2', 'platform', '4102'],
      ['south', 'platform', '4103'],
      ['demo', 'sandbox', '1001'],
    ]);
    expect(sites[0]).toMatchObject({
      host: `127.0.0.1:${upstreams.get('north')!.port}`,
      currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'],
      decimals: 2,
    });
    expect(sites[3]).toMatchObject({ name: 'Demo shop', currencies: ['eur'], decimals: 4 });
    const everything = reply.text + JSON.stringify(reply.headers);
    for (const secret of [...LIVE.flatMap((s) => [s.key, s.env]), SANDBOX_KEY, 'apiKeyEnv', 'KEY-']) {
      expect(everything).not.toContain(secret);
    }
    // The local demo: every site with everything on it.
    expect(sites.map((s) => s.can)).toEqual(Array(4).fill(['lookup', 'create', 'export']));
    expect(site.sites).toEqual(sites.map(({ can: _can, ...info }) => info));
  });

  it.each(LIVE.map((s) => [s.id, s] as const))(
    'sends a lookup on %s to that site’s address with its key and site id',
    async (_id, s: LiveSite) => {
      const reply = await send(port, {
        path: `/api/s/${s.id}/site/v2/forms/3/cases/48217?site=south`,
        headers: { 'x-api-key': 'KEY-south-c81d2e6f', 'x-site-id': '4103', 'x-request-id': `lookup-${s.id}` },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(JSON.parse(reply.text)).toMatchObject({ answeredBy: s.id });
      expect(allReceived()).toEqual([expect.objectContaining({ upstream: s.id, method: 'GET', url: `${s.base}/forms/3/cases/48217` })]);
      expect(allReceived()[0]!.headers).toMatchObject({ 'x-api-key': s.key, 'x-site-id': s.siteId });
      await vi.waitFor(() =>
        expect(logs).toEqual([expect.objectContaining({ requestId: `lookup-${s.id}`, site: s.id, route: 'get-form-case', status: 200 })]),
      );
    },
  );

  it.each(LIVE.map((s) => [s.id, s] as const))('sends a create on %s to that site with its body', async (_id, s: LiveSite) => {
    const body = JSON.stringify({ name: `Mug for ${s.id}`, enabled: 'true' });
    const reply = await send(port, {
      method: 'POST',
      path: `/api/s/${s.id}/site/v2/ecommerce/products/create`,
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(allReceived()).toEqual([
      expect.objectContaining({ upstream: s.id, method: 'POST', url: `${s.base}/ecommerce/products/create`, body }),
    ]);
    expect(allReceived()[0]!.headers).toMatchObject({ 'x-api-key': s.key, 'x-site-id': s.siteId });
  });

  it('sends a sandbox site of the same profile to the in-process sandbox', async () => {
    const seeded = seedCases()[0]!;
    const reply = await send(port, { path: `/api/s/demo/site/v2/forms/${seeded.form}/cases/${seeded.id}` });
    expect(reply.status, reply.text).toBe(200);
    expect(JSON.parse(reply.text)).toEqual(seeded.record);
    expect(allReceived()).toEqual([]);
  });

  it.each([
    ['an unknown site', '/api/s/west/site/v2/forms/3/cases/1', 'No site called "west" is configured on this server.'],
    ['a site in capitals', '/api/s/NORTH/site/v2/forms/3/cases/1', 'No site called "NORTH" is configured on this server.'],
    ['an encoded site', '/api/s/nor%74h/site/v2/forms/3/cases/1', 'No site called "nor%74h" is configured on this server.'],
    ['a dot segment', '/api/s/../site/v2/forms/3/cases/1', 'No site called ".." is configured on this server.'],
    ['the prototype', '/api/s/__proto__/site/v2/forms/3/cases/1', 'No site called "__proto__" is configured on this server.'],
  ])('answers %s with 404 in the error shape, contacting nothing', async (_what, path, message) => {
    for (const method of ['GET', 'POST']) {
      const reply = await send(port, {
        method,
        path,
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
        body: method === 'POST' ? '{"name":"x"}' : undefined,
      });
      expect(expectErrorShape(reply, 404).message).toBe(message);
    }
    expect(allReceived()).toEqual([]);
  });

  it.each([
    ['/api/s', 404],
    ['/api/s/', 404],
    ['/api/s//site/v2/forms/3/cases/1', 404],
    ['/api/s/north', 404],
    ['/api/s/north/', 404],
    ['/api/s/north/meta', 404],
    ['/api/s/north/site/v2', 404],
    ['/api/s/north/site/v2/users/me', 404],
    ['/api/s/north/site/v2/../../south/site/v2/forms/3/cases/1', 404],
    ['/api/s/north/../south/site/v2/forms/3/cases/1', 404],
    ['/api/s/north/site/v2/forms/..%2F..%2Fsouth/cases/1', 404],
    ['/api/s/north/site/v2/forms/a.b/cases/1', 422],
  ])('refuses %s in the error shape without contacting any site', async (path, status) => {
    expectErrorShape(await send(port, { path }), status);
    expect(allReceived()).toEqual([]);
  });

  it('refuses a create from another origin on every site, before it leaves the server', async () => {
    const before = site.sandbox!.store.countProducts();
    for (const s of [...LIVE.map((l) => l.id), 'demo']) {
      const reply = await send(port, {
        method: 'POST',
        path: `/api/s/${s}/site/v2/ecommerce/products/create`,
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: '{"name":"Forged"}',
      });
      expectErrorShape(reply, 403);
    }
    expect(allReceived()).toEqual([]);
    expect(site.sandbox!.store.countProducts()).toBe(before);
  });

  it('refuses the short addresses, which name no site, when there are several sites', async () => {
    const lookup = await send(port, { path: '/api/site/v2/forms/3/cases/48217' });
    expect(expectErrorShape(lookup, 404).message).toContain('must name one: /api/s/{site}/site/v2/');
    const create = await send(port, {
      method: 'POST',
      path: '/api/site/v2/ecommerce/products/create',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: '{"name":"Mug"}',
    });
    expectErrorShape(create, 404);
    expect(allReceived()).toEqual([]);
  });

  it('never lets a request that names site A reach another site, or carry another site’s key or id (property)', async () => {
    const configured = [...LIVE.map((s) => s.id), 'demo'];
    const urlChars = [...'abcdefghijklmnopqrstuvwxyzNORTH0123456789-_.~%'];
    const siteSegment = fc.oneof(
      { arbitrary: fc.constantFrom(...configured), weight: 4 },
      { arbitrary: fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}$/), weight: 2 },
      {
        arbitrary: fc.constantFrom(
          'NORTH',
          'North',
          'north.',
          'north%2D2',
          'nor%74h',
          '..',
          '.',
          '%2e%2e',
          'north-',
          '-north',
          'north-2-',
          'south%00',
          'south%2Fnorth',
          'souther',
          'sout',
          'north-3',
          'demo%20',
          'constructor',
          '__proto__',
          '',
        ),
        weight: 2,
      },
      { arbitrary: fc.string({ unit: fc.constantFrom(...urlChars), maxLength: 16 }), weight: 1 },
    );
    const identifier = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const junkSegment = fc.oneof(
      fc.constantFrom(
        'forms',
        'cases',
        'ecommerce',
        'products',
        'create',
        '..',
        '.',
        '%2e%2e',
        '%2F',
        's',
        'site',
        'v2',
        'api',
        ...configured,
      ),
      identifier,
    );
    const operation = fc.oneof(
      fc
        .record({ form: identifier, id: identifier })
        .map(({ form, id }) => ({ method: 'GET', rest: `/site/v2/forms/${form}/cases/${id}`, valid: true })),
      fc.constant({ method: 'POST', rest: '/site/v2/ecommerce/products/create', valid: true }),
      fc
        .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), fc.boolean(), fc.array(junkSegment, { maxLength: 6 }))
        .map(([method, underApi, parts]) => ({ method, rest: `${underApi ? '/site/v2' : ''}/${parts.join('/')}`, valid: false })),
    );
    const otherSite = fc.constantFrom(...LIVE);
    const disguise = fc.record(
      {
        query: fc.constantFrom('?site=south', '?x-api-key=KEY-south-c81d2e6f', '?x-site-id=4103&site=north'),
        key: otherSite.map((s) => s.key),
        siteId: otherSite.map((s) => s.siteId),
      },
      { requiredKeys: [] },
    );

    await fc.assert(
      fc.asyncProperty(siteSegment, operation, disguise, async (segment, op, extra) => {
        forget();
        const path = `/api/s/${segment}${op.rest}${extra.query ?? ''}`;
        const headers: Record<string, string> = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
        if (extra.key) headers['x-api-key'] = extra.key;
        if (extra.siteId) headers['x-site-id'] = extra.siteId;
        const reply = await send(port, { method: op.method, path, headers, body: op.method === 'GET' ? undefined : '{"name":"Mug"}' });
        const named = LIVE.find((s) => s.id === segment);
        const received = allReceived();

        if (!configured.includes(segment)) {
          expect(received, path).toEqual([]);
          expect(reply.status, path).toBe(404);
          expect(errorShapeProblems(404, reply.headers['content-type'], reply.text), path).toEqual([]);
          return;
        }
        // Only the named site's upstream, only with its key, its site id and under its base path.
        for (const r of received) {
          expect(r.upstream, path).toBe(segment);
          expect(r.headers['x-api-key'], path).toBe(named?.key);
          expect(r.headers['x-site-id'], path).toBe(named?.siteId);
          expect(r.url.startsWith(`${named?.base ?? ''}/`), path).toBe(true);
        }
        expect(received.length, path).toBeLessThanOrEqual(1);
        if (named && op.valid) {
          expect(reply.status, `${path}: ${reply.text}`).toBe(200);
          expect(JSON.parse(reply.text), path).toMatchObject({ answeredBy: segment });
          expect(received, path).toHaveLength(1);
        } else if (reply.status >= 400) {
          expect(errorShapeProblems(reply.status, reply.headers['content-type'], reply.text), path).toEqual([]);
        }
      }),
      fuzzRuns(400),
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// The short addresses with one site, and the sandbox of the example profile
// ---------------------------------------------------------------------------------------------------------------

describe('a server with one site', () => {
  it('sends the short addresses and the site’s own address to it, from a profile of one live site', async () => {
    const upstream = await recordingUpstream('only');
    const file = profileFile({ sites: [liveSite('only-shop', `http://127.0.0.1:${upstream.port}/api/site/v2`, '77', 'ONLY_KEY')] });
    const running = await startServer({ SITE_PROFILE: file, ONLY_KEY: 'KEY-only-5d1f' });
    try {
      expect((await send(running.port, { path: '/api/site/v2/forms/3/cases/1' })).status).toBe(200);
      expect((await send(running.port, { path: '/api/s/only-shop/site/v2/forms/3/cases/2' })).status).toBe(200);
      expectErrorShape(await send(running.port, { path: '/api/s/main/site/v2/forms/3/cases/3' }), 404);
      expect(upstream.received.map((r) => [r.url, r.headers['x-api-key'], r.headers['x-site-id']])).toEqual([
        ['/api/site/v2/forms/3/cases/1', 'KEY-only-5d1f', '77'],
        ['/api/site/v2/forms/3/cases/2', 'KEY-only-5d1f', '77'],
      ]);
    } finally {
      await running.stop();
      await closeServer(upstream.server);
    }
  });

  it('is the site `main` without a profile, on the short and the long address alike', async () => {
    const running = await startServer({});
    try {
      const sites = JSON.parse((await send(running.port, { path: '/api/sites' })).text) as { sites: unknown[] };
      // The local demo (loopback, nobody in the database): everything on every site, no sign-in.
      expect(sites).toEqual({
        sites: [
          {
            id: 'main',
            name: 'Sandbox',
            mode: 'sandbox',
            siteId: '1001',
            currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'],
            decimals: 2,
            can: ['lookup', 'create', 'export'],
          },
        ],
        me: { kind: 'demo' },
      });
      const seeded = seedCases()[0]!;
      for (const path of [
        `/api/site/v2/forms/${seeded.form}/cases/${seeded.id}`,
        `/api/s/main/site/v2/forms/${seeded.form}/cases/${seeded.id}`,
      ]) {
        const reply = await send(running.port, { path });
        expect(reply.status, path).toBe(200);
        expect(JSON.parse(reply.text)).toEqual(seeded.record);
      }
    } finally {
      await running.stop();
    }
  });

  it('names the platform’s host without a profile, and never its key or SITE_API_KEY', async () => {
    const upstream = await recordingUpstream('platform');
    const running = await startServer({
      SITE_API_BASE_URL: `http://127.0.0.1:${upstream.port}/api/site/v2`,
      SITE_API_KEY: 'KEY-platform-44ab',
      SITE_ID: '2002',
    });
    try {
      const reply = await send(running.port, { path: '/api/sites' });
      expect(JSON.parse(reply.text)).toEqual({
        sites: [
          {
            id: 'main',
            name: `127.0.0.1:${upstream.port}`,
            mode: 'platform',
            host: `127.0.0.1:${upstream.port}`,
            siteId: '2002',
            currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'],
            decimals: 2,
            can: ['lookup', 'create', 'export'],
          },
        ],
        me: { kind: 'demo' },
      });
      expect(reply.text).not.toContain('KEY-platform');
      expect(reply.text).not.toContain('SITE_API_KEY');
    } finally {
      await running.stop();
      await closeServer(upstream.server);
    }
  });
});

describe('the sandbox of the example profile, through the server', () => {
  let running: Awaited<ReturnType<typeof startServer>>;
  const example = checkSiteProfile(readFileSync(EXAMPLE_PROFILE, 'utf8'));

  beforeAll(async () => {
    running = await startServer({ SITE_PROFILE: EXAMPLE_PROFILE });
  });
  afterAll(async () => {
    await running.stop();
  });

  const create = (site: string, product: Record<string, unknown>) =>
    send(running.port, {
      method: 'POST',
      path: `/api/s/${site}/site/v2/ecommerce/products/create`,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(product),
    });
  const sandboxProducts = async (siteId: string) => {
    const origin = running.site.sandbox!.origin;
    const res = await fetch(`${origin}/__sandbox/products`, { headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': siteId } });
    return { status: res.status, body: (await res.json()) as { products?: { body: { slug?: string } }[] } };
  };

  it('lists the example’s sites as the profile describes them', async () => {
    expect(example.ok).toBe(true);
    const reply = await send(running.port, { path: '/api/sites' });
    const expected = example.ok ? example.profile.sites.map((site) => ({ ...siteInfoOf(site), can: ['lookup', 'create', 'export'] })) : [];
    expect(JSON.parse(reply.text)).toEqual({ sites: JSON.parse(JSON.stringify(expected)) as unknown, me: { kind: 'demo' } });
    const { sites } = JSON.parse(reply.text) as { sites: { id: string; name: string; mode: string; siteId: string }[] };
    expect(sites.map(({ id, name, mode, siteId }) => ({ id, name, mode, siteId }))).toEqual([
      { id: 'harbour-linen', name: 'Harbour Linen', mode: 'sandbox', siteId: '1001' },
      { id: 'summit-outfitters', name: 'Summit Outfitters', mode: 'sandbox', siteId: '1002' },
    ]);
    // Without any key, or the name of a key's variable.
    expect(reply.text).not.toContain('sandbox-local-key');
    expect(reply.text).not.toContain('apiKeyEnv');
  });

  it('keeps each site’s products and slugs apart, in each site’s category encoding', async () => {
    expect(
      (await create('harbour-linen', { name: 'Linen throw', enabled: 'true', slug: 'throw', category_array: ['158199'] })).status,
    ).toBe(200);
    expect(
      (await create('summit-outfitters', { name: 'Camp throw', enabled: 'false', slug: 'throw', category_array: [{ id: '301' }] })).status,
    ).toBe(200);
    expectErrorShape(await create('harbour-linen', { name: 'Again', enabled: 'true', slug: 'throw' }), 422);
    const harbour = await sandboxProducts('1001');
    const summit = await sandboxProducts('1002');
    // Beside each site's demo catalogue, the one product of that slug is the site's own.
    expect(harbour.body.products?.filter((p) => p.body.slug === 'throw').map((p) => p.body)).toEqual([
      expect.objectContaining({ name: 'Linen throw', category_array: ['158199'] }),
    ]);
    expect(summit.body.products?.filter((p) => p.body.slug === 'throw').map((p) => p.body)).toEqual([
      expect.objectContaining({ name: 'Camp throw', category_array: [{ id: '301' }] }),
    ]);
    expect((await sandboxProducts('1003')).status).toBe(403);
  });

  it('serves each site its own demo cases', async () => {
    const harbourCase = seedCases('full')[0]!;
    const summitCase = seedCases('second')[0]!;
    const lookup = (site: string, c: { form: string; id: string }) =>
      send(running.port, { path: `/api/s/${site}/site/v2/forms/${c.form}/cases/${c.id}` });
    expect((await lookup('harbour-linen', harbourCase)).status).toBe(200);
    expectErrorShape(await lookup('summit-outfitters', harbourCase), 404);
    expect(JSON.parse((await lookup('summit-outfitters', summitCase)).text)).toEqual(summitCase.record);
    expectErrorShape(await lookup('harbour-linen', summitCase), 404);
  });
});
