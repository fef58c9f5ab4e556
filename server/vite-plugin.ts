/**
 * `npm run dev`: mounts the same server code (the pipeline, the proxy, our own API, the sandbox) in Vite's
 * dev server.
 */
import type { Plugin } from 'vite';
import { createSiteAdminServer, type SiteAdminServer } from './app';
import { loadConfig } from './config';

export function siteAdminDevServer(): Plugin {
  let server: SiteAdminServer | undefined;
  return {
    name: 'site-admin-server',
    apply: 'serve',
    async configureServer(vite) {
      server = await createSiteAdminServer(loadConfig());
      const mounted = server;
      vite.middlewares.use((req, res, next) => mounted.handle(req, res, next));
      vite.httpServer?.once('close', () => void mounted.close());
    },
  };
}
