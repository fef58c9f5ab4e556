/**
 * Starts the sandbox on a real loopback port, so the proxy reaches it over HTTP exactly as it reaches
 * the platform.
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createSandboxApp } from './app';
import { openStore, type SandboxStore } from './store';

export interface RunningSandbox {
  /** Base address of the API, ending in /api/site/v2. */
  baseUrl: URL;
  /** Origin of the sandbox, for its /__sandbox helpers. */
  origin: string;
  store: SandboxStore;
  close(): Promise<void>;
}

export interface StartSandboxOptions {
  dataDir: string;
  apiKey: string;
  siteId: string;
  host?: string;
  port?: number;
  maxBodyBytes?: number;
}

export function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const store = openStore(
    options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'sandbox.sqlite'),
    options.siteId,
  );
  const app = createSandboxApp({
    store,
    apiKey: options.apiKey,
    siteId: options.siteId,
    maxBodyBytes: options.maxBodyBytes,
  });
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, (info: AddressInfo) => {
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
            if ('closeAllConnections' in server) server.closeAllConnections();
          }),
      });
    });
    server.once('error', (error) => {
      store.close();
      reject(error);
    });
  });
}
