/**
 * Starts the sandbox on a real loopback port, so the proxy reaches it over HTTP exactly as it reaches
 * the platform.
 */
import { getRequestListener } from '@hono/node-server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { refuse } from '../answers';
import { isAllowedHost, LOOPBACK_HOSTS } from '../security';
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

export function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const store = openStore(
    options.dataDir === ':memory:' ? ':memory:' : join(options.dataDir, 'sandbox.sqlite'),
    options.siteIds,
  );
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
