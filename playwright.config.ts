import { defineConfig, devices } from '@playwright/test';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './scripts/find-chromium.mjs';
import { TEST_CLIENT } from './server/testing/sso-constants';
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
// The passkeys' server: people (an owner from ADMIN_USER), so signing in is required; its own data folder.
const PASSKEYS_PORT = Number(process.env.E2E_PASSKEYS_PORT ?? 4190);
process.env.E2E_PASSKEYS_DATA_DIR ??= join(process.env.E2E_DATA_DIR, 'passkeys');
// The server with people (an owner from ADMIN_USER): its own data and sandbox, beside the others.
const ACCOUNTS_PORT = Number(process.env.E2E_ACCOUNTS_PORT ?? 4186);
const ACCOUNTS_SANDBOX_PORT = Number(process.env.E2E_ACCOUNTS_SANDBOX_PORT ?? ACCOUNTS_PORT + 1);
process.env.E2E_ACCOUNTS_DATA_DIR ??= join(process.env.E2E_DATA_DIR, 'accounts');
// The roles' server: the example profile's two sandbox shops with the stakeholder demo's people
// (DEMO_PEOPLE), so that signing in is required, each role has someone to sign in as, and its clock can be
// moved by a test (e2e/support/moved-clock.mjs); its own data, and the file its clock is moved by.
const ROLES_PORT = Number(process.env.E2E_ROLES_PORT ?? 4191);
const ROLES_SANDBOX_PORT = Number(process.env.E2E_ROLES_SANDBOX_PORT ?? 4192);
process.env.E2E_ROLES_DATA_DIR ??= join(process.env.E2E_DATA_DIR, 'roles');
process.env.E2E_ROLES_CLOCK_FILE ??= join(process.env.E2E_DATA_DIR, 'roles-clock-offset-ms');
// The screenshots' server of the demo's people: as the roles' server, with a clock nobody moves (the roles
// project moves its own server's clock ahead, which would end a session the screenshots hold).
const SCREENS_PORT = Number(process.env.E2E_SCREENS_PORT ?? 4195);
const SCREENS_SANDBOX_PORT = Number(process.env.E2E_SCREENS_SANDBOX_PORT ?? 4196);
const SCREENS_DATA_DIR = join(process.env.E2E_DATA_DIR, 'screens');
// The screenshots' own local demo, as `npm start` runs it: the chromium project's tests change the first
// server's data (its imports among them) while the screenshots run beside them.
const SHOTS_PORT = Number(process.env.E2E_SHOTS_PORT ?? 4197);
const SHOTS_SANDBOX_PORT = Number(process.env.E2E_SHOTS_SANDBOX_PORT ?? 4198);
const SHOTS_DATA_DIR = join(process.env.E2E_DATA_DIR, 'shots');
// The same server with its data in PostgreSQL (a throwaway cluster), where PostgreSQL is installed; always in CI.
const ROLES_PG_PORT = Number(process.env.E2E_ROLES_PG_PORT ?? 4193);
const ROLES_PG_SANDBOX_PORT = Number(process.env.E2E_ROLES_PG_SANDBOX_PORT ?? 4194);
process.env.E2E_ROLES_PG_DATA_DIR ??= join(process.env.E2E_DATA_DIR, 'roles-postgres');
process.env.E2E_ROLES_PG_CLOCK_FILE ??= join(process.env.E2E_DATA_DIR, 'roles-postgres-clock-offset-ms');
process.env.E2E_ROLES_PG_URL_FILE ??= join(process.env.E2E_DATA_DIR, 'roles-postgres-url');
/** Debian's PostgreSQL server programs (what the tests' throwaway clusters need) are installed. */
const POSTGRES_INSTALLED = (() => {
  const debian = '/usr/lib/postgresql';
  return existsSync(debian) && readdirSync(debian).some((version) => existsSync(join(debian, version, 'bin', 'initdb')));
})();
const WITH_POSTGRES = POSTGRES_INSTALLED || Boolean(process.env.CI);
const executablePath = findChromium();

const SCREENSHOTS = /screenshots\.spec\.ts$/;
const SCREENSHOTS_2 = /@screenshots-2/;
const SITES = /(^|\/)sites\.spec\.ts$/;
const SINGLE_SIGN_ON = /(^|\/)single-sign-on\.spec\.ts$/;
const PASSKEYS = /(^|\/)passkeys\.spec\.ts$/;
const ACCOUNTS = /(^|\/)people\.spec\.ts$/;
// The roles' server also runs the activity record's tests that need people (an owner, an editor), the
// team's work on a case (support and a colleague), the export of cases and the navigation's count of new
// cases (two people, one shop’s reading), and four eyes on a write (an editor asks, an owner approves).
const ROLES = /(^|\/)(roles|activity-people|case-work|inbox-export|inbox-counts|approvals)\.spec\.ts$/;

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
  /**
   * The server with an owner who signs in (not the local demo), for passkeys. At localhost rather than
   * 127.0.0.1: WebAuthn takes a domain name as the passkey's site, never an IP address.
   */
  passkeysURL: `http://localhost:${PASSKEYS_PORT}`,
  /** Its database (site-admin.sqlite), and the owner ADMIN_USER makes at start. */
  passkeysDataDir: process.env.E2E_PASSKEYS_DATA_DIR,
  passkeysOwner: { email: 'owner@example.com', password: 'passkeys e2e first passphrase', name: 'owner' },
  /** The server of the example profile with people in its database: signing in is required. */
  accountsURL: `http://127.0.0.1:${ACCOUNTS_PORT}`,
  /** Its first owner (ADMIN_USER, ADMIN_PASSWORD). */
  owner: { email: 'owner@example.com', password: 'tidal harbour lantern quietly folding maps' },
  /** The screenshots' local demo of one site, and its sandbox (for the /__sandbox helpers). */
  shotsURL: `http://127.0.0.1:${SHOTS_PORT}`,
  shotsSandboxOrigin: `http://127.0.0.1:${SHOTS_SANDBOX_PORT}`,
  /** A server of the demo's owner, editor and support, for the screenshots of what a signed-in owner sees. */
  screensURL: `http://127.0.0.1:${SCREENS_PORT}`,
};

/** What e2e/roles.spec.ts needs of the roles' server its project runs against (the project's metadata). */
export interface RolesServer {
  engine: 'sqlite' | 'postgres';
  origin: string;
  sandboxOrigin: string;
  /** `npm run people` works on DATA_DIR, or on the PostgreSQL whose address this file holds. */
  dataDir: string;
  databaseUrlFile?: string;
  /** Milliseconds the server's clock runs ahead, as a number in this file. */
  clockFile: string;
}
const ROLES_SQLITE: RolesServer = {
  engine: 'sqlite',
  origin: `http://127.0.0.1:${ROLES_PORT}`,
  sandboxOrigin: `http://127.0.0.1:${ROLES_SANDBOX_PORT}`,
  dataDir: process.env.E2E_ROLES_DATA_DIR,
  clockFile: process.env.E2E_ROLES_CLOCK_FILE,
};
const ROLES_POSTGRES: RolesServer = {
  engine: 'postgres',
  origin: `http://127.0.0.1:${ROLES_PG_PORT}`,
  sandboxOrigin: `http://127.0.0.1:${ROLES_PG_SANDBOX_PORT}`,
  dataDir: process.env.E2E_ROLES_PG_DATA_DIR,
  databaseUrlFile: process.env.E2E_ROLES_PG_URL_FILE,
  clockFile: process.env.E2E_ROLES_PG_CLOCK_FILE,
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

/**
 * A server of the first server's build (the app's and the compiled server's), answering at `url` with its own
 * settings: it starts once the first server answers, so the build (which empties its folder first) is never
 * running under it, and the build is made once per run.
 */
function builtServer(url: string, env: Record<string, string | undefined>) {
  return {
    command: `node scripts/wait-for-url.mjs "${E2E.baseURL}/api/health" 180000 && node "${process.env.E2E_SERVER_DIR}/main.js"`,
    url,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: { ...NO_SITE_SETTINGS, ...env },
  };
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // Two projects at a time, each project's tests one after another (`workers: 1` on every project below): the
  // tests of one project share its server and its data (an import list emptied, a clock moved ahead), so they
  // never overlap, while another project's server is free to take a second browser. A server whose clock a
  // project moves serves that project alone. See docs/testing.md.
  workers: 2,
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
    // Every screen at 1440×900 and 390×844, light and dark, saved as PNGs among the test artefacts, as two
    // projects of about the same length (the second: the tests tagged @screenshots-2), so that the screens
    // are never the run's longest chain. The first starts at once beside chromium; the second on whichever
    // worker is free next (a worker skips a project already running its one test at a time). Only the first
    // uses the local demo's imports.
    {
      name: 'screenshots',
      use: { ...devices['Desktop Chrome'], baseURL: E2E.shotsURL },
      testMatch: SCREENSHOTS,
      grepInvert: SCREENSHOTS_2,
      workers: 1,
    },
    // The one-site server of `npm start`.
    {
      name: 'chromium',
      testIgnore: [SITES, SCREENSHOTS, SINGLE_SIGN_ON, PASSKEYS, ACCOUNTS, ROLES],
      workers: 1,
      use: { ...devices['Desktop Chrome'] },
    },
    {
      name: 'screenshots-2',
      use: { ...devices['Desktop Chrome'], baseURL: E2E.shotsURL },
      testMatch: SCREENSHOTS,
      grep: SCREENSHOTS_2,
      workers: 1,
    },
    // The server of several sites (SITE_PROFILE=server/site-profile.example.json).
    { name: 'sites', testMatch: SITES, workers: 1, use: { ...devices['Desktop Chrome'], baseURL: E2E.sitesURL } },
    // The server with single sign-on (SSO_*) and a person, so signing in is required.
    { name: 'single-sign-on', testMatch: SINGLE_SIGN_ON, workers: 1, use: { ...devices['Desktop Chrome'], baseURL: E2E.ssoURL } },
    // Passkeys with Chromium's virtual authenticator, on the server with an owner.
    { name: 'passkeys', testMatch: PASSKEYS, workers: 1, use: { ...devices['Desktop Chrome'], baseURL: E2E.passkeysURL } },
    // The server with people: an owner invites, sets roles, disables (people.spec.ts).
    { name: 'accounts', testMatch: ACCOUNTS, workers: 1, use: { ...devices['Desktop Chrome'], baseURL: E2E.accountsURL } },
    // Each role signed in through the page, and the sessions' time-outs, on the roles' server (roles.spec.ts).
    {
      name: 'roles',
      testMatch: ROLES,
      workers: 1,
      metadata: ROLES_SQLITE,
      use: { ...devices['Desktop Chrome'], baseURL: ROLES_SQLITE.origin },
    },
    // The same server with its own data in PostgreSQL: the tests tagged @postgres, where the engine is what is
    // tried end to end (a person disabled by `npm run people` from another process, on PostgreSQL). Tag only
    // a test whose outcome depends on the engine: the rest of what the roles' server does is engine-free in
    // the page, and its server half (the activity record's queries, the team's work, the export, the shared
    // readings of new cases) runs on both engines in the server tests.
    ...(WITH_POSTGRES
      ? [
          {
            name: 'roles-postgres',
            testMatch: ROLES,
            grep: /@postgres/,
            workers: 1,
            metadata: ROLES_POSTGRES,
            use: { ...devices['Desktop Chrome'], baseURL: ROLES_POSTGRES.origin },
          },
        ]
      : []),
    // The case viewer's tests whose outcome depends on a phone's screen or touch (tagged @phone), at 390 × 844.
    {
      name: 'phone',
      use: { ...devices['Desktop Chrome'], ...PHONE },
      testMatch: /cases\.spec\.ts$/,
      grep: /@phone/,
      workers: 1,
    },
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
    // Serves the first server's build (the app's and the server's): it starts once that server answers, so
    // the build (which empties its folder first) is never running under it, and it is built once per run.
    builtServer(`${E2E.sitesURL}/api/health`, {
      SITE_PROFILE,
      PORT: String(SITES_PORT),
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(SITES_SANDBOX_PORT),
      SANDBOX_DATA_DIR: process.env.E2E_SITES_DATA_DIR,
      DIST_DIR: process.env.E2E_DIST_DIR,
      LOG_REQUESTS: 'false',
    }),
    // Single sign-on: its provider is started by the spec, and discovered at the first sign-in.
    builtServer(`${E2E.ssoURL}/api/health`, {
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
    }),
    // Serves the first server's build, like the one above, with an owner from ADMIN_USER: signing in is required.
    builtServer(`http://127.0.0.1:${PASSKEYS_PORT}/api/health`, {
      PORT: String(PASSKEYS_PORT),
      HOST: '127.0.0.1',
      // Any free port: nothing but this server talks to its sandbox.
      SANDBOX_PORT: '0',
      DATA_DIR: process.env.E2E_PASSKEYS_DATA_DIR,
      DIST_DIR: process.env.E2E_DIST_DIR,
      ADMIN_USER: E2E.passkeysOwner.email,
      ADMIN_PASSWORD: E2E.passkeysOwner.password,
      LOG_REQUESTS: 'false',
    }),
    // Like the second, with an owner in its own database (so everyone signs in), from ADMIN_USER.
    builtServer(`${E2E.accountsURL}/api/health`, {
      SITE_PROFILE,
      PORT: String(ACCOUNTS_PORT),
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(ACCOUNTS_SANDBOX_PORT),
      DATA_DIR: process.env.E2E_ACCOUNTS_DATA_DIR,
      SANDBOX_DATA_DIR: process.env.E2E_ACCOUNTS_DATA_DIR,
      DIST_DIR: process.env.E2E_DIST_DIR,
      LOG_REQUESTS: 'false',
      ADMIN_USER: E2E.owner.email,
      ADMIN_PASSWORD: E2E.owner.password,
    }),
    // The roles' server: the same build, with the demo's three people and whoever a test adds with
    // `npm run people`. Its Date.now runs ahead by what the clock file says (a preload, no code in the server).
    builtServer(`${ROLES_SQLITE.origin}/api/health`, {
      SITE_PROFILE,
      DEMO_PEOPLE: 'true',
      PORT: String(ROLES_PORT),
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(ROLES_SANDBOX_PORT),
      DATA_DIR: process.env.E2E_ROLES_DATA_DIR,
      SANDBOX_DATA_DIR: process.env.E2E_ROLES_DATA_DIR,
      DATABASE_URL: '',
      DIST_DIR: process.env.E2E_DIST_DIR,
      LOG_REQUESTS: 'false',
      NODE_OPTIONS: `--import ${fileURLToPath(new URL('./e2e/support/moved-clock.mjs', import.meta.url))}`,
      MOVED_CLOCK_FILE: process.env.E2E_ROLES_CLOCK_FILE,
      // The shared reading of new cases at its shortest, so the count's test waits seconds, not half a minute.
      INBOX_POLL_SECONDS: '5',
    }),
    // The screenshots' local demo: the first server's settings, its own data.
    builtServer(`${E2E.shotsURL}/api/health`, {
      PORT: String(SHOTS_PORT),
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(SHOTS_SANDBOX_PORT),
      DATA_DIR: SHOTS_DATA_DIR,
      SANDBOX_DATA_DIR: SHOTS_DATA_DIR,
      DATABASE_URL: '',
      DIST_DIR: process.env.E2E_DIST_DIR,
      LOG_REQUESTS: 'false',
    }),
    // The screenshots' server of the demo's people: the roles' server without the moved clock.
    builtServer(`${E2E.screensURL}/api/health`, {
      SITE_PROFILE,
      DEMO_PEOPLE: 'true',
      PORT: String(SCREENS_PORT),
      HOST: '127.0.0.1',
      SANDBOX_PORT: String(SCREENS_SANDBOX_PORT),
      DATA_DIR: SCREENS_DATA_DIR,
      SANDBOX_DATA_DIR: SCREENS_DATA_DIR,
      DATABASE_URL: '',
      DIST_DIR: process.env.E2E_DIST_DIR,
      LOG_REQUESTS: 'false',
    }),
    ...(WITH_POSTGRES
      ? [
          {
            // Its own throwaway PostgreSQL cluster, stopped with it (hence the graceful shutdown).
            command: `node scripts/wait-for-url.mjs "${E2E.baseURL}/api/health" 180000 && node --import tsx e2e/support/roles-on-postgres.ts "${process.env.E2E_SERVER_DIR}/main.js"`,
            url: `${ROLES_POSTGRES.origin}/api/health`,
            reuseExistingServer: false,
            timeout: 240_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
            gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 30_000 },
            env: {
              ...NO_SITE_SETTINGS,
              SITE_PROFILE,
              DEMO_PEOPLE: 'true',
              PORT: String(ROLES_PG_PORT),
              HOST: '127.0.0.1',
              SANDBOX_PORT: String(ROLES_PG_SANDBOX_PORT),
              DATA_DIR: process.env.E2E_ROLES_PG_DATA_DIR,
              SANDBOX_DATA_DIR: process.env.E2E_ROLES_PG_DATA_DIR,
              DIST_DIR: process.env.E2E_DIST_DIR,
              LOG_REQUESTS: 'false',
              MOVED_CLOCK_FILE: process.env.E2E_ROLES_PG_CLOCK_FILE,
              INBOX_POLL_SECONDS: '5',
              ROLES_DATABASE_URL_FILE: process.env.E2E_ROLES_PG_URL_FILE,
            },
          },
        ]
      : []),
  ],
});
