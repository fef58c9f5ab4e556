/**
 * The built app (`npm start`), with Hono's static file server: hashed assets cached for a year and sent
 * precompressed (the build wrote .br and .gz copies beside them), other files revalidated, and the app's
 * index.html for every other GET, since the app routes in the browser and shows its own 404 page.
 *
 * With the page, a `Link` header names the scripts the first screen will ask for once the app's code has
 * run (`rel=modulepreload`), so the browser fetches them beside that code instead of after it: on a slow
 * network each such wait is a round trip (562.5 ms on DevTools' Slow 4G). Which screen comes first is
 * known here: the sign-in page for a browser without a session on a server where someone must sign in,
 * otherwise the page the address names (Cases, and the case view when it names a case). The file names
 * come from the build (`.vite/screens.json`, written by scripts/screen-chunks.ts), which is not served.
 */
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

export interface StaticFilesOptions {
  /** Whether this browser will see the sign-in page first: no session cookie, on a server that has sign-in. */
  signInExpected?: (req: IncomingMessage) => Promise<boolean> | boolean;
}

/** What each first screen loads beyond the entry, as the build wrote it (scripts/screen-chunks.ts). */
type Screens = Partial<Record<'signIn' | 'cases' | 'caseView', { scripts: string[]; styles: string[] }>>;

/** `/cases`, `/cases/3/48217`, and the same under a site's prefix (`/s/<site>/cases/…`). */
const CASES_ADDRESS = /^(?:\/s\/[^/]+)?\/cases(?:\/([^/]+)\/([^/]+))?\/?$/;

/** Each screen's `Link` header: its scripts as `rel=modulepreload`, its styles as `rel=preload; as=style`. */
export function preloadLinks(screens: Screens): Partial<Record<keyof Screens, string>> {
  const links: Partial<Record<keyof Screens, string>> = {};
  for (const [screen, chunks] of Object.entries(screens) as [keyof Screens, NonNullable<Screens[keyof Screens]>][]) {
    const scripts = chunks.scripts.map((file) => `</${file}>; rel=modulepreload; crossorigin`);
    const styles = chunks.styles.map((file) => `</${file}>; rel=preload; as=style; crossorigin`);
    links[screen] = [...scripts, ...styles].join(', ');
  }
  return links;
}

function readScreens(distDir: string): Screens {
  const path = join(distDir, '.vite', 'screens.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Screens) : {};
}

export function createStaticFiles(distDir: string, options: StaticFilesOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const indexHtml = readFileSync(join(distDir, 'index.html'), 'utf8');
  const links = preloadLinks(readScreens(distDir));
  const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
  app.use(
    '/assets/*',
    serveStatic({
      root: distDir,
      precompressed: true,
      // Hashed file names: safe to cache for a year.
      onFound: (_path, c) => c.header('cache-control', 'public, max-age=31536000, immutable'),
    }),
  );
  // The build's own records (the manifest) are not the app's files: such an address gets the app, like any other.
  app.use('*', async (c, next) => {
    if (c.req.path.startsWith('/.vite/')) return next();
    return serveStatic({ root: distDir, onFound: (_path, found) => found.header('cache-control', 'no-cache') })(c, next);
  });
  app.get('*', async (c) => {
    const headers: Record<string, string> = { 'cache-control': 'no-cache' };
    const cases = CASES_ADDRESS.exec(c.req.path);
    const signIn = options.signInExpected ? await options.signInExpected(c.env.incoming) : false;
    const hinted = signIn ? [links.signIn] : cases ? [cases[1] ? links.caseView : links.cases] : [];
    const link = hinted.filter(Boolean).join(', ');
    if (link) headers.link = link;
    return c.html(indexHtml, 200, headers);
  });
  const listener = getRequestListener(app.fetch);
  return (req, res) => void listener(req, res);
}
