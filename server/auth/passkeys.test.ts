/**
 * Passkeys through the real server over HTTP, answered by a software authenticator
 * (server/testing/software-authenticator.ts) and checked by SimpleWebAuthn: added under the account, used alone and as
 * the second factor after a password, and each refusal a caller could try (OWASP ASVS 5, V6).
 */
import http from 'node:http';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_PATHS, passkeyPath, type PasskeyList, type SecondFactorOptions } from '../../src/contract/access';
import { SITES_PATH } from '../../src/contract/site-info';
import { createSiteAdminServer, type SiteAdminServer } from '../app';
import { loadConfig } from '../config';
import { closeServer, listen, send, tempDir, type Reply } from '../testing/test-helpers';
import { hashPassword } from './password-hash';
import { saveSecondFactorPolicy } from './second-factor-policy';
import { createSoftwareAuthenticator, type SoftwarePasskey } from '../testing/software-authenticator';
import { PASSKEY_STARTS_PER_MINUTE, STEP_MS } from './passkeys';

const OWNER = { email: 'owner@example.com', password: 'a long passphrase of ours for passkeys' };
const EDITOR = { email: 'editor@example.com', password: 'the editor’s own long password' };

/** A browser: its cookies, kept from one answer to the next. */
function browser(port: number, host = `localhost:${port}`) {
  const cookies = new Map<string, string>();
  const origin = `http://${host}`;
  const call = async (method: string, path: string, body?: unknown): Promise<Reply & { json: () => unknown }> => {
    const headers: Record<string, string> = { host, 'sec-fetch-site': 'same-origin', origin };
    if (cookies.size > 0) headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/json';
    const reply = await send(port, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const setCookie = reply.headers['set-cookie'] ?? [];
    for (const line of setCookie) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/Max-Age=0\b/.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return { ...reply, json: () => JSON.parse(reply.text) as unknown };
  };
  return { cookies, origin, call };
}
type Browser = ReturnType<typeof browser>;

describe('passkeys', () => {
  let site: SiteAdminServer;
  let server: http.Server;
  let port: number;
  let dataDir: string;
  let clock: number;
  let editorId: string;

  beforeEach(async () => {
    dataDir = tempDir('site-admin-passkeys-');
    clock = Date.UTC(2026, 10, 1, 9);
    site = await createSiteAdminServer(
      loadConfig({ SANDBOX_DATA_DIR: dataDir, LOG_REQUESTS: 'false', ADMIN_USER: OWNER.email, ADMIN_PASSWORD: OWNER.password }),
      { now: () => clock },
    );
    const added = await site.accounts.people.add({
      email: EDITOR.email,
      displayName: 'Eddie',
      passwordHash: await hashPassword(EDITOR.password),
      now: clock,
    });
    if (!added.ok) throw new Error('could not add the editor');
    editorId = added.person.id;
    await site.accounts.people.setGrants(editorId, [{ siteId: 'main', role: 'editor' }], clock);
    server = http.createServer((req, res) => site.handle(req, res));
    port = await listen(server);
  });
  afterEach(async () => {
    await closeServer(server);
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const signInWithPassword = (b: Browser, who = EDITOR) => b.call('POST', ACCESS_PATHS.signInPassword, who);
  const methodOfSessions = async (personId: string) => (await site.accounts.sessions.listOf(personId, clock)).map((s) => s.method);

  /** Signs `b` in with a password and adds a passkey named `name` with `authenticator`. */
  const addPasskey = async (b: Browser, authenticator: ReturnType<typeof createSoftwareAuthenticator>, name = 'Laptop') => {
    const options = await b.call('POST', ACCESS_PATHS.passkeyOptions);
    expect(options.status).toBe(200);
    const response = authenticator.register(options.json() as never, b.origin);
    return b.call('POST', ACCESS_PATHS.passkeys, { name, response });
  };

  const signInWithPasskey = async (
    b: Browser,
    authenticator: ReturnType<typeof createSoftwareAuthenticator>,
    key: SoftwarePasskey,
    origin = b.origin,
  ) => {
    const options = await b.call('POST', ACCESS_PATHS.passkeySignInOptions);
    expect(options.status).toBe(200);
    return b.call('POST', ACCESS_PATHS.passkeySignIn, { response: authenticator.authenticate(options.json() as never, origin, key) });
  };

  /** A browser of the editor's with one passkey added, then signed out. */
  const editorWithPasskey = async () => {
    const b = browser(port);
    const authenticator = createSoftwareAuthenticator();
    expect((await signInWithPassword(b)).json()).toMatchObject({ result: 'signed-in' });
    expect((await addPasskey(b, authenticator)).status).toBe(201);
    await b.call('POST', ACCESS_PATHS.signOut);
    const key = authenticator.keys[0];
    if (!key) throw new Error('no key');
    return { b, authenticator, key };
  };

  it('says passkeys are a way in', async () => {
    expect((await browser(port).call('GET', ACCESS_PATHS.signIn)).json()).toMatchObject({ password: true, passkey: true });
  });

  it('adds a passkey under the account, lists it with when it was added and used, renames and removes it', async () => {
    const b = browser(port);
    const authenticator = createSoftwareAuthenticator();
    await signInWithPassword(b);
    const options = (await b.call('POST', ACCESS_PATHS.passkeyOptions)).json() as Record<string, unknown>;
    // A discoverable credential for this host, naming the person by a handle that says nothing of them.
    expect(options).toMatchObject({ rp: { id: 'localhost', name: 'site-admin' }, user: { name: EDITOR.email, displayName: 'Eddie' } });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'preferred' });
    const added = await b.call('POST', ACCESS_PATHS.passkeys, {
      name: '  Work   laptop ',
      response: authenticator.register(options as never, b.origin),
    });
    expect(added.status).toBe(201);
    const id = authenticator.keys[0]?.id ?? '';
    expect(added.json()).toEqual({ id, name: 'Work laptop', createdAt: clock, lastUsedAt: null });

    // A second registration excludes the one kept, so the same authenticator is not added twice.
    const again = (await b.call('POST', ACCESS_PATHS.passkeyOptions)).json() as { excludeCredentials: { id: string }[] };
    expect(again.excludeCredentials.map((c) => c.id)).toEqual([id]);

    expect((await b.call('PATCH', passkeyPath(id), { name: 'Phone' })).status).toBe(204);
    expect((await b.call('PATCH', passkeyPath(id), { name: '   ' })).status).toBe(400);
    expect(((await b.call('GET', ACCESS_PATHS.passkeys)).json() as PasskeyList).passkeys).toEqual([
      { id, name: 'Phone', createdAt: clock, lastUsedAt: null },
    ]);
    expect((await b.call('DELETE', passkeyPath(id))).status).toBe(204);
    expect((await b.call('DELETE', passkeyPath(id))).status).toBe(404);
    expect(((await b.call('GET', ACCESS_PATHS.passkeys)).json() as PasskeyList).passkeys).toEqual([]);
  });

  it('lets no one see, rename or remove another person’s passkey, nor anyone signed out add one', async () => {
    const { key } = await editorWithPasskey();
    const owner = browser(port);
    await signInWithPassword(owner, OWNER);
    expect(((await owner.call('GET', ACCESS_PATHS.passkeys)).json() as PasskeyList).passkeys).toEqual([]);
    expect((await owner.call('PATCH', passkeyPath(key.id), { name: 'Mine' })).status).toBe(404);
    expect((await owner.call('DELETE', passkeyPath(key.id))).status).toBe(404);
    const nobody = browser(port);
    expect((await nobody.call('POST', ACCESS_PATHS.passkeyOptions)).status).toBe(401);
    expect((await nobody.call('GET', ACCESS_PATHS.passkeys)).status).toBe(401);
  });

  it('refuses a registration answered for another origin, or without its challenge, and keeps nothing', async () => {
    const b = browser(port);
    const authenticator = createSoftwareAuthenticator();
    await signInWithPassword(b);
    const options = (await b.call('POST', ACCESS_PATHS.passkeyOptions)).json() as never;
    const forged = await b.call('POST', ACCESS_PATHS.passkeys, {
      name: 'Evil',
      response: authenticator.register(options, 'http://evil.example'),
    });
    expect(forged.status).toBe(400);
    // The challenge was used up by that attempt.
    const late = await b.call('POST', ACCESS_PATHS.passkeys, { name: 'Late', response: authenticator.register(options, b.origin) });
    expect(late.status).toBe(409);
    expect(((await b.call('GET', ACCESS_PATHS.passkeys)).json() as PasskeyList).passkeys).toEqual([]);
  });

  it('signs in with a passkey alone (no e-mail address typed), and marks it used', async () => {
    const { b, authenticator, key } = await editorWithPasskey();
    expect((await b.call('GET', SITES_PATH)).status).toBe(401);
    clock += 60_000;
    const signedIn = await signInWithPasskey(b, authenticator, key);
    expect(signedIn.status).toBe(200);
    expect(signedIn.json()).toMatchObject({ result: 'signed-in', me: { kind: 'person', email: EDITOR.email } });
    expect((await b.call('GET', SITES_PATH)).status).toBe(200);
    expect(await methodOfSessions(editorId)).toEqual(['passkey']);
    const [listed] = ((await b.call('GET', ACCESS_PATHS.passkeys)).json() as PasskeyList).passkeys;
    expect(listed?.lastUsedAt).toBe(clock);
    // The sign-in options name no passkeys: the browser offers those it holds.
    expect((await b.call('POST', ACCESS_PATHS.passkeySignInOptions)).json()).not.toHaveProperty('allowCredentials.0');
  });

  it('refuses an answer replayed, one signed for another origin, and one whose counter did not move on (a clone)', async () => {
    const { b, authenticator, key } = await editorWithPasskey();
    const options = (await b.call('POST', ACCESS_PATHS.passkeySignInOptions)).json() as never;
    const response = authenticator.authenticate(options, b.origin, key);
    expect((await b.call('POST', ACCESS_PATHS.passkeySignIn, { response })).status).toBe(200);
    await b.call('POST', ACCESS_PATHS.signOut);
    // The same answer again: its challenge was used once.
    await b.call('POST', ACCESS_PATHS.passkeySignInOptions);
    expect((await b.call('POST', ACCESS_PATHS.passkeySignIn, { response })).status).toBe(401);

    expect((await signInWithPasskey(b, authenticator, key, 'http://evil.example')).status).toBe(401);

    const cloned = (await b.call('POST', ACCESS_PATHS.passkeySignInOptions)).json() as never;
    const clone = await b.call('POST', ACCESS_PATHS.passkeySignIn, { response: authenticator.authenticate(cloned, b.origin, key, 1) });
    expect(clone.status).toBe(401);
    expect((await b.call('GET', SITES_PATH)).status).toBe(401);
  });

  it('a removed passkey, or the passkey of a disabled person, signs nobody in', async () => {
    const { b, authenticator, key } = await editorWithPasskey();
    await site.accounts.people.setDisabled(editorId, true, clock);
    expect((await signInWithPasskey(b, authenticator, key)).status).toBe(401);
    await site.accounts.people.setDisabled(editorId, false, clock);
    expect((await signInWithPasskey(b, authenticator, key)).status).toBe(200);
    expect((await b.call('DELETE', passkeyPath(key.id))).status).toBe(204);
    await b.call('POST', ACCESS_PATHS.signOut);
    const refused = await signInWithPasskey(b, authenticator, key);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('removed');
  });

  it('a challenge is good for five minutes', async () => {
    const { b, authenticator, key } = await editorWithPasskey();
    const options = (await b.call('POST', ACCESS_PATHS.passkeySignInOptions)).json() as never;
    clock += STEP_MS;
    expect(
      (await b.call('POST', ACCESS_PATHS.passkeySignIn, { response: authenticator.authenticate(options, b.origin, key) })).status,
    ).toBe(401);
  });

  it('after the password, a person with a passkey confirms with it before any session starts', async () => {
    const { b, authenticator, key } = await editorWithPasskey();
    const first = await signInWithPassword(b);
    expect(first.json()).toEqual({ result: 'second-factor', ways: ['passkey'] });
    expect((await b.call('GET', SITES_PATH)).status).toBe(401);
    expect(await methodOfSessions(editorId)).toEqual([]);

    const options = (await b.call('POST', ACCESS_PATHS.secondFactorOptions)).json() as SecondFactorOptions;
    expect(options.setUp).toBe(false);
    expect(options.options).toMatchObject({ allowCredentials: [{ id: key.id }] });
    const done = await b.call('POST', ACCESS_PATHS.secondFactor, {
      response: authenticator.authenticate(options.options as never, b.origin, key),
    });
    expect(done.json()).toMatchObject({ result: 'signed-in', me: { email: EDITOR.email } });
    expect((await b.call('GET', SITES_PATH)).status).toBe(200);
    expect(await methodOfSessions(editorId)).toEqual(['password+passkey']);
  });

  it('the second factor must be the person’s own passkey, in time, once', async () => {
    const { b, authenticator, key } = await editorWithPasskey();
    // The owner's passkey does not confirm the editor's password.
    const owner = browser(port);
    const ownerAuthenticator = createSoftwareAuthenticator();
    await signInWithPassword(owner, OWNER);
    await addPasskey(owner, ownerAuthenticator);
    const ownerKey = ownerAuthenticator.keys[0];
    if (!ownerKey) throw new Error('no key');
    await signInWithPassword(b);
    const options = (await b.call('POST', ACCESS_PATHS.secondFactorOptions)).json() as SecondFactorOptions;
    const wrong = await b.call('POST', ACCESS_PATHS.secondFactor, {
      response: ownerAuthenticator.authenticate(options.options as never, b.origin, ownerKey),
    });
    expect(wrong.status).toBe(401);
    // That attempt used the pending sign-in up: the right passkey now needs the password again.
    const after = await b.call('POST', ACCESS_PATHS.secondFactor, {
      response: authenticator.authenticate(options.options as never, b.origin, key),
    });
    expect(after.status).toBe(401);
    expect((await b.call('POST', ACCESS_PATHS.secondFactorOptions)).status).toBe(401);

    await signInWithPassword(b);
    const late = (await b.call('POST', ACCESS_PATHS.secondFactorOptions)).json() as SecondFactorOptions;
    clock += STEP_MS;
    expect(
      (await b.call('POST', ACCESS_PATHS.secondFactor, { response: authenticator.authenticate(late.options as never, b.origin, key) }))
        .status,
    ).toBe(401);
    expect((await b.call('GET', SITES_PATH)).status).toBe(401);
  });

  it('asks for a second factor where the owners’ rule says so, and lets someone with no passkey yet add one to finish', async () => {
    await saveSecondFactorPolicy(site.accounts.settings, { everyone: false, roles: ['editor'] }, clock);
    // The owner is not an editor: the password is enough.
    expect((await signInWithPassword(browser(port), OWNER)).json()).toMatchObject({ result: 'signed-in' });

    const b = browser(port);
    const authenticator = createSoftwareAuthenticator();
    expect((await signInWithPassword(b)).json()).toEqual({ result: 'second-factor', ways: ['passkey'], setUp: true });
    expect((await b.call('GET', SITES_PATH)).status).toBe(401);
    // Nothing but the passkey can be added with that password: no session, so not the account's endpoints.
    expect((await b.call('POST', ACCESS_PATHS.passkeyOptions)).status).toBe(401);
    const options = (await b.call('POST', ACCESS_PATHS.secondFactorOptions)).json() as SecondFactorOptions;
    expect(options.setUp).toBe(true);
    expect(options.options).toMatchObject({ user: { name: EDITOR.email } });
    const done = await b.call('POST', ACCESS_PATHS.secondFactor, { response: authenticator.register(options.options as never, b.origin) });
    expect(done.json()).toMatchObject({ result: 'signed-in' });
    expect(await methodOfSessions(editorId)).toEqual(['password+passkey']);
    expect(((await b.call('GET', ACCESS_PATHS.passkeys)).json() as PasskeyList).passkeys).toMatchObject([{ name: 'Passkey' }]);

    // From then on the password alone asks for that passkey.
    await b.call('POST', ACCESS_PATHS.signOut);
    expect((await signInWithPassword(b)).json()).toEqual({ result: 'second-factor', ways: ['passkey'] });
  });

  it('where the rule asks for two factors, a passkey alone signs in only when it verified the person', async () => {
    const { b, key } = await editorWithPasskey();
    await saveSecondFactorPolicy(site.accounts.settings, { everyone: true, roles: [] }, clock);
    const presenceOnly = createSoftwareAuthenticator({ userVerified: false });
    expect((await signInWithPasskey(b, presenceOnly, key)).status).toBe(401);
    expect((await signInWithPasskey(b, createSoftwareAuthenticator(), key)).status).toBe(200);
  });

  it('ASVS 6.3.1: second-factor attempts count against the login throttle', async () => {
    const { b, key } = await editorWithPasskey();
    const stranger = createSoftwareAuthenticator();
    stranger.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'eA' } }, b.origin);
    const strangerKey = stranger.keys[0];
    if (!strangerKey) throw new Error('no key');
    const statuses: number[] = [];
    // This browser holds a device cookie from its sign-ins: its own limit is 10 failures in 15 minutes.
    for (let i = 0; i < 10; i += 1) {
      expect((await signInWithPassword(b)).json()).toMatchObject({ result: 'second-factor' });
      const options = (await b.call('POST', ACCESS_PATHS.secondFactorOptions)).json() as SecondFactorOptions;
      const reply = await b.call('POST', ACCESS_PATHS.secondFactor, {
        response: stranger.authenticate(options.options as never, b.origin, { ...strangerKey, id: key.id }),
      });
      statuses.push(reply.status);
    }
    expect(statuses).toEqual(Array<number>(10).fill(401));
    // Ten wrong second factors: even the right password is not looked at now.
    const refused = await signInWithPassword(b);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('holds back a flood of passkey sign-ins started from one address: each would keep a row for five minutes', async () => {
    const b = browser(port);
    const statuses: number[] = [];
    for (let n = 0; n < PASSKEY_STARTS_PER_MINUTE + 5; n += 1)
      statuses.push((await b.call('POST', ACCESS_PATHS.passkeySignInOptions)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(PASSKEY_STARTS_PER_MINUTE);
    expect(statuses.slice(PASSKEY_STARTS_PER_MINUTE)).toEqual(Array<number>(5).fill(429));
    const { rows } = await site.database.db
      .selectFrom('pending_steps')
      .select((eb) => eb.fn.countAll<number>().as('rows'))
      .executeTakeFirstOrThrow();
    expect(Number(rows)).toBeLessThanOrEqual(PASSKEY_STARTS_PER_MINUTE);
  });
});
