import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './scripts/find-chromium.mjs';
import { TEST_CLIENT } from './server/auth/sso-test-constants';
import { SSO_CALLBACK_PATH } from './src/contract/single-sign-on';

const PORT = Number(process.env.E2E_PORT ?? 4179);
const SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4180);
// The second server: several sites, from the example site profile.
const SITES_PORT = Number(process.env.E2E_SITES_PORT ?? 4181);
const SITES_SANDBOX_PORT = Number(process.env.E2E_SITES_SANDBOX_PORT ?? 4182);
const SITE_PROFILE = 'server/site-profile.example.json';
// The third server: single sign-on against an OpenID provider that e2e/single-sign-on.spec.ts starts on loopback.
const SSO_PORT = Number(process.env.E2E_SSO_PORT ?? 4183);
const SSO_SANDBOX_PORT = Number(process.env.E2E_SSO_SANDBOX_PORT ?? 4184);
const SSO_PROVIDER_PORT = Number(process.env.E2E_SSO_PROVIDER_PORT ?? 4185);
// One fresh sandbox database per run; set once here so every worker sees the same folder.
process.env.E2E_DATA_DIR ??= join(tmpdir(), `site-admin-e2e-${process.pid}-${Date.now()}`);
// Its own build too, so a run never serves assets another build has just replaced.
process.env.E2E_DIST_DIR ??= join(process.env.E2E_DATA_DIR, 'dist');
// The server as production runs it, compiled (scripts/build-server.mjs), in a folder of this run's own:
// inside node_modules/.cache, so the bundle's imports of packages resolve as they do from dist-server/.
process.env.E2E_SERVER_DIR ??= join(
  fileURLToPath(new URL('.', import.meta.url)),
  'node_modules',
  '.cache',
  'site-admin-e2e',
  `${process.pid}-${Date.now()}`,
);
// The multi-site server's own sandbox database, beside the first one's.
process.env.E2E_SITES_DATA_DIR ??= join(process.env.E2E_DATA_DIR, 'sites');
// The single sign-on server's own databases.
const SSO_DATA_DIR = join(process.env.E2E_DATA_DIR, 'single-sign-on');
const executablePath = findChromium();

const SCREENSHOTS = /screenshots\.spec\.ts$/;
const SITES = /(^|\/)sites\.spec\.ts$/;
const SINGLE_SIGN_ON = /(^|\/)single-sign-on\.spec\.ts$/;

/** A 390 × 844 phone held upright (an iPhone 12 to 15's CSS size), in Chromium. */
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

export const E2E = {
  baseURL: `http://127.0.0.1:${PORT}`,
  sandboxOrigin: `http://127.0.0.1:${SANDBOX_PORT}`,
  /** The server of the example profile's two sandbox sites (harbour-linen, summit-outfitters). */
  sitesURL: `http://127.0.0.1:${SITES_PORT}`,
  /** Its sandbox, for the /__sandbox helpers (x-site-id 1001 or 1002). */
  sitesSandboxOrigin: `http://127.0.0.1:${SITES_SANDBOX_PORT}`,
  sitesProfile: SITE_PROFILE,
  /** The server with single sign-on (SSO_*), and an owner (ADMIN_USER) so that signing in is required. */
  ssoURL: `http://127.0.0.1:${SSO_PORT}`,
  /** Where the single sign-on's spec starts its OpenID provider (the server's SSO_ISSUER). */
  ssoProviderPort: SSO_PROVIDER_PORT,
  ssoOwner: 'owner@example.com',
};

/** Settings a developer's shell may hold that would change what a test server works on. */
const NO_SITE_SETTINGS = {
  SITE_PROFILE: '',
  SITE_API_BASE_URL: '',
  SITE_API_KEY: '',
  SITE_ID: '',
  SANDBOX_SITE_ID: '',
  SANDBOX_API_KEY: '',
};

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: E2E.baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: executablePath && existsSync(executablePath) ? executablePath : undefined,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // The one-site server of `npm start`.
    { name: 'chromium', testIgnore: [SITES, SCREENSHOTS, SINGLE_SIGN_ON], use: { ...devices['Desktop Chrome'] } },
    // The server of several sites (SITE_PROFILE=server/site-profile.example.json).
    { name: 'sites', testMatch: SITES, use: { ...devices['Desktop Chrome'], baseURL: E2E.sitesURL } },
    // The server with single sign-on (SSO_*) and a person, so signing in is required.
    { name: 'single-sign-on', testMatch: SINGLE_SIGN_ON, use: { ...devices['Desktop Chrome'], baseURL: E2E.ssoURL } },
    // The case viewer's flows and its axe scans again on a phone's screen, with touch (so no hover).
    { name: 'phone', use: { ...devices['Desktop Chrome'], ...PHONE }, testMatch: /(cases|navigation)\.spec\.ts$/ },
    // Every screen at 1440×900 and 390×844, light and dark, saved as PNGs among the test artefacts.
    { name: 'screenshots', use: { ...devices['Desktop Chrome'] }, testMatch: SCREENSHOTS },
  ],
  webServer: [
    {
      command: `npx vite build --logLevel warn --outDir "${process.env.E2E_DIST_DIR}" --emptyOutDir && node scripts/build-server.mjs "${process.env.E2E_SERVER_DIR}" && node "${process.env.E2E_SERVER_DIR}/main.js"`,
      url: `${E2E.baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...NO_SITE_SETTINGS,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        SANDBOX_PORT: String(SANDBOX_PORT),
        SANDBOX_DATA_DIR: process.env.E2E_DATA_DIR,
        DIST_DIR: process.env.E2E_DIST_DIR,
        LOG_REQUESTS: 'false',
      },
    },
    {
      // Serves the first server's build (the app's and the server's): it starts once that server answers, so
      // the build (which empties its folder first) is never running under it, and it is built once per run.
      command: `node scripts/wait-for-url.mjs "${E2E.baseURL}/api/health" 180000 && node "${process.env.E2E_SERVER_DIR}/main.js"`,
      url: `${E2E.sitesURL}/api/health`,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...NO_SITE_SETTINGS,
        SITE_PROFILE,
        PORT: String(SITES_PORT),
        HOST: '127.0.0.1',
        SANDBOX_PORT: String(SITES_SANDBOX_PORT),
        SANDBOX_DATA_DIR: process.env.E2E_SITES_DATA_DIR,
        DIST_DIR: process.env.E2E_DIST_DIR,
        LOG_REQUESTS: 'false',
      },
    },
    {
      // Single sign-on: its provider is started by the spec, and discovered at the first sign-in.
      command: `node scripts/wait-for-url.mjs "${E2E.baseURL}/api/health" 180000 && node "${process.env.E2E_SERVER_DIR}/main.js"`,
      url: `${E2E.ssoURL}/api/health`,
      reuseExistingServer: false,
      timeout: 240_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        ...NO_SITE_SETTINGS,
        PORT: String(SSO_PORT),
        HOST: '127.0.0.1',
        SANDBOX_PORT: String(SSO_SANDBOX_PORT),
        DATA_DIR: SSO_DATA_DIR,
        SANDBOX_DATA_DIR: SSO_DATA_DIR,
        DIST_DIR: process.env.E2E_DIST_DIR,
        LOG_REQUESTS: 'false',
        ADMIN_USER: E2E.ssoOwner,
        ADMIN_PASSWORD: 'a passphrase for the end-to-end tests',
        SSO_ISSUER: `http://127.0.0.1:${SSO_PROVIDER_PORT}`,
        SSO_CLIENT_ID: TEST_CLIENT.clientId,
        SSO_CLIENT_SECRET: TEST_CLIENT.clientSecret,
        SSO_REDIRECT_URL: `${E2E.ssoURL}${SSO_CALLBACK_PATH}`,
        SSO_NAME: 'Example ID',
      },
    },
  ],
});
