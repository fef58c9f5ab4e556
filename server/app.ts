/**
 * The server's request handling, shared by `npm start` (production, serving dist/) and `npm run dev`
 * (mounted as middleware in Vite's dev server): the proxy for /api/site/v2, our own small /api
 * endpoints, and in production the built app.
 */
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SERVER_META_PATH, type ServerMeta } from '../src/contract/server-meta';
import { API_BASE_PATH, errorBody } from '../src/contract/site-api';
import { bodyPending, refuse } from './answers';
import { ConfigError, type ServerConfig } from './config';
import { createBasicAuth } from './login';
import { createProxy, type RequestLogEntry } from './proxy';
import { isAllowedHost, isSameOrigin, LOOPBACK_HOSTS, setSecurityHeaders } from './security';
import { startSandbox, type RunningSandbox } from './sandbox/start';

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


export interface SiteAdminServer {
  /** Handles a request, or calls next() for one that is not ours (dev: Vite serves it). */
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  meta: ServerMeta;
  sandbox: RunningSandbox | undefined;
  close(): Promise<void>;
}

export interface CreateServerOptions {
  /** The built app to serve; omitted in dev, where Vite serves it. */
  distDir?: string;
  log?: (entry: RequestLogEntry) => void;
}

export async function createSiteAdminServer(config: ServerConfig, options: CreateServerOptions = {}): Promise<SiteAdminServer> {
  const sandbox = config.upstreamBaseUrl
    ? undefined
    : await startSandbox({
        dataDir: config.sandbox.dataDir,
        apiKey: config.apiKey,
        siteIds: [config.siteId],
        port: config.sandbox.port,
        maxBodyBytes: config.maxBodyBytes,
        // In-process, the sandbox listens on loopback: it answers loopback names only.
        allowedHosts: LOOPBACK_HOSTS,
      });
  const upstream = config.upstreamBaseUrl ?? sandbox?.baseUrl;
  if (!upstream) throw new Error('No upstream: neither SITE_API_BASE_URL nor the sandbox.');

  const meta: ServerMeta = config.upstreamBaseUrl
    ? { mode: 'platform', host: config.upstreamBaseUrl.host, siteId: config.siteId }
    : { mode: 'sandbox', siteId: config.siteId };

  const proxy = createProxy({
    upstream,
    apiKey: config.apiKey,
    siteId: config.siteId,
    timeoutMs: config.proxyTimeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    log: options.log,
  });

  const app = new Hono();
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

  const route = (req: IncomingMessage, res: ServerResponse, next?: () => void) => {
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    const readOnly = method === 'GET' || method === 'HEAD';
    if (url === API_BASE_PATH || url.startsWith(`${API_BASE_PATH}/`) || url.startsWith(`${API_BASE_PATH}?`)) {
      // Only the app's own pages may change anything: a cross-site form or script gets 403 here,
      // and the platform never sees it.
      if (!readOnly && !isSameOrigin(req)) {
        refuse(req, res, 403, 'Changes must come from site-admin’s own pages (the Origin of this request is another site).');
        return;
      }
      proxy(req, res);
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
