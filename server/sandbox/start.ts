/**
 * Starts the sandbox on a real loopback port, so the proxy reaches it over HTTP exactly as it reaches
 * the platform: on the calling thread (`startSandbox`: `npm run sandbox`, tests), or in a worker thread of
 * its own (`startSandboxWorker`: `npm start`), so that the proxy and the sandbox do not share one thread.
 */
import { getRequestListener } from '@hono/node-server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { refuse } from '../answers';
import { isAllowedHost, LOOPBACK_HOSTS } from '../hosts';
import { createSandboxApp } from './app';
import { openStore, type SandboxStore } from './store';

export interface RunningSandbox {
  /** Base address of the API, ending in /api/site/v2. */
  baseUrl: URL;
  /** Origin of the sandbox, for its /__sandbox helpers. */
  origin: string;
  /**
   * The sandbox's database. With the sandbox in a worker thread, a connection of the calling thread to the
   * same file (WAL: it reads every committed write), for tests and checks.
   */
  store: SandboxStore;
  close(): Promise<void>;
}

export interface StartSandboxOptions {
  dataDir: string;
  apiKey: string;
  /** The sites it stands in for; the first gets the full set of demo cases, every other a smaller one. */
  siteIds: readonly string[];
  host?: string;
  port?: number;
  maxBodyBytes?: number;
  /**
   * Host names its port answers, as the main server's ALLOWED_HOSTS (default: loopback names): a web page
   * on another domain pointed at 127.0.0.1 (DNS rebinding) must not read or write the demo data.
   */
  allowedHosts?: readonly string[] | 'any';
}

/** What the main thread tells the sandbox's worker thread, and what it answers (see worker.ts). */
export type ToSandboxWorker = { type: 'close' };
export type FromSandboxWorker =
  { type: 'ready'; baseUrl: string; origin: string } | { type: 'failed'; message: string; code?: string } | { type: 'closed' };

const databaseFile = (dataDir: string) => (dataDir === ':memory:' ? ':memory:' : join(dataDir, 'sandbox.sqlite'));

export function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const store = openStore(databaseFile(options.dataDir), options.siteIds);
  const app = createSandboxApp({
    store,
    apiKey: options.apiKey,
    siteIds: options.siteIds,
    maxBodyBytes: options.maxBodyBytes,
  });
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  const listener = getRequestListener(app.fetch);
  const server = createServer((req, res) => {
    if (!isAllowedHost(req.headers.host, allowedHosts)) {
      refuse(req, res, 421, `The sandbox does not answer to the host "${req.headers.host ?? ''}".`);
      return;
    }
    void listener(req, res);
  });
  return new Promise((resolve, reject) => {
    server.listen(options.port ?? 0, host, () => {
      const info = server.address() as AddressInfo;
      const origin = `http://${host.includes(':') ? `[${host}]` : host}:${info.port}`;
      resolve({
        baseUrl: new URL(`${origin}/api/site/v2`),
        origin,
        store,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => {
              store.close();
              done();
            });
            server.closeAllConnections();
          }),
      });
    });
    server.once('error', (error) => {
      store.close();
      reject(error);
    });
  });
}

/**
 * The sandbox in a worker thread: its HTTP server, its SQLite connection and its event loop are the
 * worker's; this thread keeps only a reading connection to the same file (`store`). The proxy reaches it
 * over loopback HTTP as before. A database in memory cannot be shared between threads: it stays here.
 */
export function startSandboxWorker(options: StartSandboxOptions): Promise<RunningSandbox> {
  if (options.dataDir === ':memory:') return startSandbox(options);
  // Compiled (`npm start`): the worker's own bundle, beside the server's. From the sources (tests, `npm
  // run dev`): an entry that registers tsx's loader before it imports the TypeScript.
  const entry = import.meta.url.endsWith('.ts')
    ? new URL('./worker-entry.mjs', import.meta.url)
    : new URL('./sandbox-worker.js', import.meta.url);
  const worker = new Worker(entry, {
    workerData: options,
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return new Promise<RunningSandbox>((resolve, reject) => {
    const failed = (error: Error) => {
      void worker.terminate();
      reject(error);
    };
    worker.once('error', failed);
    worker.on('message', (message: FromSandboxWorker) => {
      if (message.type === 'failed') {
        failed(Object.assign(new Error(message.message), { code: message.code }));
        return;
      }
      if (message.type !== 'ready') return;
      worker.off('error', failed);
      // After the start, a failure of the sandbox is the sandbox's: it is logged, and the proxy answers 502.
      worker.on('error', (error) => console.error('sandbox: the worker thread failed', error));
      // The worker has created, migrated and seeded the file: this connection only reads it.
      const store = openStore(databaseFile(options.dataDir), []);
      resolve({
        baseUrl: new URL(message.baseUrl),
        origin: message.origin,
        store,
        close: async () => {
          const closed = new Promise<void>((done) => {
            worker.on('message', (reply: FromSandboxWorker) => {
              if (reply.type === 'closed') done();
            });
          });
          worker.postMessage({ type: 'close' } satisfies ToSandboxWorker);
          // A worker that cannot close within 5 s is stopped; SQLite's WAL keeps every committed write.
          const timer = setTimeout(() => void worker.terminate(), 5_000);
          await Promise.race([closed, exited]);
          await exited;
          clearTimeout(timer);
          store.close();
        },
      });
    });
  });
}
