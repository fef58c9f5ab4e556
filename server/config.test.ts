import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { ConfigError, describeDatabase, loadConfig } from './config';
import { isAllowedHost } from './hosts';
import { childEnv, REPO_ROOT } from './testing/test-helpers';

describe('loadConfig: who may use the server', () => {
  it('reads ADMIN_USER and ADMIN_PASSWORD as the owner to create or bring up to date at start', () => {
    const config = loadConfig({ HOST: '0.0.0.0', ADMIN_USER: 'staff@example.com', ADMIN_PASSWORD: 'a long passphrase' });
    expect(config.adminOwner).toEqual({ email: 'staff@example.com', password: 'a long passphrase' });
    expect(loadConfig({}).adminOwner).toBeUndefined();
  });
  it('needs both halves of the login', () => {
    expect(() => loadConfig({ ADMIN_USER: 'staff' })).toThrow(/ADMIN_PASSWORD must be set/);
    expect(() => loadConfig({ ADMIN_PASSWORD: 'a long passphrase' })).toThrow(/ADMIN_USER must be set/);
  });
  // The rule of every other way to set a password (server/auth/password-policy.ts), not one of its own.
  it.each([
    [
      'short (12 to 14 characters were enough before)',
      'correct lamp',
      /ADMIN_PASSWORD is refused .*Use at least 15 characters; this has 12/,
    ],
    ['14 characters', 'harbour linen!', /Use at least 15 characters; this has 14/],
    ['only whitespace', '                ', /ADMIN_PASSWORD is refused .*a repetition/],
    ['one character repeated', 'aaaaaaaaaaaaaaaa', /a repetition/],
    ['one emoji repeated', '🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑', /a repetition/],
    ['a pattern repeated', 'abcabcabcabcabc', /ADMIN_PASSWORD is refused .*a repetition, a sequence or a row of keys/],
    ['a common password', 'password1234567', /one of the most common passwords/],
    ['the user name', 'Staff-Account-01', /contains your e-mail address/],
    ['the application’s name', 'my site-admin passphrase', /contains "site-admin"/],
  ])('refuses a password that is %s, and says why', (_what, password, reason) => {
    const error = (() => {
      try {
        loadConfig({ HOST: '0.0.0.0', ADMIN_USER: 'staff-account-01', ADMIN_PASSWORD: password });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(reason);
  });
  it('npm start with ADMIN_PASSWORD=abcabcabcabcabc refuses to start, saying why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: REPO_ROOT,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', ADMIN_USER: 'staff@example.com', ADMIN_PASSWORD: 'abcabcabcabcabc' }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^site-admin cannot start: ADMIN_PASSWORD is refused by the password rule of every account: This is mostly a repetition, a sequence or a row of keys/,
      );
    } finally {
      child.kill();
    }
  });
  it('reads REDIS_URL, and refuses one that is not a redis:// address', () => {
    const login = { ADMIN_USER: 'staff', ADMIN_PASSWORD: 'a long passphrase' };
    expect(loadConfig({ ...login, REDIS_URL: 'redis://127.0.0.1:6379/0' }).redisUrl?.href).toBe('redis://127.0.0.1:6379/0');
    expect(loadConfig(login).redisUrl).toBeUndefined();
    expect(() => loadConfig({ ...login, REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL must start with redis:\/\//);
    expect(() => loadConfig({ ...login, REDIS_URL: 'not a url' })).toThrow(/REDIS_URL is not a URL/);
  });
});

describe('loadConfig: the stakeholder demo’s people', () => {
  it('takes DEMO_PEOPLE on sandbox sites, and refuses it with a live site, naming the site', () => {
    expect(loadConfig({ DEMO_PEOPLE: 'true' }).demoPeople).toBe(true);
    expect(loadConfig({}).demoPeople).toBe(false);
    expect(() =>
      loadConfig({ DEMO_PEOPLE: 'true', SITE_API_BASE_URL: 'https://shop.example/api/site/v2', SITE_API_KEY: 'k', SITE_ID: '1' }),
    ).toThrow(/DEMO_PEOPLE .* site "main" is a live site/);
  });
});

describe('loadConfig: sessions', () => {
  it('ends a session after 2 hours idle and 12 hours in all unless told otherwise', () => {
    expect(loadConfig({}).sessions).toEqual({ idleMs: 2 * 3_600_000, absoluteMs: 12 * 3_600_000, secureCookies: false });
    const set = loadConfig({ SESSION_IDLE_MINUTES: '15', SESSION_MAX_HOURS: '1' }).sessions;
    expect([set.idleMs, set.absoluteMs]).toEqual([15 * 60_000, 3_600_000]);
    expect(() => loadConfig({ SESSION_IDLE_MINUTES: '0' })).toThrow(/SESSION_IDLE_MINUTES must be a whole number/);
    expect(() => loadConfig({ SESSION_MAX_HOURS: 'a day' })).toThrow(/SESSION_MAX_HOURS must be a whole number/);
  });
  it('makes session cookies Secure off loopback (behind HTTPS) unless told otherwise, and on loopback when told', () => {
    const owner = { ADMIN_USER: 'staff@example.com', ADMIN_PASSWORD: 'a long passphrase' };
    expect(loadConfig({ ...owner, HOST: '0.0.0.0' }).sessions.secureCookies).toBe(true);
    expect(loadConfig({ ...owner, HOST: '0.0.0.0', SECURE_COOKIES: 'false' }).sessions.secureCookies).toBe(false);
    expect(loadConfig({ SECURE_COOKIES: 'true' }).sessions.secureCookies).toBe(true);
    expect(() => loadConfig({ SECURE_COOKIES: 'maybe' })).toThrow(/SECURE_COOKIES must be true or false/);
  });
});

describe('allowed hosts (DNS rebinding)', () => {
  it('answers loopback names on loopback, and nothing else', () => {
    const allowed = loadConfig({}).allowedHosts;
    for (const host of ['127.0.0.1:4173', 'localhost:4173', '[::1]:4173', 'LOCALHOST', '127.0.0.2:80']) {
      expect(isAllowedHost(host, allowed), host).toBe(true);
    }
    for (const host of ['evil.example:4173', 'evil.example', '', undefined, '127.0.0.1.evil.example']) {
      expect(isAllowedHost(host, allowed), String(host)).toBe(false);
    }
  });
  it('takes the operator’s list, and answers any host off loopback when none is listed', () => {
    const listed = loadConfig({
      HOST: '0.0.0.0',
      ADMIN_USER: 'a',
      ADMIN_PASSWORD: 'a long passphrase',
      ALLOWED_HOSTS: 'admin.example.com',
    });
    expect(isAllowedHost('admin.example.com', listed.allowedHosts)).toBe(true);
    expect(isAllowedHost('other.example.com', listed.allowedHosts)).toBe(false);
    const open = loadConfig({ HOST: '0.0.0.0', ADMIN_USER: 'a', ADMIN_PASSWORD: 'a long passphrase' });
    expect(isAllowedHost('whatever.example', open.allowedHosts)).toBe(true);
  });
});

describe('loadConfig: where site-admin keeps its own data', () => {
  it('keeps site-admin.sqlite in DATA_DIR, and the sandbox in the same folder unless told otherwise', () => {
    expect(loadConfig({ DATA_DIR: '/srv/admin' })).toMatchObject({
      database: { engine: 'sqlite', file: join('/srv/admin', 'site-admin.sqlite') },
      sandbox: { dataDir: '/srv/admin' },
    });
    // A deployment from before DATA_DIR, with SANDBOX_DATA_DIR alone, keeps one folder.
    expect(loadConfig({ SANDBOX_DATA_DIR: '/srv/sandbox' })).toMatchObject({
      database: { file: join('/srv/sandbox', 'site-admin.sqlite') },
      sandbox: { dataDir: '/srv/sandbox' },
    });
    expect(loadConfig({ DATA_DIR: 'own', SANDBOX_DATA_DIR: '/srv/sandbox' })).toMatchObject({
      database: { file: resolve('own', 'site-admin.sqlite') },
      sandbox: { dataDir: '/srv/sandbox' },
    });
  });

  it('takes PostgreSQL from DATABASE_URL, and describes it without its credentials', () => {
    const { database } = loadConfig({ DATABASE_URL: 'postgres://staff:p%40ss-word@db.internal:6543/site_admin?sslmode=require' });
    expect(database).toMatchObject({ engine: 'postgres' });
    expect(describeDatabase(database)).toBe('PostgreSQL at db.internal:6543/site_admin');
    expect(describeDatabase(loadConfig({ DATABASE_URL: 'postgresql://db.internal' }).database)).toBe('PostgreSQL at db.internal:5432');
  });

  it.each(['mysql://staff:secret-pw@db/site_admin', 'staff:secret-pw@db/site_admin', 'sqlite:///srv/secret-pw.sqlite'])(
    'refuses DATABASE_URL %s, naming the setting and never repeating it',
    (url) => {
      const error = (() => {
        try {
          loadConfig({ DATABASE_URL: url });
        } catch (e) {
          return e as Error;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error?.message).toContain('DATABASE_URL');
      expect(error?.message).not.toContain('secret-pw');
    },
  );
});
