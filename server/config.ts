/**
 * Server-side settings, read once from the environment (and the site profile it names). The API keys
 * live only here and in the proxy.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ALL_SITES, isRole, type Grant } from '../src/contract/access';
import { isJsonObject } from '../src/contract/site-api-basics';
import { SSO_CALLBACK_PATH } from '../src/contract/single-sign-on';
import { checkSiteProfile, type SiteConfig, type SiteProfile } from '../src/contract/site-profile';
import { checkNewPassword } from './auth/password-policy';
import { isLoopbackHost, LOOPBACK_HOSTS } from './hosts';

export const SANDBOX_DEFAULTS = {
  apiKey: 'sandbox-local-key',
  siteId: '1001',
  dataDir: 'data',
  port: 4010,
} as const;

/**
 * Every environment variable the server reads, with its default (undefined: none, or one that depends on
 * other settings, as docs/configuration.md says). server/docs.test.ts holds that page's table to this list
 * and this list to the variables read in server/.
 */
export const SETTINGS = {
  SITE_PROFILE: undefined,
  SITE_API_BASE_URL: undefined,
  SITE_API_KEY: undefined,
  SITE_ID: undefined,
  HOST: '127.0.0.1',
  PORT: 4173,
  /** With ADMIN_PASSWORD: an owner of every site, created or updated at start (the login of earlier versions). */
  ADMIN_USER: undefined,
  ADMIN_PASSWORD: undefined,
  /** A session ends after this long without use. */
  SESSION_IDLE_MINUTES: 120,
  /** A session ends this long after sign-in, used or not. */
  SESSION_MAX_HOURS: 12,
  /** Session cookies `Secure` with the `__Host-` prefix; on by default off loopback (served over HTTPS). */
  SECURE_COOKIES: undefined,
  /** Entries of the activity record older than this many days are pruned. */
  ACTIVITY_RETENTION_DAYS: 400,
  /** Notes on cases (the team's own, which may hold personal data) older than this many days are pruned. */
  CASE_NOTES_RETENTION_DAYS: 400,
  /** A change asked for approval (a site's four-eyes rule) that is not sent within this many days expires. */
  APPROVAL_EXPIRY_DAYS: 7,
  /** The shared reading of each form's newest cases (the navigation's counts) runs at most once this often, for the whole team. */
  INBOX_POLL_SECONDS: 30,
  /** The stakeholder demo: three demo people whose passwords the sign-in page shows; refused with a live site. */
  DEMO_PEOPLE: false,
  /** Single sign-on with OpenID Connect: the identity provider's issuer URL; unset, no single sign-on. */
  SSO_ISSUER: undefined,
  SSO_CLIENT_ID: undefined,
  /** Unset: a public client (PKCE alone, no client authentication). */
  SSO_CLIENT_SECRET: undefined,
  /** The callback address registered at the provider: https://<this server>/api/sign-in/sso/callback. */
  SSO_REDIRECT_URL: undefined,
  /** The provider's name on the sign-in button ("Sign in with …"). */
  SSO_NAME: 'single sign-on',
  SSO_SCOPES: 'openid email profile',
  /** The claim (of the ID token or userinfo) holding the person's groups, for SSO_GROUP_GRANTS. */
  SSO_GROUPS_CLAIM: 'groups',
  /** JSON: group → grants; when set, a person's grants are replaced by their groups' at each single sign-on. */
  SSO_GROUP_GRANTS: undefined,
  REDIS_URL: undefined,
  ALLOWED_HOSTS: undefined,
  PROXY_TIMEOUT_MS: 15000,
  MAX_BODY_BYTES: 1024 * 1024,
  LOG_REQUESTS: true,
  /** site-admin's own data (site-admin.sqlite); SANDBOX_DATA_DIR when only that is set. */
  DATA_DIR: SANDBOX_DEFAULTS.dataDir,
  /** PostgreSQL for site-admin's own data instead of DATA_DIR/site-admin.sqlite. */
  DATABASE_URL: undefined,
  /** DATA_DIR when only that is set. */
  SANDBOX_DATA_DIR: SANDBOX_DEFAULTS.dataDir,
  SANDBOX_API_KEY: SANDBOX_DEFAULTS.apiKey,
  SANDBOX_SITE_ID: SANDBOX_DEFAULTS.siteId,
  /** In `npm start`; `npm run sandbox` listens on SANDBOX_DEFAULTS.port instead. */
  SANDBOX_PORT: 0,
  DIST_DIR: 'dist',
} as const satisfies Record<string, string | number | boolean | undefined>;

export type SettingName = keyof typeof SETTINGS;

/** The id of the one site built from SITE_API_BASE_URL (or the sandbox settings) when there is no profile. */
export const SINGLE_SITE_ID = 'main';

/**
 * One site the server works on. `profile` is what the browser may know of it (`siteInfoOf`); where its
 * calls go and the key they carry stay on the server.
 */
export interface ConfiguredSite {
  /** The site's entry of the profile, or the one built from today's settings; holds no key. */
  profile: SiteConfig;
  /** The platform's base address (ending in /api/site/v2), or the built-in sandbox. */
  upstream: URL | 'sandbox';
  /** Sent as x-api-key: the value of the profile's apiKeyEnv, SITE_API_KEY, or the sandbox key. */
  apiKey: string;
  /** Sent as x-site-id. */
  siteId: string;
}

export interface ServerConfig {
  host: string;
  port: number;
  /** Every site, in the order of the profile; exactly one without a profile. */
  sites: readonly ConfiguredSite[];
  /** The absolute path of SITE_PROFILE, or undefined when the one site comes from today's settings. */
  siteProfile: string | undefined;
  /** The SHA-256 (hex) of SITE_PROFILE's file as it was read, for the activity record's `profile.loaded`. */
  siteProfileSha256?: string;
  sandbox: {
    dataDir: string;
    port: number;
    /** The key the sandbox accepts (SANDBOX_API_KEY); every sandbox site's proxy sends it. */
    apiKey: string;
    /** SANDBOX_SITE_ID: the site of the sandbox without a profile, and the first of `npm run sandbox`. */
    siteId: string;
  };
  proxyTimeoutMs: number;
  maxBodyBytes: number;
  logRequests: boolean;
  /** Host names the server answers to (DNS-rebinding guard); 'any' when none are configured off loopback. */
  allowedHosts: readonly string[] | 'any';
  /** ADMIN_USER and ADMIN_PASSWORD: an owner of every site, created or updated at start. */
  adminOwner: { email: string; password: string } | undefined;
  sessions: {
    /** A session ends after this long without use (SESSION_IDLE_MINUTES). */
    idleMs: number;
    /** A session ends this long after sign-in (SESSION_MAX_HOURS). */
    absoluteMs: number;
    /** Session cookies `Secure` and `__Host-` prefixed (SECURE_COOKIES). */
    secureCookies: boolean;
  };
  /** DEMO_PEOPLE: the stakeholder demo's three people, with their passwords on the sign-in page. */
  demoPeople: boolean;
  /** ACTIVITY_RETENTION_DAYS: the activity record keeps entries this long. */
  activityRetentionDays: number;
  /** CASE_NOTES_RETENTION_DAYS: notes on cases are kept this long after they were first written. */
  caseNotesRetentionDays: number;
  /** APPROVAL_EXPIRY_DAYS: a change waiting for approval expires this long after it was asked for (or last edited). */
  approvalExpiryDays: number;
  /** INBOX_POLL_SECONDS, in ms: each form's newest cases are read at most once this often, for the whole team. */
  inboxPollMs: number;
  /** Single sign-on with OpenID Connect (the SSO_* settings); undefined when SSO_ISSUER is not set. */
  singleSignOn: SingleSignOnSetting | undefined;
  /** Redis shared by several instances for the login's failure counts; undefined keeps them in memory. */
  redisUrl: URL | undefined;
  /** Where site-admin keeps its own data (people, sessions): never the sandbox's database. */
  database: DatabaseSetting;
}

/**
 * site-admin's own database: a SQLite file by default, PostgreSQL (DATABASE_URL) when several instances
 * share people and sessions. The URL may hold a password: show it with `describeDatabase`, never as it is.
 */
export type DatabaseSetting = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: URL };

/** The file name of site-admin's own SQLite database in DATA_DIR (the sandbox's is sandbox.sqlite). */
export const DATABASE_FILE = 'site-admin.sqlite';

/** Where the database is, for messages and logs: the file, or PostgreSQL's host, port and database, no credentials. */
export function describeDatabase(setting: DatabaseSetting): string {
  if (setting.engine === 'sqlite') return setting.file;
  const name = decodeURIComponent(setting.url.pathname.slice(1));
  return `PostgreSQL at ${setting.url.hostname || 'localhost'}:${setting.url.port || '5432'}${name ? `/${name}` : ''}`;
}

/** DATABASE_URL, checked; its text is never repeated in a message, as it may hold a password. */
function databaseSetting(env: Env, dataDir: string): DatabaseSetting {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return { engine: 'sqlite', file: join(dataDir, DATABASE_FILE) };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL; write it as postgres://user:password@host:5432/database.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// (PostgreSQL), not ${url.protocol}//; leave it unset for DATA_DIR/${DATABASE_FILE}.`,
    );
  }
  return { engine: 'postgres', url };
}

/**
 * Where site-admin keeps its own data, from DATABASE_URL, DATA_DIR and SANDBOX_DATA_DIR alone: what an
 * operator's command (`npm run people`) needs, without the sites' keys that loadConfig checks.
 */
export function databaseOf(env: Env = process.env): DatabaseSetting {
  return databaseSetting(env, dataDirOf(env));
}

/**
 * One data folder unless told otherwise: each of the two settings falls back on the other, so a
 * deployment that set only SANDBOX_DATA_DIR (before DATA_DIR existed) keeps everything where it was.
 */
function dataDirOf(env: Env): string {
  return resolve(env.DATA_DIR?.trim() || env.SANDBOX_DATA_DIR?.trim() || SETTINGS.DATA_DIR);
}

export class ConfigError extends Error {}

export interface SingleSignOnSetting {
  issuer: URL;
  clientId: string;
  /** Undefined: a public client, PKCE alone. */
  clientSecret: string | undefined;
  redirectUrl: URL;
  /** On the sign-in button. */
  name: string;
  scopes: string;
  groupsClaim: string;
  /** Group → grants; when set, an SSO sign-in replaces the person's grants with their groups'. */
  groupGrants: ReadonlyMap<string, readonly Grant[]> | undefined;
}

/** An https:// address (http:// on a loopback host, for a provider or server on this machine), checked. */
function webAddress(env: Env, name: SettingName): URL {
  const raw = env[name]?.trim() ?? '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL: "${raw}".`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigError(`${name} must start with https:// (http:// only on this machine, e.g. http://127.0.0.1), not "${raw}".`);
  }
  return url;
}

/** SSO_GROUP_GRANTS: a JSON object of group name → [{siteId, role}], each site one of `siteIds` or "*". */
function groupGrantsSetting(raw: string, siteIds: ReadonlySet<string>): Map<string, Grant[]> {
  const example = 'e.g. {"support-team":[{"siteId":"*","role":"support"}]}';
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ConfigError(`SSO_GROUP_GRANTS is not JSON; write it as an object of group names to grants, ${example}.`);
  }
  if (!isJsonObject(json)) throw new ConfigError(`SSO_GROUP_GRANTS must be an object of group names to grants, ${example}.`);
  const problems: string[] = [];
  const map = new Map<string, Grant[]>();
  for (const [group, grants] of Object.entries(json)) {
    if (!Array.isArray(grants)) {
      problems.push(`"${group}" must be a list of grants`);
      continue;
    }
    const valid: Grant[] = [];
    for (const [index, grant] of (grants as unknown[]).entries()) {
      const where = `"${group}"[${index}]`;
      if (!isJsonObject(grant) || typeof grant.siteId !== 'string' || !isRole(grant.role)) {
        problems.push(`${where} must be {"siteId": a site id or "*", "role": "owner", "editor" or "support"}`);
      } else if (grant.siteId !== ALL_SITES && !siteIds.has(grant.siteId)) {
        problems.push(`${where} names site "${grant.siteId}", which is not one of this server's sites (${[...siteIds].join(', ')}) or "*"`);
      } else {
        valid.push({ siteId: grant.siteId, role: grant.role });
      }
    }
    map.set(group, valid);
  }
  if (problems.length > 0) throw new ConfigError(`SSO_GROUP_GRANTS cannot be used:${problems.map((p) => `\n  - ${p}`).join('')}`);
  return map;
}

/** The SSO_* settings, checked; undefined when SSO_ISSUER is not set (and then no other may be). */
function singleSignOnSetting(env: Env, siteIds: ReadonlySet<string>): SingleSignOnSetting | undefined {
  const names = [
    'SSO_ISSUER',
    'SSO_CLIENT_ID',
    'SSO_CLIENT_SECRET',
    'SSO_REDIRECT_URL',
    'SSO_NAME',
    'SSO_SCOPES',
    'SSO_GROUPS_CLAIM',
    'SSO_GROUP_GRANTS',
  ] as const;
  const given = names.filter((name) => env[name]?.trim());
  if (!env.SSO_ISSUER?.trim()) {
    if (given.length > 0) {
      throw new ConfigError(
        `${given.join(' and ')} ${given.length === 1 ? 'is' : 'are'} set, but SSO_ISSUER is not: single sign-on needs the identity provider's issuer URL.`,
      );
    }
    return undefined;
  }
  const issuer = webAddress(env, 'SSO_ISSUER');
  const clientId = env.SSO_CLIENT_ID?.trim() ?? '';
  if (!clientId)
    throw new ConfigError('SSO_ISSUER is set, so SSO_CLIENT_ID must be set too: the client id this server has at the identity provider.');
  if (!env.SSO_REDIRECT_URL?.trim()) {
    throw new ConfigError(
      `SSO_ISSUER is set, so SSO_REDIRECT_URL must be set too: this server's callback address as registered at the identity provider, https://<this server>${SSO_CALLBACK_PATH}.`,
    );
  }
  const redirectUrl = webAddress(env, 'SSO_REDIRECT_URL');
  if (redirectUrl.pathname !== SSO_CALLBACK_PATH || redirectUrl.search || redirectUrl.hash) {
    throw new ConfigError(
      `SSO_REDIRECT_URL must be this server's address followed by ${SSO_CALLBACK_PATH}, nothing else, not "${redirectUrl.href}".`,
    );
  }
  const scopes = (env.SSO_SCOPES?.trim() || SETTINGS.SSO_SCOPES).split(/\s+/);
  if (!scopes.includes('openid')) throw new ConfigError(`SSO_SCOPES must include openid (OpenID Connect), not "${scopes.join(' ')}".`);
  const grants = env.SSO_GROUP_GRANTS?.trim();
  return {
    issuer,
    clientId,
    clientSecret: env.SSO_CLIENT_SECRET?.trim() || undefined,
    redirectUrl,
    name: env.SSO_NAME?.trim() || SETTINGS.SSO_NAME,
    scopes: scopes.join(' '),
    groupsClaim: env.SSO_GROUPS_CLAIM?.trim() || SETTINGS.SSO_GROUPS_CLAIM,
    groupGrants: grants ? groupGrantsSetting(grants, siteIds) : undefined,
  };
}

type Env = Readonly<Record<string, string | undefined>>;

function integerSetting(env: Env, name: SettingName, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return value;
}

/** A yes/no setting: true/false, 1/0, yes/no; its default when not set. */
function booleanSetting(env: Env, name: SettingName, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, not "${env[name] ?? ''}".`);
}

/**
 * Settings of site-admin itself: a profile naming one of them as a site's key variable is a mistake.
 * SITE_API_KEY is the exception: a profile may name it as the key variable of one live site.
 */
const OWN_SETTINGS: ReadonlySet<string> = new Set(Object.keys(SETTINGS).filter((name) => name !== 'SITE_API_KEY'));

/** At most this many of a profile's problems are listed in the message. */
const MAX_LISTED_PROBLEMS = 20;

/** Sandbox site ids, as the sandbox accepts them in x-site-id. */
const SANDBOX_SITE_ID = /^[1-9]\d{0,17}$/;

/** A key must fit in an HTTP header as it is: printable ASCII. */
function keyProblem(value: string): string | undefined {
  return /^[\x20-\x7e]+$/.test(value) ? undefined : 'holds characters that cannot be sent in an HTTP header (use printable ASCII)';
}

/** Reads and checks the site profile at `file`; a ConfigError names the file, each JSON path and what is wrong. */
export function readSiteProfile(file: string): SiteProfile {
  return readSiteProfileFile(file).profile;
}

/** readSiteProfile, with the SHA-256 (hex) of the file's bytes as they were read. */
function readSiteProfileFile(file: string): { profile: SiteProfile; sha256: string } {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new ConfigError(`SITE_PROFILE names the site profile ${path}, which cannot be read: ${why}.`);
  }
  const check = checkSiteProfile(text);
  if (check.ok) return { profile: check.profile, sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
  const listed = check.problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `\n  - ${p.path}: ${p.message}`);
  const more = check.problems.length > MAX_LISTED_PROBLEMS ? `\n  … and ${check.problems.length - MAX_LISTED_PROBLEMS} more` : '';
  const count = check.problems.length === 1 ? 'a problem' : `${check.problems.length} problems`;
  throw new ConfigError(`The site profile ${path} (SITE_PROFILE) has ${count}:${listed.join('')}${more}`);
}

/** The sites of a profile, each with the key of its variable (live platforms) or the sandbox key. */
function sitesOfProfile(env: Env, file: string, sandboxKey: string): { sites: ConfiguredSite[]; sha256: string } {
  const path = resolve(file);
  const { profile, sha256 } = readSiteProfileFile(path);
  const problems: string[] = [];
  const sandboxSites = new Map<string, string>();
  const keyVariables = new Set<string>();
  const sites = profile.sites.map((site, index): ConfiguredSite => {
    const where = site.platform;
    if ('sandbox' in where) {
      const first = sandboxSites.get(where.siteId);
      if (first !== undefined) {
        problems.push(
          `sites[${index}].platform.siteId: the sandbox already stands in for site ${where.siteId} as "${first}"; give each sandbox site its own site id`,
        );
      } else if (!SANDBOX_SITE_ID.test(where.siteId)) {
        problems.push(`sites[${index}].platform.siteId: the sandbox needs a site id from 1 to 18 digits, not starting with 0`);
      }
      sandboxSites.set(where.siteId, site.id);
      return { profile: site, upstream: 'sandbox', apiKey: sandboxKey, siteId: where.siteId };
    }
    const variable = where.apiKeyEnv;
    keyVariables.add(variable);
    const key = env[variable]?.trim() ?? '';
    if (OWN_SETTINGS.has(variable)) {
      problems.push(
        `sites[${index}].platform.apiKeyEnv: ${variable} is one of site-admin's own settings, not a variable for site "${site.id}"'s API key`,
      );
    } else if (key === '') {
      problems.push(`site "${site.id}" takes its API key from the environment variable ${variable}, which is not set`);
    } else {
      const wrong = keyProblem(key);
      if (wrong) problems.push(`site "${site.id}": the environment variable ${variable} ${wrong}`);
    }
    return { profile: site, upstream: new URL(where.baseUrl), apiKey: key, siteId: where.siteId };
  });
  // With a profile every site comes from it: a site given by the old settings as well is ambiguous.
  const conflicting = ['SITE_API_BASE_URL', 'SITE_ID', 'SITE_API_KEY'].filter(
    (name) => env[name]?.trim() && !(name === 'SITE_API_KEY' && keyVariables.has(name)),
  );
  if (conflicting.length > 0) {
    throw new ConfigError(
      `SITE_PROFILE and ${conflicting.join(' and ')} are both set. With a site profile every site, its address, ` +
        `key variable and site id, comes from the profile (${path}), so which of the two should win is ambiguous: ` +
        `unset ${conflicting.join(' and ')}, or SITE_PROFILE.`,
    );
  }
  if (problems.length > 0) {
    throw new ConfigError(`The site profile ${path} (SITE_PROFILE) cannot be used:${problems.map((p) => `\n  - ${p}`).join('')}`);
  }
  return { sites, sha256 };
}

/** The one site of today's settings: the platform of SITE_API_BASE_URL, else the sandbox. */
function siteOfSettings(env: Env, sandbox: { apiKey: string; siteId: string }): ConfiguredSite {
  const base = env.SITE_API_BASE_URL?.trim() || undefined;
  if (!base) {
    return {
      profile: { id: SINGLE_SITE_ID, name: 'Sandbox', platform: { sandbox: true, siteId: sandbox.siteId } },
      upstream: 'sandbox',
      apiKey: sandbox.apiKey,
      siteId: sandbox.siteId,
    };
  }
  let upstream: URL;
  try {
    upstream = new URL(base);
  } catch {
    throw new ConfigError(`SITE_API_BASE_URL is not a URL: "${base}".`);
  }
  if (upstream.protocol !== 'https:' && upstream.protocol !== 'http:') {
    throw new ConfigError('SITE_API_BASE_URL must start with https:// (or http:// for a local platform).');
  }
  const missing = ['SITE_API_KEY', 'SITE_ID'].filter((name) => !env[name]?.trim());
  if (missing.length > 0) {
    throw new ConfigError(`SITE_API_BASE_URL is set, so ${missing.join(' and ')} must be set too (the platform's credentials).`);
  }
  const apiKey = env.SITE_API_KEY?.trim() ?? '';
  const siteId = env.SITE_ID?.trim() ?? '';
  if (!/^\d+$/.test(siteId)) throw new ConfigError(`SITE_ID must be the numeric site identifier, not "${siteId}".`);
  const wrong = keyProblem(apiKey);
  if (wrong) throw new ConfigError(`SITE_API_KEY ${wrong}.`);
  return {
    // The browser sees this profile: it names the variable of the key, never the key.
    profile: { id: SINGLE_SITE_ID, name: upstream.host, platform: { baseUrl: upstream.href, siteId, apiKeyEnv: 'SITE_API_KEY' } },
    upstream,
    apiKey,
    siteId,
  };
}

/** SANDBOX_API_KEY and SANDBOX_SITE_ID, checked. */
function sandboxCredentials(env: Env): { apiKey: string; siteId: string } {
  const apiKey = env.SANDBOX_API_KEY?.trim() || SETTINGS.SANDBOX_API_KEY;
  const siteId = env.SANDBOX_SITE_ID?.trim() || SETTINGS.SANDBOX_SITE_ID;
  if (!SANDBOX_SITE_ID.test(siteId)) {
    throw new ConfigError(`SANDBOX_SITE_ID must be a numeric site identifier (1 to 18 digits, not starting with 0), not "${siteId}".`);
  }
  const wrong = keyProblem(apiKey);
  if (wrong) throw new ConfigError(`SANDBOX_API_KEY ${wrong}.`);
  return { apiKey, siteId };
}

/**
 * The sites `npm run sandbox` serves: SANDBOX_SITE_ID, then the sandbox sites of SITE_PROFILE when one is
 * set (its live sites are not the sandbox's business, so their keys are not needed here).
 */
export function standaloneSandboxSiteIds(env: Env = process.env): string[] {
  const { siteId } = sandboxCredentials(env);
  const file = env.SITE_PROFILE?.trim();
  const fromProfile = file ? readSiteProfile(file).sites.flatMap((site) => ('sandbox' in site.platform ? [site.platform.siteId] : [])) : [];
  return [...new Set([siteId, ...fromProfile])];
}

/** The name ADMIN_USER's owner is given when created: the part of the address before the @. */
export const adminDisplayName = (email: string) => email.split('@')[0] ?? email;

export function loadConfig(env: Env = process.env): ServerConfig {
  const sandboxSettings = sandboxCredentials(env);
  const siteProfile = env.SITE_PROFILE?.trim() ? resolve(env.SITE_PROFILE.trim()) : undefined;
  const fromProfile = siteProfile ? sitesOfProfile(env, siteProfile, sandboxSettings.apiKey) : undefined;
  const sites = fromProfile ? fromProfile.sites : [siteOfSettings(env, sandboxSettings)];
  const host = env.HOST?.trim() || SETTINGS.HOST;
  const user = env.ADMIN_USER?.trim() ?? '';
  const password = env.ADMIN_PASSWORD ?? '';
  if ((user === '') !== (password === '')) {
    throw new ConfigError(`${user ? 'ADMIN_PASSWORD' : 'ADMIN_USER'} must be set too: the login needs both a user and a password.`);
  }
  // The one rule of every password (server/auth/password-policy.ts), for the owner this login becomes: named
  // as prepareAccounts names them, and with no second factor required, since the password may be all they use.
  const problems = user ? checkNewPassword(password, { name: adminDisplayName(user), email: user, secondFactorRequired: false }) : [];
  if (problems.length > 0) {
    throw new ConfigError(
      `ADMIN_PASSWORD is refused by the password rule of every account: ${problems.map((problem) => problem.message).join(' ')}`,
    );
  }
  const adminOwner = user ? { email: user, password } : undefined;
  const redis = env.REDIS_URL?.trim() || undefined;
  let redisUrl: URL | undefined;
  if (redis) {
    try {
      redisUrl = new URL(redis);
    } catch {
      throw new ConfigError('REDIS_URL is not a URL; write it as redis://host:6379 (or rediss:// for TLS).');
    }
    if (redisUrl.protocol !== 'redis:' && redisUrl.protocol !== 'rediss:') {
      throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, not ${redisUrl.protocol}//.`);
    }
  }
  const demoPeople = booleanSetting(env, 'DEMO_PEOPLE', SETTINGS.DEMO_PEOPLE);
  if (demoPeople) {
    const live = sites.find((site) => site.upstream !== 'sandbox');
    if (live) {
      throw new ConfigError(
        `DEMO_PEOPLE shows the demo people's passwords on the sign-in page, and site "${live.profile.id}" is a live site: ` +
          'the demo runs on sandbox sites only.',
      );
    }
  }
  const listed = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const allowedHosts: readonly string[] | 'any' = listed.length > 0 ? listed : isLoopbackHost(host) ? LOOPBACK_HOSTS : 'any';
  const dataDir = dataDirOf(env);
  return {
    host,
    adminOwner,
    sessions: {
      idleMs: integerSetting(env, 'SESSION_IDLE_MINUTES', SETTINGS.SESSION_IDLE_MINUTES, 1, 7 * 24 * 60) * 60_000,
      absoluteMs: integerSetting(env, 'SESSION_MAX_HOURS', SETTINGS.SESSION_MAX_HOURS, 1, 30 * 24) * 3_600_000,
      secureCookies: booleanSetting(env, 'SECURE_COOKIES', !isLoopbackHost(host)),
    },
    demoPeople,
    activityRetentionDays: integerSetting(env, 'ACTIVITY_RETENTION_DAYS', SETTINGS.ACTIVITY_RETENTION_DAYS, 1, 100 * 366),
    caseNotesRetentionDays: integerSetting(env, 'CASE_NOTES_RETENTION_DAYS', SETTINGS.CASE_NOTES_RETENTION_DAYS, 1, 100 * 366),
    approvalExpiryDays: integerSetting(env, 'APPROVAL_EXPIRY_DAYS', SETTINGS.APPROVAL_EXPIRY_DAYS, 1, 90),
    inboxPollMs: integerSetting(env, 'INBOX_POLL_SECONDS', SETTINGS.INBOX_POLL_SECONDS, 5, 3600) * 1000,
    singleSignOn: singleSignOnSetting(env, new Set(sites.map((site) => site.profile.id))),
    redisUrl,
    allowedHosts,
    database: databaseSetting(env, dataDir),
    port: integerSetting(env, 'PORT', SETTINGS.PORT, 0, 65535),
    sites,
    siteProfile,
    siteProfileSha256: fromProfile?.sha256,
    sandbox: {
      dataDir: env.SANDBOX_DATA_DIR?.trim() ? resolve(env.SANDBOX_DATA_DIR.trim()) : dataDir,
      port: integerSetting(env, 'SANDBOX_PORT', SETTINGS.SANDBOX_PORT, 0, 65535),
      ...sandboxSettings,
    },
    proxyTimeoutMs: integerSetting(env, 'PROXY_TIMEOUT_MS', SETTINGS.PROXY_TIMEOUT_MS, 100, 600000),
    maxBodyBytes: integerSetting(env, 'MAX_BODY_BYTES', SETTINGS.MAX_BODY_BYTES, 1024, 64 * 1024 * 1024),
    logRequests: env.LOG_REQUESTS !== 'false',
  };
}
