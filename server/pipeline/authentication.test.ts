/**
 * The authentication step with real accounts on a real database (both engines): the local demo on loopback
 * while nobody is in the database; after that, 401 for a site's call or our own API without a session,
 * the public endpoints and the app's pages answered all the same, and a session's person noted as who asks.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAccounts, type Accounts } from '../auth/accounts';
import { createLoginThrottle } from '../auth/login-throttle';
import { SESSION_COOKIE } from '../auth/session-cookie';
import { signInEndpoints } from '../auth/sign-in-endpoints';
import { openDatabase, type AppDatabase } from '../db/open';
import { describeEachEngine } from '../testing/postgres';
import { createOwnApi } from '../own-api';
import { errorShapeProblems, send, serveSteps } from '../testing/test-helpers';
import { authenticate } from './authentication';

const T = Date.UTC(2026, 10, 1, 9);
const SESSIONS = { idleMs: 2 * 3_600_000, absoluteMs: 12 * 3_600_000, secureCookies: false };
const SITE_CALL = '/api/s/main/site/v2/forms/3/cases/48217';

describeEachEngine('authentication', (_engine, freshDatabase) => {
  let database: AppDatabase;
  let accounts: Accounts;
  let served: Awaited<ReturnType<typeof serveSteps>>;

  /** The step on a server of its own, with this server's real table of our own endpoints. */
  const serve = async (demoAllowed: boolean) => {
    accounts = createAccounts({ database, sessions: SESSIONS, demoAllowed, now: () => T, sites: [] });
    const ownApi = createOwnApi(
      signInEndpoints({
        accounts,
        throttle: createLoginThrottle({ deviceKey: randomBytes(32) }),
        sites: [],
        ways: { options: () => Promise.resolve({ passkey: false, singleSignOn: null, demoPeople: [] }) },
      }),
    );
    served = await serveSteps(authenticate((req, res) => accounts.identify(req, res), ownApi));
  };
  const addPerson = async () => {
    const added = await accounts.people.add({ email: 'ada@example.com', displayName: 'Ada', now: T });
    if (!added.ok) throw new Error('could not add Ada');
    return added.person.id;
  };
  const learnt = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const reply = await send(served.port, { method, path, headers });
    return {
      status: reply.status,
      text: reply.text,
      who: reply.status === 200 ? (JSON.parse(reply.text) as { who?: unknown }).who : undefined,
    };
  };

  beforeEach(async () => {
    database = await openDatabase(await freshDatabase());
  });
  afterEach(async () => {
    await served.close();
    await database.close();
  });

  it('lets everything through as the local demo on loopback while nobody is in the database', async () => {
    await serve(true);
    for (const path of [SITE_CALL, '/api/sites', '/api/health', '/cases']) {
      const reply = await learnt(path);
      expect(reply.status, path).toBe(200);
    }
    expect((await learnt(SITE_CALL)).who).toEqual({ kind: 'demo' });
    expect((await learnt('/api/sites')).who).toEqual({ kind: 'demo' });
  });

  it('ends the demo once someone is in the database: a site’s call and our own API get 401 without a session', async () => {
    await serve(true);
    await addPerson();
    for (const [method, path] of [
      ['GET', SITE_CALL],
      ['GET', '/api/sites'],
      ['HEAD', '/api/sites'],
      ['POST', '/api/sign-out/everywhere'],
      ['GET', '/api/nope'],
    ] as const) {
      const reply = await send(served.port, { method, path });
      expect(reply.status, `${method} ${path}`).toBe(401);
      if (method !== 'HEAD') expect(errorShapeProblems(401, reply.headers['content-type'], reply.text), path).toEqual([]);
    }
    // A cookie that names no session is no session.
    expect((await learnt('/api/sites', { cookie: `${SESSION_COOKIE}=${'x'.repeat(43)}` })).status).toBe(401);
  });

  it('asks for a sign-in off loopback even with nobody in the database (no demo there)', async () => {
    await serve(false);
    expect((await learnt(SITE_CALL)).status).toBe(401);
    expect((await learnt('/api/sites')).status).toBe(401);
  });

  it('answers the public endpoints and serves the pages to anyone, as nobody', async () => {
    await serve(true);
    await addPerson();
    for (const [method, path] of [
      ['GET', '/api/health'],
      ['GET', '/api/sign-in'],
      ['POST', '/api/sign-in/password'],
      ['POST', '/api/sign-out'],
    ] as const) {
      const reply = await learnt(path, {}, method);
      expect(reply.status, `${method} ${path}`).toBe(200);
      expect(reply.who, path).toEqual({ kind: 'nobody' });
    }
    // Only these: a query string or another method makes another endpoint, or none.
    expect((await learnt('/api/sign-in/password')).status).toBe(401);
    for (const path of ['/', '/cases', '/products/new', '/assets/app.js']) {
      const reply = await learnt(path);
      expect(reply.status, path).toBe(200);
      expect(reply.who, path).toBeUndefined();
    }
  });

  it('notes the person of a live session as who asks', async () => {
    await serve(true);
    const personId = await addPerson();
    await accounts.people.setGrants(personId, [{ siteId: 'main', role: 'support' }], T);
    const { id } = await accounts.sessions.create({
      personId,
      now: T,
      idleMs: SESSIONS.idleMs,
      absoluteMs: SESSIONS.absoluteMs,
      grantsAt: T,
    });
    const reply = await learnt(SITE_CALL, { cookie: `other=1; ${SESSION_COOKIE}=${id}` });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.who).toMatchObject({
      kind: 'person',
      id: personId,
      email: 'ada@example.com',
      grants: [{ siteId: 'main', role: 'support' }],
    });
    // The same id under the name of the secure cookie is not this server's cookie.
    expect((await learnt(SITE_CALL, { cookie: `__Host-${SESSION_COOKIE}=${id}` })).status).toBe(401);
  });
});
