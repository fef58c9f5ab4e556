/**
 * The built app (`npm start`), with Hono's static file server: hashed assets cached for a year and sent
 * precompressed (the build wrote .br and .gz copies beside them), other files revalidated, and the app's
 * index.html for every other GET, since the app routes in the browser and shows its own 404 page.
 */
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

export function createStaticFiles(distDir: string): (req: IncomingMessage, res: ServerResponse) => void {
  const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  const app = new Hono();
  app.use(
    '/assets/*',
    serveStatic({
      root: distDir,
      precompressed: true,
      // Hashed file names: safe to cache for a year.
      onFound: (_path, c) => c.header('cache-control', 'public, max-age=31536000, immutable'),
    }),
  );
  app.use('*', serveStatic({ root: distDir, onFound: (_path, c) => c.header('cache-control', 'no-cache') }));
  app.get('*', (c) => c.html(indexHtml, 200, { 'cache-control': 'no-cache' }));
  const listener = getRequestListener(app.fetch);
  return (req, res) => void listener(req, res);
}
