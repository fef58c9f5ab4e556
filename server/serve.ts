/**
 * The production server that `npm start` runs (main.ts): serves the built app from dist/ and the proxy, on
 * loopback by default. Refuses to start, with a message naming the setting, when the configuration is
 * incomplete.
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, SETTINGS, type ServerConfig } from './config';
import { createSiteAdminServer, type CreateServerOptions } from './app';

/** `options`: what main.ts never passes; only the bench's own entry does (see CreateServerOptions). */
export async function serve(options: Pick<CreateServerOptions, 'withoutActivityRecord'> = {}): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`site-admin cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const distDir = resolve(process.env.DIST_DIR ?? SETTINGS.DIST_DIR);
  if (!existsSync(resolve(distDir, 'index.html'))) {
    console.error(`site-admin cannot start: no built app in ${distDir}. Run "npm run build" first (npm start does).`);
    process.exit(1);
  }

  let app: Awaited<ReturnType<typeof createSiteAdminServer>>;
  try {
    app = await createSiteAdminServer(config, {
      ...options,
      distDir,
      // The sandbox, when a site uses it, runs in its own thread: the proxy keeps this one to itself.
      sandboxThread: 'worker',
      log: config.logRequests ? (entry) => process.stdout.write(`${JSON.stringify(entry)}\n`) : undefined,
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`site-admin cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const server = createServer((req, res) => app.handle(req, res));
  server.keepAliveTimeout = 65_000;
  server.listen(config.port, config.host, () => {
    const whereOf = (site: (typeof app.sites)[number]) =>
      site.mode === 'sandbox' ? `the sandbox (site ${site.siteId})` : `${site.host ?? ''} (site ${site.siteId})`;
    const where =
      app.sites.length === 1 && app.sites[0]
        ? whereOf(app.sites[0])
        : `${app.sites.length} sites: ${app.sites.map((site) => `${site.id} on ${whereOf(site)}`).join(', ')}`;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const profile = config.siteProfile ? ` (profile ${config.siteProfile})` : '';
    console.log(`site-admin on http://${host}:${config.port}/ working on ${where}${profile}`);
  });

  const stop = () => {
    server.close();
    server.closeAllConnections();
    void app.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
