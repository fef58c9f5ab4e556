/**
 * Server-side settings, read once from the environment. The API key lives only here and in the proxy.
 */
import { resolve } from 'node:path';
import { isLoopbackHost, LOOPBACK_HOSTS } from './security';

export const SANDBOX_DEFAULTS = {
  apiKey: 'sandbox-local-key',
  siteId: '1001',
  dataDir: 'data',
  port: 4010,
} as const;

export interface ServerConfig {
  host: string;
  port: number;
  /** The platform's base address, ending in /api/site/v2; undefined means the in-process sandbox. */
  upstreamBaseUrl: URL | undefined;
  apiKey: string;
  siteId: string;
  sandbox: { dataDir: string; port: number };
  proxyTimeoutMs: number;
  maxBodyBytes: number;
  logRequests: boolean;
  /** Host names the server answers to (DNS-rebinding guard); 'any' when none are configured off loopback. */
  allowedHosts: readonly string[] | 'any';
  /** HTTP Basic login; required when listening on anything but loopback. */
  login: { user: string; password: string } | undefined;
  /** Redis shared by several instances for the login's failure counts; undefined keeps them in memory. */
  redisUrl: URL | undefined;
}

export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
  }
  return value;
}

/** Why a login password is too easy to guess, or undefined when it is not; checked at start. */
export function passwordWeakness(user: string, password: string): string | undefined {
  if (password === '') return undefined;
  if (password.trim() === '') return 'is only whitespace';
  if (/^(.)\1*$/su.test(password)) return 'is one character repeated';
  if (password.trim().toLowerCase() === user.toLowerCase()) return 'is the user name';
  if ([...password].length < 12) return 'must be at least 12 characters long';
  return undefined;
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const base = env.SITE_API_BASE_URL?.trim() || undefined;
  let upstreamBaseUrl: URL | undefined;
  let apiKey: string = env.SANDBOX_API_KEY || SANDBOX_DEFAULTS.apiKey;
  let siteId: string = env.SANDBOX_SITE_ID || SANDBOX_DEFAULTS.siteId;
  if (base) {
    try {
      upstreamBaseUrl = new URL(base);
    } catch {
      throw new ConfigError(`SITE_API_BASE_URL is not a URL: "${base}".`);
    }
    if (upstreamBaseUrl.protocol !== 'https:' && upstreamBaseUrl.protocol !== 'http:') {
      throw new ConfigError('SITE_API_BASE_URL must start with https:// (or http:// for a local platform).');
    }
    const missing = ['SITE_API_KEY', 'SITE_ID'].filter((name) => !env[name]?.trim());
    if (missing.length > 0) {
      throw new ConfigError(
        `SITE_API_BASE_URL is set, so ${missing.join(' and ')} must be set too (the platform's credentials).`,
      );
    }
    apiKey = env.SITE_API_KEY?.trim() ?? '';
    siteId = env.SITE_ID?.trim() ?? '';
    if (!/^\d+$/.test(siteId)) throw new ConfigError(`SITE_ID must be the numeric site identifier, not "${siteId}".`);
  }
  const host = env.HOST?.trim() || '127.0.0.1';
  const user = env.ADMIN_USER?.trim() ?? '';
  const password = env.ADMIN_PASSWORD ?? '';
  if ((user === '') !== (password === '')) {
    throw new ConfigError(`${user ? 'ADMIN_PASSWORD' : 'ADMIN_USER'} must be set too: the login needs both a user and a password.`);
  }
  if (user.includes(':')) {
    throw new ConfigError('ADMIN_USER must not contain ":" (HTTP Basic login cannot carry one in a user name).');
  }
  const weakness = passwordWeakness(user, password);
  if (weakness) throw new ConfigError(`ADMIN_PASSWORD ${weakness}: choose a passphrase of several words.`);
  const login = user ? { user, password } : undefined;
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
  if (!login && !isLoopbackHost(host)) {
    throw new ConfigError(
      `HOST is ${host}, which other machines can reach, and no login is set: set ADMIN_USER and ADMIN_PASSWORD, ` +
        'or keep HOST on loopback (127.0.0.1) behind your own single sign-on proxy.',
    );
  }
  const listed = (env.ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const allowedHosts: readonly string[] | 'any' =
    listed.length > 0 ? listed : isLoopbackHost(host) ? LOOPBACK_HOSTS : 'any';
  return {
    host,
    login,
    redisUrl,
    allowedHosts,
    port: integerSetting(env, 'PORT', 4173, 0, 65535),
    upstreamBaseUrl,
    apiKey,
    siteId,
    sandbox: {
      dataDir: resolve(env.SANDBOX_DATA_DIR?.trim() || SANDBOX_DEFAULTS.dataDir),
      port: integerSetting(env, 'SANDBOX_PORT', 0, 0, 65535),
    },
    proxyTimeoutMs: integerSetting(env, 'PROXY_TIMEOUT_MS', 15000, 100, 600000),
    maxBodyBytes: integerSetting(env, 'MAX_BODY_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    logRequests: env.LOG_REQUESTS !== 'false',
  };
}
