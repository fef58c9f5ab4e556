/**
 * `npm run sandbox`: the sandbox on its own, for pointing any client at a faithful Site API v2. It serves
 * SANDBOX_SITE_ID (1001 by default) and, when SITE_PROFILE is set, every sandbox site of the profile.
 */
import { ConfigError, SANDBOX_DEFAULTS, loadConfig, standaloneSandboxSiteIds } from '../config';
import { startSandbox } from './start';

let siteIds: string[];
let config: ReturnType<typeof loadConfig>;
try {
  // The server's own settings (host, data folder, limits); the profile only for its sandbox sites, so
  // the keys of its live sites are not needed here.
  config = loadConfig({ ...process.env, SITE_API_BASE_URL: '', SITE_API_KEY: '', SITE_ID: '', SITE_PROFILE: '' });
  siteIds = standaloneSandboxSiteIds(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`The sandbox cannot start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
const port = process.env.SANDBOX_PORT ? config.sandbox.port : SANDBOX_DEFAULTS.port;
const sandbox = await startSandbox({
  dataDir: config.sandbox.dataDir,
  apiKey: config.sandbox.apiKey,
  siteIds,
  host: config.host,
  port,
  maxBodyBytes: config.maxBodyBytes,
  allowedHosts: config.allowedHosts,
});
const sites = siteIds.length === 1 ? `site ${siteIds[0]}` : `sites ${siteIds.join(', ')}`;
console.log(`Sandbox Site API v2 at ${sandbox.baseUrl.href} (${sites}, data in ${config.sandbox.dataDir})`);
console.log(
  `Send x-api-key: ${config.sandbox.apiKey === SANDBOX_DEFAULTS.apiKey ? config.sandbox.apiKey : '<SANDBOX_API_KEY>'} and x-site-id: ${siteIds.join(' or ')}`,
);

const stop = () => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
