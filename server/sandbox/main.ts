/**
 * `npm run sandbox`: the sandbox on its own, for pointing any client at a faithful Site API v2.
 */
import { SANDBOX_DEFAULTS, loadConfig } from '../config';
import { startSandbox } from './start';

const config = loadConfig({ ...process.env, SITE_API_BASE_URL: '' });
const port = process.env.SANDBOX_PORT ? config.sandbox.port : SANDBOX_DEFAULTS.port;
const sandbox = await startSandbox({
  dataDir: config.sandbox.dataDir,
  apiKey: config.apiKey,
  siteIds: [config.siteId],
  host: config.host,
  port,
  maxBodyBytes: config.maxBodyBytes,
  allowedHosts: config.allowedHosts,
});
console.log(`Sandbox Site API v2 at ${sandbox.baseUrl.href} (site ${config.siteId}, data in ${config.sandbox.dataDir})`);
console.log(`Send x-api-key: ${config.apiKey === SANDBOX_DEFAULTS.apiKey ? config.apiKey : '<SANDBOX_API_KEY>'} and x-site-id: ${config.siteId}`);

const stop = () => void sandbox.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
