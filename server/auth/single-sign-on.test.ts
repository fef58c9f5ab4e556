/**
 * Single sign-on against a real OpenID provider (oidc-provider) on loopback, through a real site-admin
 * server, with plain HTTP: every redirect is followed by hand, each origin keeping its own cookies, so
 * what the browser would carry (and what it would not) is explicit.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_CALLBACK_PATH, SSO_START_PATH } from '../../src/contract/single-sign-on';
import { createSiteAdminServer, type SiteAdminServer } from '../app';
import { loadConfig, type DatabaseSetting } from '../config';
import { describeEachEngine } from '../testing/postgres';
import { closeServer, configError, freePort, listen, tempDir } from '../testing/test-helpers';
import { SSO_COOKIE, SSO_STARTS_PER_MINUTE } from './single-sign-on';
import { startIdentityProvider, TEST_PUBLIC_CLIENT_ID, type TestIdentityProvider } from '../testing/sso-provider';

/** The cookies one origin has set, by name (enough for these servers: one path, no domains). */
class CookieJar {
  readonly cookies = new Map<string, string>();
  /** The Set-Cookie headers of the last answer, as sent. */
  lastSet: string[] = [];
  take(response: Response) {
    this.lastSet = response.headers.getSetCookie();
    for (const line of this.lastSet) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/;\s*max-age=0\b/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** One request without following redirects, with `jar`'s cookies. */
async function visit(jar: CookieJar, url: string | URL, init: { method?: string; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { cookie: jar.header() };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  jar.take(response);
  const location = response.headers.get('location');
  return { status: response.status, location: location === null ? null : new URL(location, url), text: await response.text() };
}

interface Flow {
  /** Where the start endpoint sent the browser (the provider's authorisation request, untouched). */
  authorization: URL;
  /** Where the callback sent the browser. */
  landing: URL;
  /** The site's cookies after the callback. */
  site: CookieJar;
  /** The callback address the provider sent the browser to. */
  callback: URL;
  /** The id of the sign-in in progress, as the step's cookie held it before the callback. */
  stepId: string;
}

/**
 * Signs in at `origin` as the provider's person `login`: the start endpoint, the provider's sign-in form,
 * the callback. `tamper` changes the authorisation request before the browser goes there.
 */
async function signIn(origin: string, login: string, tamper: (url: URL) => void = () => undefined, callbackOrigin = origin): Promise<Flow> {
  const site = new CookieJar();
  const provider = new CookieJar();
  const start = await visit(site, new URL(SSO_START_PATH, origin));
  expect(start.status).toBe(302);
  const authorization = start.location as URL;
  let next = new URL(authorization);
  tamper(next);
  for (let hops = 0; ; hops += 1) {
    if (hops > 10) throw new Error('the provider kept redirecting');
    if (next.origin === origin) break;
    const answer = await visit(provider, next);
    if (answer.status === 200 && answer.text.includes('name="prompt" value="login"')) {
      const posted = await visit(provider, next, { method: 'POST', form: { prompt: 'login', login, password: 'any' } });
      next = posted.location as URL;
      continue;
    }
    if (!answer.location) throw new Error(`the provider answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    next = answer.location;
  }
  const callback = new URL(next.pathname + next.search, callbackOrigin);
  const stepId = site.cookies.get(SSO_COOKIE) ?? '';
  const landed = await visit(site, callback);
  expect(landed.status).toBe(302);
  return { authorization, landing: landed.location as URL, site, callback, stepId };
}

const errorOf = (flow: Flow) => flow.landing.searchParams.get('sign-in-error');

async function me(origin: string, jar: CookieJar) {
  const response = await fetch(new URL('/api/sites', origin), { headers: { cookie: jar.header() } });
  return { status: response.status, body: (await response.json()) as { me?: { email: string; grants: unknown[] } } };
}

/** A site-admin server on loopback whose settings are given once its port is known (for the redirect URL). */
async function siteAdmin(scratch: string, env: (origin: string) => Record<string, string>, database?: DatabaseSetting) {
  let site: SiteAdminServer | undefined;
  const server = http.createServer((req, res) => site?.handle(req, res));
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    redirectUrl: `${origin}${SSO_CALLBACK_PATH}`,
    async start() {
      const config = loadConfig({ DATA_DIR: scratch, LOG_REQUESTS: 'false', ...env(origin) });
      site = await createSiteAdminServer(database ? { ...config, database } : config);
      return site;
    },
    async close() {
      await closeServer(server);
      await site?.close();
    },
  };
}

describeEachEngine('single sign-on with OpenID Connect', (_engine, freshDatabase) => {
  const scratch = tempDir('site-admin-sso-');
  let provider: TestIdentityProvider;
  let plain: Awaited<ReturnType<typeof siteAdmin>>;
  /** Another instance sharing plain's database, as behind a load balancer. */
  let twin: Awaited<ReturnType<typeof siteAdmin>>;
  /** An instance sharing it too, as a public client (no secret, PKCE alone). */
  let publicClient: Awaited<ReturnType<typeof siteAdmin>>;
  let grouped: Awaited<ReturnType<typeof siteAdmin>>;
  let plainSite: SiteAdminServer;
  let groupedSite: SiteAdminServer;
  const ssoEnv = (origin: string) => ({
    SSO_ISSUER: provider.issuer,
    SSO_CLIENT_ID: provider.clientId,
    SSO_CLIENT_SECRET: provider.clientSecret,
    SSO_REDIRECT_URL: `${origin}${SSO_CALLBACK_PATH}`,
    SSO_NAME: 'Example ID',
    SSO_SCOPES: 'openid email profile groups',
  });

  beforeAll(async () => {
    const shared = await freshDatabase();
    plain = await siteAdmin(join(scratch, 'plain'), ssoEnv, shared);
    // The twin is registered with plain's callback address: a load balancer's one public address.
    twin = await siteAdmin(join(scratch, 'twin'), () => ssoEnv(plain.origin), shared);
    publicClient = await siteAdmin(
      join(scratch, 'public'),
      (origin) => ({ ...ssoEnv(origin), SSO_CLIENT_ID: TEST_PUBLIC_CLIENT_ID, SSO_CLIENT_SECRET: '' }),
      shared,
    );
    grouped = await siteAdmin(
      join(scratch, 'grouped'),
      (origin) => ({
        ...ssoEnv(origin),
        SSO_GROUP_GRANTS: JSON.stringify({
          'shop-editors': [{ siteId: 'main', role: 'editor' }],
          'support-team': [{ siteId: '*', role: 'support' }],
        }),
      }),
      await freshDatabase(),
    );
    provider = await startIdentityProvider({ redirectUris: [plain.redirectUrl, grouped.redirectUrl, publicClient.redirectUrl] });
    provider.people.set('ada', { email: 'Ada@Example.com', emailVerified: true, groups: ['shop-editors', 'support-team'] });
    provider.people.set('stranger', { email: 'stranger@example.com', emailVerified: true });
    provider.people.set('unverified', { email: 'ada@example.com', emailVerified: false });
    provider.people.set('outsider', { email: 'bo@example.com', emailVerified: true, groups: ['marketing'] });
    plainSite = await plain.start();
    groupedSite = await grouped.start();
    await twin.start();
    await publicClient.start();
    for (const site of [plainSite, groupedSite]) {
      for (const email of ['ada@example.com', 'bo@example.com']) {
        const added = await site.accounts.people.add({ email, displayName: email.split('@')[0] ?? email, now: Date.now() });
        if (!added.ok) throw new Error('not added');
        await site.accounts.people.setGrants(added.person.id, [{ siteId: 'main', role: 'support' }], Date.now());
      }
    }
  }, 60_000);

  afterAll(async () => {
    await twin?.close();
    await publicClient?.close();
    await plain?.close();
    await grouped?.close();
    await provider?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('offers single sign-on by its name on the sign-in page', async () => {
    const response = await fetch(new URL('/api/sign-in', plain.origin));
    expect(await response.json()).toMatchObject({ singleSignOn: { name: 'Example ID' } });
  });

  it('signs in an invited person by the provider’s verified e-mail address, with PKCE, state and nonce', async () => {
    const flow = await signIn(plain.origin, 'ada');
    const request = flow.authorization.searchParams;
    expect(flow.authorization.origin).toBe(provider.issuer);
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(request.get('state')).toBeTruthy();
    expect(request.get('nonce')).toBeTruthy();
    expect(request.get('redirect_uri')).toBe(plain.redirectUrl);
    expect(flow.landing.href).toBe(`${plain.origin}/`);
    const answer = await me(plain.origin, flow.site);
    expect(answer.status).toBe(200);
    expect(answer.body.me).toMatchObject({ kind: 'person', email: 'ada@example.com' });
    // Without SSO_GROUP_GRANTS the grants are the server's own.
    expect(answer.body.me?.grants).toEqual([{ siteId: 'main', role: 'support' }]);
    const person = await plainSite.accounts.people.getByEmail('ada@example.com');
    const sessions = await plainSite.accounts.sessions.listOf(person?.id ?? '', Date.now());
    expect(sessions.map((s) => s.method)).toContain('single-sign-on');
  });

  it('keeps the sign-in in progress only as a hash, behind a short-lived HttpOnly SameSite=Lax cookie, used once', async () => {
    const site = new CookieJar();
    const start = await visit(site, new URL(SSO_START_PATH, plain.origin));
    const set = site.lastSet.find((line) => line.startsWith(`${SSO_COOKIE}=`)) ?? '';
    expect(set).toMatch(/; Max-Age=600; HttpOnly; SameSite=Lax/);
    const id = site.cookies.get(SSO_COOKIE) ?? '';
    const rows = await plainSite.database.db.selectFrom('pending_steps').selectAll().where('purpose', '=', 'single-sign-on').execute();
    expect(rows.map((row) => row.id_hash)).toContain(createHash('sha256').update(id).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(id);
    expect(start.location?.searchParams.get('state')).toBeTruthy();

    // A callback replayed with the same cookie finds nothing: the first one used the step up.
    const flow = await signIn(plain.origin, 'ada');
    expect(errorOf(flow)).toBeNull();
    expect(flow.site.cookies.has(SSO_COOKIE)).toBe(false);
    const replay = new CookieJar();
    replay.cookies.set(SSO_COOKIE, flow.stepId);
    const again = await visit(replay, flow.callback);
    expect(again.location?.searchParams.get('sign-in-error')).toBe('sso-expired');
    expect(replay.cookies.has('site_admin_session')).toBe(false);
  });

  it('finishes a sign-in started on one instance on another that shares the database', async () => {
    const flow = await signIn(plain.origin, 'ada', () => undefined, twin.origin);
    expect(errorOf(flow)).toBeNull();
    expect(flow.landing.origin).toBe(twin.origin);
    // The session, started by the twin, is good on both.
    expect((await me(twin.origin, flow.site)).body.me?.email).toBe('ada@example.com');
    expect((await me(plain.origin, flow.site)).body.me?.email).toBe('ada@example.com');
  });

  it('signs in as a public client, with no secret', async () => {
    const flow = await signIn(publicClient.origin, 'ada');
    expect(errorOf(flow)).toBeNull();
    expect((await me(publicClient.origin, flow.site)).body.me?.email).toBe('ada@example.com');
  });

  it('refuses an address that is not one of ours, and never creates a person', async () => {
    const flow = await signIn(plain.origin, 'stranger');
    expect(errorOf(flow)).toBe('sso-unknown');
    expect(flow.site.cookies.has('site_admin_session')).toBe(false);
    expect(await plainSite.accounts.people.getByEmail('stranger@example.com')).toBeUndefined();
  });

  it('refuses an address the provider has not verified', async () => {
    const flow = await signIn(plain.origin, 'unverified');
    expect(errorOf(flow)).toBe('sso-unverified');
    expect(flow.site.cookies.has('site_admin_session')).toBe(false);
  });

  it('refuses a disabled person', async () => {
    const person = await plainSite.accounts.people.getByEmail('bo@example.com');
    await plainSite.accounts.people.setDisabled(person?.id ?? '', true, Date.now());
    const flow = await signIn(plain.origin, 'outsider');
    expect(errorOf(flow)).toBe('sso-unknown');
    await plainSite.accounts.people.setDisabled(person?.id ?? '', false, Date.now());
  });

  it('refuses an answer whose state is not the one this browser’s sign-in sent', async () => {
    const flow = await signIn(plain.origin, 'ada', (url) => url.searchParams.set('state', 'forged-state-value'));
    expect(flow.callback.searchParams.get('state')).toBe('forged-state-value');
    expect(errorOf(flow)).toBe('sso-state');
    expect(flow.site.cookies.has('site_admin_session')).toBe(false);
  });

  it('refuses an ID token with another nonce than the one this sign-in sent', async () => {
    const flow = await signIn(plain.origin, 'ada', (url) => url.searchParams.set('nonce', 'another-nonce-value'));
    // The provider answered properly (a code, the right state): only the ID token's nonce is wrong.
    expect(flow.callback.searchParams.get('code')).toBeTruthy();
    expect(errorOf(flow)).toBe('sso-invalid');
    expect(flow.site.cookies.has('site_admin_session')).toBe(false);
  });

  it('refuses a callback from a browser that started no sign-in', async () => {
    const flow = await signIn(plain.origin, 'ada');
    const stranger = new CookieJar();
    const answer = await visit(stranger, flow.callback);
    expect(answer.location?.searchParams.get('sign-in-error')).toBe('sso-expired');
  });

  it('with SSO_GROUP_GRANTS, replaces the person’s grants with those of their groups at each sign-in', async () => {
    const flow = await signIn(grouped.origin, 'ada');
    expect(errorOf(flow)).toBeNull();
    const answer = await me(grouped.origin, flow.site);
    expect(answer.body.me?.grants).toEqual([
      { siteId: '*', role: 'support' },
      { siteId: 'main', role: 'editor' },
    ]);
    // Groups that give nothing: refused, and the grants are gone.
    const outsider = await signIn(grouped.origin, 'outsider');
    expect(errorOf(outsider)).toBe('sso-no-grants');
    const bo = await groupedSite.accounts.people.getByEmail('bo@example.com');
    expect(await groupedSite.accounts.people.grantsOf(bo?.id ?? '')).toEqual([]);
  });

  it('sends the person back with words when the provider cannot be reached', async () => {
    const closedPort = await freePort();
    const away = await siteAdmin(join(scratch, 'away'), (origin) => ({
      SSO_ISSUER: `http://127.0.0.1:${closedPort}`,
      SSO_CLIENT_ID: 'x',
      SSO_REDIRECT_URL: `${origin}${SSO_CALLBACK_PATH}`,
    }));
    try {
      await away.start();
      const answer = await visit(new CookieJar(), new URL(SSO_START_PATH, away.origin));
      expect(answer.status).toBe(302);
      expect(answer.location?.href).toBe(`${away.origin}/?sign-in-error=sso-provider`);
    } finally {
      await away.close();
    }
  });
});

describe('single sign-on and the login throttle', () => {
  it('counts callbacks that fail their checks as failed sign-ins of the address, until it refuses them unchecked, and limits starts', async () => {
    const scratch = tempDir('site-admin-sso-throttle-');
    const providerPort = await freePort();
    const site = await siteAdmin(scratch, (origin) => ({
      SSO_ISSUER: `http://127.0.0.1:${providerPort}`,
      SSO_CLIENT_ID: 'x',
      SSO_REDIRECT_URL: `${origin}${SSO_CALLBACK_PATH}`,
    }));
    try {
      await site.start();
      const seen: string[] = [];
      // Each a sign-in this server never started (a cookie of the right shape, no step behind it).
      for (let tries = 0; tries < 40 && !seen.includes('sso-busy'); tries += 1) {
        const jar = new CookieJar();
        jar.cookies.set(SSO_COOKIE, randomBytes(32).toString('base64url'));
        const answer = await visit(jar, new URL(`${SSO_CALLBACK_PATH}?code=c&state=s`, site.origin));
        seen.push(answer.location?.searchParams.get('sign-in-error') ?? '');
      }
      expect(seen[0]).toBe('sso-expired');
      expect(seen.at(-1)).toBe('sso-busy');

      // Starting sign-ins (each a row in the database) is limited per address too.
      const started: string[] = [];
      for (let tries = 0; tries <= SSO_STARTS_PER_MINUTE; tries += 1) {
        const answer = await visit(new CookieJar(), new URL(SSO_START_PATH, site.origin));
        started.push(answer.location?.searchParams.get('sign-in-error') ?? '');
      }
      // The provider is away here; the start past the limit does not even try it.
      expect(started.slice(0, SSO_STARTS_PER_MINUTE).every((code) => code === 'sso-provider')).toBe(true);
      expect(started.at(-1)).toBe('sso-busy');
    } finally {
      await site.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('single sign-on settings', () => {
  const base = {
    SSO_ISSUER: 'https://id.example.com',
    SSO_CLIENT_ID: 'site-admin',
    SSO_REDIRECT_URL: `https://admin.example.com${SSO_CALLBACK_PATH}`,
  };

  it('are all off without SSO_ISSUER, and an SSO setting without it is refused', () => {
    expect(loadConfig({}).singleSignOn).toBeUndefined();
    expect(configError({ SSO_CLIENT_ID: 'x' }).message).toMatch(/SSO_CLIENT_ID is set, but SSO_ISSUER is not/);
  });

  it('need a client id and the registered callback address', () => {
    expect(configError({ SSO_ISSUER: base.SSO_ISSUER }).message).toMatch(/SSO_CLIENT_ID must be set/);
    expect(configError({ SSO_ISSUER: base.SSO_ISSUER, SSO_CLIENT_ID: 'x' }).message).toMatch(/SSO_REDIRECT_URL must be set/);
    expect(configError({ ...base, SSO_REDIRECT_URL: 'https://admin.example.com/callback' }).message).toMatch(
      /SSO_REDIRECT_URL must be this server's address followed by \/api\/sign-in\/sso\/callback/,
    );
  });

  it('take https:// addresses, http:// only on loopback', () => {
    expect(configError({ ...base, SSO_ISSUER: 'http://id.example.com' }).message).toMatch(/SSO_ISSUER must start with https:\/\//);
    expect(loadConfig({ ...base, SSO_ISSUER: 'http://127.0.0.1:9999' }).singleSignOn?.issuer.href).toBe('http://127.0.0.1:9999/');
  });

  it('check SSO_GROUP_GRANTS against the roles and this server’s sites', () => {
    expect(configError({ ...base, SSO_GROUP_GRANTS: 'support' }).message).toMatch(/SSO_GROUP_GRANTS is not JSON/);
    const wrong = configError({
      ...base,
      SSO_GROUP_GRANTS: '{"a":[{"siteId":"shop","role":"support"}],"b":[{"siteId":"*","role":"boss"}]}',
    });
    expect(wrong.message).toMatch(/"a"\[0\] names site "shop", which is not one of this server's sites/);
    expect(wrong.message).toMatch(/"b"\[0\] must be \{"siteId"/);
    const setting = loadConfig({ ...base, SSO_GROUP_GRANTS: '{"team":[{"siteId":"main","role":"editor"}]}' }).singleSignOn;
    expect(setting?.groupGrants?.get('team')).toEqual([{ siteId: 'main', role: 'editor' }]);
    expect(setting?.name).toBe('single sign-on');
  });
});
