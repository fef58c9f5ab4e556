/**
 * The server's request handling, shared by `npm start` (production, serving dist/) and `npm run dev`
 * (mounted as middleware in Vite's dev server): one proxy per site under /api/s/{site}/site/v2 (and the
 * short /api/site/v2 on a server of one site), our own small /api endpoints, and in production the
 * built app.
 */
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SERVER_META_PATH, type ServerMeta } from '../src/contract/server-meta';
import { API_BASE_PATH, errorBody } from '../src/contract/site-api';
import { SITES_PATH, siteInfoOf, type SiteInfo } from '../src/contract/site-info';
import { bodyPending, refuse } from './answers';
import { ConfigError, type ConfiguredSite, type ServerConfig } from './config';
import { createBasicAuth } from './login';
import { createProxy, type RequestLogEntry } from './proxy';
import { isAllowedHost, isSameOrigin, LOOPBACK_HOSTS, setSecurityHeaders } from './security';
import { startSandbox, startSandboxWorker, type RunningSandbox } from './sandbox/start';

/** How long the server waits at start for the Redis of REDIS_URL. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/** Connects to REDIS_URL; ioredis is loaded only when one is set. */
async function connectRedis(url: URL) {
  const { Redis } = await import('ioredis');
  const client = new Redis(url.href, {
    lazyConnect: true,
    // Commands fail at once while Redis is away, and the login counts in memory meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
  // Errors while reconnecting are expected; the login falls back to memory.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new ConfigError(`REDIS_URL is set, but Redis at ${url.host} could not be reached (${(error as Error).message}).`);
  }
  return client;
}

/** Addresses that name their site: `/api/s/{site}/site/v2/...`. */
export const SITE_ADDRESS_PREFIX = '/api/s/';
/** The part of a site's address where Site API v2 starts, after `/api/s/{site}`. */
const SITE_API_SUFFIX = '/site/v2';

/**
 * How a refusal quotes the site an address named: as it came (`nor%74h` is not `north`: ids are compared
 * undecoded), never long.
 */
function quotedSite(segment: string): string {
  return JSON.stringify(segment.length > 64 ? `${segment.slice(0, 64)}…` : segment);
}

/** Where a site's calls go, for the header's badge of pages that still ask /api/meta. */
function metaOf(site: ConfiguredSite): ServerMeta {
  return site.upstream === 'sandbox'
    ? { mode: 'sandbox', siteId: site.siteId }
    : { mode: 'platform', host: site.upstream.host, siteId: site.siteId };
}

export interface SiteAdminServer {
  /** Handles a request, or calls next() for one that is not ours (dev: Vite serves it). */
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  /** Where the first site's calls go (what /api/meta answers). */
  meta: ServerMeta;
  /** Every site, as /api/sites lists it. */
  sites: readonly SiteInfo[];
  sandbox: RunningSandbox | undefined;
  close(): Promise<void>;
}

export interface CreateServerOptions {
  /** The built app to serve; omitted in dev, where Vite serves it. */
  distDir?: string;
  log?: (entry: RequestLogEntry) => void;
  /**
   * Where the sandbox runs when a site needs it: in a worker thread of its own (`npm start`: the proxy and
   * the sandbox each get a thread, so both cores work), or on this thread (the default; tests).
   */
  sandboxThread?: 'worker' | 'this';
}

export async function createSiteAdminServer(config: ServerConfig, options: CreateServerOptions = {}): Promise<SiteAdminServer> {
  const sandboxSiteIds = [...new Set(config.sites.filter((site) => site.upstream === 'sandbox').map((site) => site.siteId))];
  const sandbox =
    sandboxSiteIds.length === 0
      ? undefined
      : await (options.sandboxThread === 'worker' ? startSandboxWorker : startSandbox)({
          dataDir: config.sandbox.dataDir,
          apiKey: config.sandbox.apiKey,
          siteIds: sandboxSiteIds,
          port: config.sandbox.port,
          maxBodyBytes: config.maxBodyBytes,
          // In-process, the sandbox listens on loopback: it answers loopback names only.
          allowedHosts: LOOPBACK_HOSTS,
        });

  // One proxy per site, built from that site alone: its address, its key, its site id, its pool.
  const proxies = new Map(
    config.sites.map((site) => {
      const upstream = site.upstream === 'sandbox' ? sandbox?.baseUrl : site.upstream;
      if (!upstream) throw new Error(`No upstream for site "${site.profile.id}".`);
      const proxy = createProxy({
        site: site.profile.id,
        upstream,
        apiKey: site.apiKey,
        siteId: site.siteId,
        timeoutMs: config.proxyTimeoutMs,
        maxBodyBytes: config.maxBodyBytes,
        log: options.log,
      });
      return [site.profile.id, proxy] as const;
    }),
  );
  const firstSite = config.sites[0];
  if (!firstSite) throw new Error('No site configured.');
  // The short addresses (/api/site/v2/...) reach the one site of a server that has only one.
  const onlyProxy = config.sites.length === 1 ? proxies.get(firstSite.profile.id) : undefined;
  const meta = metaOf(firstSite);
  const sites = config.sites.map((site) => siteInfoOf(site.profile));
  const sitesAnswer = JSON.stringify({ sites });

  const app = new Hono();
  app.get(SITES_PATH, (c) => c.body(sitesAnswer, 200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }));
  // Kept for pages built before /api/sites: where the first site's calls go.
  app.get(SERVER_META_PATH, (c) => c.json(meta, 200, { 'cache-control': 'no-store' }));
  app.get('/api/health', (c) => c.json({ status: 'ok' }, 200, { 'cache-control': 'no-store' }));
  app.all('/api/*', (c) => c.json(errorBody(404, `${c.req.method} ${c.req.path} is not an endpoint of this server.`), 404));

  const distDir = options.distDir;
  if (distDir) {
    const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
    app.use(
      '/assets/*',
      serveStatic({
        root: distDir,
        // The build wrote .br and .gz copies beside each script and style.
        precompressed: true,
        onFound: (_path, c) => {
          // Hashed file names: safe to cache for a year.
          c.header('cache-control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    app.use('*', serveStatic({ root: distDir, onFound: (_path, c) => c.header('cache-control', 'no-cache') }));
    // Client-side routes: every other GET gets the app, which shows its own 404 page for unknown paths.
    app.get('*', (c) => c.html(indexHtml, 200, { 'cache-control': 'no-cache' }));
  }
  const honoListener = getRequestListener(app.fetch);
  const redis = config.login && config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const login = config.login ? createBasicAuth({ ...config.login, redis }) : undefined;

  /** Hands a request for a site's operations to that site's proxy, after the same-origin check. */
  const toProxy = (proxy: ReturnType<typeof createProxy>, addressBase: string, req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    // Only the app's own pages may change anything: a cross-site form or script gets 403 here,
    // and the platform never sees it.
    if (method !== 'GET' && method !== 'HEAD' && !isSameOrigin(req)) {
      refuse(req, res, 403, 'Changes must come from site-admin’s own pages (the Origin of this request is another site).');
      return;
    }
    proxy(req, res, addressBase);
  };

  const route = (req: IncomingMessage, res: ServerResponse, next?: () => void) => {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const readOnly = method === 'GET' || method === 'HEAD';
    const path = url.split('?')[0] ?? '';
    if (path === SITE_ADDRESS_PREFIX.slice(0, -1) || path.startsWith(SITE_ADDRESS_PREFIX)) {
      // The site is the whole first segment, compared as it came: only an id of the profile matches.
      const segment = path.slice(SITE_ADDRESS_PREFIX.length).split('/')[0] ?? '';
      const proxy = proxies.get(segment);
      if (!proxy) {
        refuse(req, res, 404, segment === ''
          ? `The address names no site: write ${SITE_ADDRESS_PREFIX}{site}${SITE_API_SUFFIX}/... with a site of ${SITES_PATH}.`
          : `No site called ${quotedSite(segment)} is configured on this server.`);
        return;
      }
      const addressBase = `${SITE_ADDRESS_PREFIX}${segment}${SITE_API_SUFFIX}`;
      if (path === addressBase || path.startsWith(`${addressBase}/`)) {
        toProxy(proxy, addressBase, req, res);
        return;
      }
      refuse(req, res, 404, `${method} ${path} is not an endpoint of this server.`);
      return;
    }
    if (path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`)) {
      if (!onlyProxy) {
        refuse(req, res, 404, `This server works on ${config.sites.length} sites, so the address must name one: ` +
          `${SITE_ADDRESS_PREFIX}{site}${SITE_API_SUFFIX}/... with a site of ${SITES_PATH}.`);
        return;
      }
      toProxy(onlyProxy, API_BASE_PATH, req, res);
      return;
    }
    // Everything else here only reads: a body is refused unread, whatever it is.
    const api = url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
    if (!readOnly) {
      if (api) refuse(req, res, 404, `${method} ${url.split('?')[0] ?? ''} is not an endpoint of this server.`);
      else refuse(req, res, 405, `${method} is not allowed on the pages of site-admin.`, undefined, { allow: 'GET, HEAD' });
      return;
    }
    if (bodyPending(req)) {
      refuse(req, res, 400, `${method} ${url.split('?')[0] ?? ''} takes no request body.`);
      return;
    }
    if (!distDir && next && !api) {
      next();
      return;
    }
    void honoListener(req, res);
  };

  return {
    meta,
    sites,
    sandbox,
    handle(req, res, next) {
      setSecurityHeaders(res);
      if (!isAllowedHost(req.headers.host, config.allowedHosts)) {
        refuse(req, res, 421, `This server does not answer to the host "${req.headers.host ?? ''}". Add it to ALLOWED_HOSTS if it is yours.`);
        return;
      }
      // Load balancers check health without a login.
      if (!login || req.url === '/api/health') {
        route(req, res, next);
        return;
      }
      login(req, res, () => route(req, res, next));
    },
    close: async () => {
      await sandbox?.close();
      redis?.disconnect();
    },
  };
}
