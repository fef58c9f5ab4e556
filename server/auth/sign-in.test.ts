/**
 * Signing in with a password and the sessions it starts, as a browser meets them: the whole server
 * (createSiteAdminServer) over loopback HTTP, with people in its database, on SQLite and PostgreSQL alike.
 * The server's clock is the test's (`now`), moved to reach time-outs. Each test is named after the OWASP
 * ASVS 5.0 requirement it shows met, where there is one.
 */
import { afterEach, expect, it } from 'vitest';
import { ConfigError, type DatabaseSetting } from '../config';
import { describeEachEngine } from '../testing/postgres';
import {
  addPeople,
  cookiesSet,
  errorShapeProblems,
  REPO_ROOT,
  send,
  signInWithPassword,
  startWholeServer,
  type Reply,
} from '../testing/test-helpers';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from './session-cookie';

const T = Date.UTC(2026, 10, 2, 8);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** SESSION_IDLE_MINUTES and SESSION_MAX_HOURS by default. */
const IDLE = 2 * HOUR;
const ABSOLUTE = 12 * HOUR;
const PROFILE = { SITE_PROFILE: `${REPO_ROOT}server/site-profile.example.json` };
/** Cases the sandbox does not hold: a lookup that is forwarded answers 404, one refused answers 403. */
const LOOKUP = (site: string) => `/api/s/${site}/site/v2/forms/3/cases/999999`;
const CREATE = (site: string) => `/api/s/${site}/site/v2/ecommerce/products/create`;

const ADA = { email: 'ada@example.com', password: 'a long enough passphrase for Ada', displayName: 'Ada' };
const BEA = { email: 'bea@example.com', password: 'another long passphrase for Bea', displayName: 'Bea' };

type Running = Awaited<ReturnType<typeof startWholeServer>>;

describeEachEngine('signing in and sessions', (_engine, freshDatabase) => {
  const running: Running[] = [];
  let clock = T;
  afterEach(async () => {
    for (const server of running.splice(0)) await server.stop();
    clock = T;
  });

  /** The whole server on a database of its own (or `database`), with the test's clock. */
  const start = async (env: Record<string, string> = {}, database?: DatabaseSetting) => {
    const server = await startWholeServer({ ...PROFILE, ...env }, { database: database ?? (await freshDatabase()), now: () => clock });
    running.push(server);
    return server;
  };
  const stop = async (server: Running) => {
    running.splice(running.indexOf(server), 1);
    await server.stop();
  };

  /** A request as the app's page sends it, with the session cookie `session` (`name=value`). */
  const call = (port: number, path: string, session?: string, method = 'GET', body?: unknown) =>
    send(port, {
      method,
      path,
      headers: {
        ...(session ? { cookie: session } : {}),
        ...(method === 'GET' ? {} : { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** The session cookie a reply set, as `name=value`, or undefined. */
  const sessionOf = (reply: Reply, name = SESSION_COOKIE) => {
    const value = cookiesSet(reply).get(name);
    return value ? `${name}=${value}` : undefined;
  };
  /** Signs in and resolves to the session's cookie (`name=value`). */
  const signIn = async (port: number, who: { email: string; password: string }, name = SESSION_COOKIE, cookie?: string) => {
    const reply = await signInWithPassword(port, who.email, who.password, { cookie });
    const session = sessionOf(reply, name);
    if (reply.status !== 200 || !session) throw new Error(`${who.email} could not sign in: ${reply.status} ${reply.text}`);
    return session;
  };
  const status = async (port: number, path: string, session?: string) => (await call(port, path, session)).status;

  it('signs in with the right password, and answers a wrong password, a disabled person, one without a password and an unknown address with the same 401 (ASVS V6.3.8)', async () => {
    const { site, port } = await start();
    const [adaId] = await addPeople(site, [
      { ...ADA, grants: [{ siteId: 'harbour-linen', role: 'editor' }] },
      { ...BEA, disabled: true },
      { email: 'cy@example.com' },
    ]);
    const right = await signInWithPassword(port, ADA.email, ADA.password);
    expect(right.status).toBe(200);
    const signedIn = JSON.parse(right.text) as { sites: { id: string }[] };
    expect(signedIn).toMatchObject({
      result: 'signed-in',
      me: {
        kind: 'person',
        id: adaId,
        email: ADA.email,
        displayName: 'Ada',
        grants: [{ siteId: 'harbour-linen', role: 'editor' }],
        managesPeople: false,
      },
    });
    // The sites come with it, exactly as GET /api/sites answers them in that session: the page needs no second round trip.
    expect(signedIn.sites.map((site) => site.id)).toEqual(['harbour-linen']);
    const listed = await call(port, '/api/sites', sessionOf(right));
    expect(JSON.parse(listed.text)).toEqual({ sites: signedIn.sites, me: (signedIn as unknown as { me: unknown }).me });
    // The address in another case and with spaces around it is the same person.
    expect((await signInWithPassword(port, ' ADA@Example.COM ', ADA.password)).status).toBe(200);

    const refusals = [
      await signInWithPassword(port, ADA.email, `${ADA.password} `),
      await signInWithPassword(port, ADA.email, 'wrong'),
      await signInWithPassword(port, BEA.email, BEA.password),
      await signInWithPassword(port, 'cy@example.com', 'any password at all'),
      await signInWithPassword(port, 'nobody@example.com', ADA.password),
    ];
    for (const reply of refusals) {
      expect(reply.status).toBe(401);
      expect(errorShapeProblems(401, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(sessionOf(reply)).toBeUndefined();
    }
    expect(new Set(refusals.map((reply) => reply.text)).size).toBe(1);
    // Without an address or a password, it says what is missing (400), and checks nothing.
    const empty = await call(port, '/api/sign-in/password', undefined, 'POST', { email: ADA.email });
    expect(empty.status).toBe(400);
    expect(errorShapeProblems(400, empty.headers['content-type'], empty.text)).toEqual([]);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ and for the absolute time-out, not Secure over plain HTTP on loopback (ASVS V3.3.2, V3.3.4)', async () => {
    const { site, port } = await start();
    await addPeople(site, [ADA]);
    const reply = await signInWithPassword(port, ADA.email, ADA.password);
    const line = (reply.headers['set-cookie'] ?? []).find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    expect(line).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}; Path=/; Max-Age=${ABSOLUTE / 1000}; HttpOnly; SameSite=Lax$`));
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('makes it __Host- and Secure with SECURE_COOKIES=true, and reads it only under that name (ASVS V3.3.1)', async () => {
    const { site, port } = await start({ SECURE_COOKIES: 'true' });
    await addPeople(site, [{ ...ADA, grants: [{ siteId: '*', role: 'support' }] }]);
    const reply = await signInWithPassword(port, ADA.email, ADA.password);
    const line = (reply.headers['set-cookie'] ?? []).find((cookie) => cookie.includes('site_admin_session='));
    expect(line).toMatch(/^__Host-site_admin_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    expect(line).not.toMatch(/Domain=/i);
    const session = sessionOf(reply, SECURE_SESSION_COOKIE);
    expect(await status(port, '/api/sites', session)).toBe(200);
    // The same id under the plain name is not this server's cookie.
    expect(await status(port, '/api/sites', session?.replace(SECURE_SESSION_COOKIE, SESSION_COOKIE))).toBe(401);
  });

  it('issues a new session id at sign-in and ends the one the browser came with (ASVS V7.2.4)', async () => {
    const { site, port } = await start();
    await addPeople(site, [{ ...ADA, grants: [{ siteId: '*', role: 'support' }] }]);
    const first = await signIn(port, ADA);
    expect(await status(port, '/api/sites', first)).toBe(200);
    const second = await signIn(port, ADA, SESSION_COOKIE, first);
    expect(second).not.toBe(first);
    expect(await status(port, '/api/sites', first)).toBe(401);
    expect(await status(port, '/api/sites', second)).toBe(200);
    // An id the browser was given beforehand (session fixation) is never the one of the session started.
    const planted = `${SESSION_COOKIE}=${'P'.repeat(43)}`;
    const third = await signIn(port, ADA, SESSION_COOKIE, planted);
    expect(third).not.toBe(planted);
    expect(await status(port, '/api/sites', planted)).toBe(401);
  });

  it('signs out this browser only, server-side, and clears its cookie (ASVS V7.4.1)', async () => {
    const { site, port } = await start();
    await addPeople(site, [{ ...ADA, grants: [{ siteId: '*', role: 'support' }] }]);
    const here = await signIn(port, ADA);
    const elsewhere = await signIn(port, ADA);
    const out = await call(port, '/api/sign-out', here, 'POST');
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']).toEqual([`${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`]);
    // The id itself is ended, not only the cookie: a copy of it is refused.
    expect(await status(port, '/api/sites', here)).toBe(401);
    expect(await status(port, LOOKUP('harbour-linen'), here)).toBe(401);
    expect(await status(port, '/api/sites', elsewhere)).toBe(200);
    // Signing out from another site's page is refused.
    const forged = await send(port, {
      method: 'POST',
      path: '/api/sign-out',
      headers: { cookie: elsewhere, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(await status(port, '/api/sites', elsewhere)).toBe(200);
  });

  it('signs out everywhere: every session of that person ends, nobody else’s (ASVS V7.5.2)', async () => {
    const { site, port } = await start();
    await addPeople(site, [
      { ...ADA, grants: [{ siteId: '*', role: 'support' }] },
      { ...BEA, grants: [{ siteId: '*', role: 'support' }] },
    ]);
    const laptop = await signIn(port, ADA);
    const phone = await signIn(port, ADA);
    const bea = await signIn(port, BEA);
    expect((await call(port, '/api/sign-out/everywhere', phone, 'POST')).status).toBe(204);
    expect(await status(port, '/api/sites', laptop)).toBe(401);
    expect(await status(port, '/api/sites', phone)).toBe(401);
    expect(await status(port, '/api/sites', bea)).toBe(200);
    // Without a session there is nobody to sign out everywhere.
    expect((await call(port, '/api/sign-out/everywhere', undefined, 'POST')).status).toBe(401);
  });

  it('ends a session left unused for the idle time-out, and keeps one in use alive until then (ASVS V7.3.1)', async () => {
    const { site, port } = await start();
    await addPeople(site, [{ ...ADA, grants: [{ siteId: '*', role: 'support' }] }]);
    const session = await signIn(port, ADA);
    clock = T + IDLE - MINUTE;
    expect(await status(port, '/api/sites', session)).toBe(200);
    // Used a minute before it would have ended: it runs for another idle time-out from then.
    clock = T + 2 * IDLE - 3 * MINUTE;
    expect(await status(port, LOOKUP('harbour-linen'), session)).toBe(404);
    clock += IDLE;
    expect(await status(port, '/api/sites', session)).toBe(401);
    expect(await status(port, LOOKUP('harbour-linen'), session)).toBe(401);
  });

  it('ends a session at the absolute time-out however much it is used (ASVS V7.3.2)', async () => {
    const { site, port } = await start();
    await addPeople(site, [{ ...ADA, grants: [{ siteId: '*', role: 'support' }] }]);
    const session = await signIn(port, ADA);
    for (clock = T + HOUR; clock < T + ABSOLUTE; clock += HOUR)
      expect(await status(port, '/api/sites', session), `${clock - T} ms`).toBe(200);
    clock = T + ABSOLUTE - 1;
    expect(await status(port, '/api/sites', session)).toBe(200);
    clock = T + ABSOLUTE;
    expect(await status(port, '/api/sites', session)).toBe(401);
    // A new sign-in starts a new session, with its own twelve hours.
    expect(await status(port, '/api/sites', await signIn(port, ADA))).toBe(200);
  });

  it('refuses a person disabled mid-session at their very next request, and a sign-in while disabled (ASVS V7.4.2)', async () => {
    const { site, port } = await start();
    const [adaId] = await addPeople(site, [{ ...ADA, grants: [{ siteId: '*', role: 'editor' }] }]);
    const session = await signIn(port, ADA);
    expect(await status(port, LOOKUP('harbour-linen'), session)).toBe(404);
    clock += MINUTE;
    await site.accounts.people.setDisabled(adaId!, true, clock);
    expect(await status(port, LOOKUP('harbour-linen'), session)).toBe(401);
    expect(await status(port, '/api/sites', session)).toBe(401);
    expect((await signInWithPassword(port, ADA.email, ADA.password)).status).toBe(401);
    // Enabled again, they sign in anew: the session of before stays ended.
    await site.accounts.people.setDisabled(adaId!, false, clock);
    expect(await status(port, '/api/sites', session)).toBe(401);
    expect(await status(port, '/api/sites', await signIn(port, ADA))).toBe(200);
  });

  it('gives a session a new id at the next request after the person’s grants change, answers by the new grants, and lets the old id work only for 10 s', async () => {
    const { site, port } = await start();
    const [adaId] = await addPeople(site, [{ ...ADA, grants: [{ siteId: 'harbour-linen', role: 'editor' }] }]);
    const old = await signIn(port, ADA);
    expect(await status(port, LOOKUP('harbour-linen'), old)).toBe(404);
    const before = await call(port, LOOKUP('summit-outfitters'), old);
    expect(before.status).toBe(403);
    expect(JSON.parse(before.text)).toMatchObject({
      message: 'You have no role on Summit Outfitters: ask an owner of site-admin for one.',
    });

    clock += MINUTE;
    await site.accounts.people.setGrants(adaId!, [{ siteId: 'summit-outfitters', role: 'support' }], clock);
    const next = await call(port, LOOKUP('summit-outfitters'), old);
    expect(next.status).toBe(404);
    const renewed = sessionOf(next);
    expect(renewed).toBeDefined();
    expect(renewed).not.toBe(old);
    const create = await call(port, CREATE('summit-outfitters'), renewed, 'POST', { name: 'Tent', enabled: 'true' });
    expect(create.status).toBe(403);
    expect(errorShapeProblems(403, create.headers['content-type'], create.text)).toEqual([]);
    expect(JSON.parse(create.text)).toMatchObject({ message: 'You may look up cases on Summit Outfitters but not create products there.' });
    expect(create.headers['x-platform-status']).toBeUndefined();
    expect((await call(port, LOOKUP('harbour-linen'), renewed)).status).toBe(403);
    const listed = JSON.parse((await call(port, '/api/sites', renewed)).text) as { sites: { id: string; can: string[] }[] };
    expect(listed.sites.map(({ id, can }) => ({ id, can }))).toEqual([{ id: 'summit-outfitters', can: ['lookup'] }]);

    // A request already on its way with the old id is answered, by the new grants, for 10 s; then it is refused.
    clock += 9_000;
    const late = await call(port, LOOKUP('harbour-linen'), old);
    expect([late.status, sessionOf(late)]).toEqual([403, undefined]);
    clock += 1_000;
    expect(await status(port, '/api/sites', old)).toBe(401);
    expect(await status(port, '/api/sites', renewed)).toBe(200);
  });

  it('takes a person disabled or given other grants on one instance into account on another sharing the database, at the next request', async () => {
    const database = await freshDatabase();
    const a = await start({}, database);
    const b = await start({}, database);
    const [adaId, beaId] = await addPeople(a.site, [
      { ...ADA, grants: [{ siteId: '*', role: 'editor' }] },
      { ...BEA, grants: [{ siteId: '*', role: 'editor' }] },
    ]);
    const ada = await signIn(a.port, ADA);
    const bea = await signIn(b.port, BEA);
    // A session started on one instance is good on the other.
    expect(await status(b.port, LOOKUP('summit-outfitters'), ada)).toBe(404);
    expect(await status(a.port, LOOKUP('summit-outfitters'), bea)).toBe(404);

    clock += MINUTE;
    await a.site.accounts.people.setDisabled(adaId!, true, clock);
    await a.site.accounts.people.setGrants(beaId!, [{ siteId: 'harbour-linen', role: 'support' }], clock);
    expect(await status(b.port, LOOKUP('summit-outfitters'), ada)).toBe(401);
    const renewed = await call(b.port, LOOKUP('summit-outfitters'), bea);
    expect(renewed.status).toBe(403);
    expect(sessionOf(renewed)).toBeDefined();
    expect(await status(a.port, LOOKUP('harbour-linen'), sessionOf(renewed))).toBe(404);
  });

  it('with ADMIN_USER and ADMIN_PASSWORD creates an owner of every site, who signs in with them', async () => {
    const { port } = await start({ ADMIN_USER: ADA.email, ADMIN_PASSWORD: ADA.password });
    const reply = await signInWithPassword(port, ADA.email, ADA.password);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({
      me: { email: ADA.email, grants: [{ siteId: '*', role: 'owner' }], managesPeople: true },
    });
  });

  it('with ADMIN_USER and a new ADMIN_PASSWORD updates that owner’s password and ends the sessions of the old one; the same password keeps them', async () => {
    const database = await freshDatabase();
    const first = await start({ ADMIN_USER: ADA.email, ADMIN_PASSWORD: ADA.password }, database);
    const session = await signIn(first.port, ADA);
    await stop(first);

    const same = await start({ ADMIN_USER: ADA.email, ADMIN_PASSWORD: ADA.password }, database);
    expect(await status(same.port, '/api/sites', session)).toBe(200);
    await stop(same);

    const changed = await start({ ADMIN_USER: ADA.email, ADMIN_PASSWORD: 'the new passphrase of the owner' }, database);
    expect(await status(changed.port, '/api/sites', session)).toBe(401);
    expect((await signInWithPassword(changed.port, ADA.email, ADA.password)).status).toBe(401);
    expect((await signInWithPassword(changed.port, ADA.email, 'the new passphrase of the owner')).status).toBe(200);
  });

  it('with ADMIN_USER enables that owner again and gives back the owner’s grant, keeping their other grants', async () => {
    const database = await freshDatabase();
    const first = await start({}, database);
    const [adaId] = await addPeople(first.site, [{ ...ADA, grants: [{ siteId: 'harbour-linen', role: 'support' }], disabled: true }]);
    await stop(first);
    const { site, port } = await start({ ADMIN_USER: ADA.email, ADMIN_PASSWORD: ADA.password }, database);
    expect((await signInWithPassword(port, ADA.email, ADA.password)).status).toBe(200);
    expect(await site.accounts.people.grantsOf(adaId!)).toEqual([
      { siteId: '*', role: 'owner' },
      { siteId: 'harbour-linen', role: 'support' },
    ]);
  });

  it('refuses to start on a HOST other machines can reach while nobody active can sign in, and starts once someone can', async () => {
    const database = await freshDatabase();
    await expect(start({ HOST: '0.0.0.0' }, database)).rejects.toThrow(ConfigError);
    await expect(start({ HOST: '0.0.0.0' }, database)).rejects.toThrow(/HOST is 0\.0\.0\.0.*nobody can sign in/);
    // A disabled person is nobody who can sign in.
    const local = await start({}, database);
    const [adaId] = await addPeople(local.site, [{ ...ADA, disabled: true }]);
    await stop(local);
    await expect(start({ HOST: '0.0.0.0' }, database)).rejects.toThrow(/nobody can sign in/);
    const again = await start({}, database);
    await again.site.accounts.people.setDisabled(adaId!, false, clock);
    await stop(again);
    const reachable = await start({ HOST: '0.0.0.0' }, database);
    // Off loopback there is no local demo: a site's call needs a session.
    expect(await status(reachable.port, LOOKUP('harbour-linen'))).toBe(401);
    expect(await status(reachable.port, '/api/health')).toBe(200);
  });
});
