/**
 * Your account, People and one-time links through the real server (in-process, over loopback HTTP, on a
 * SQLite database of its own), as a browser would use them: cookies, Origin headers, the spec's error shape.
 */
import { rmSync } from 'node:fs';
import http, { STATUS_CODES } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEOPLE_PATHS, peoplePath } from '../../src/contract/people-paths';
import { STATUS_PHRASES } from '../../src/contract/site-api';
import type { AccountView, InvitedView, LinkDetails, LinkView, PeopleView } from '../../src/contract/people';
import { createSiteAdminServer, type SiteAdminServer } from '../app';
import { loadConfig } from '../config';
import { closeServer, errorShapeProblems, listen, REPO_ROOT, send, tempDir, type Reply } from '../testing/test-helpers';

const OWNER = 'owner@example.com';
const OWNER_PASSWORD = 'lighthouse keeper winter marmalade';
const INVITEE_PASSWORD = 'velvet quarry lantern orchard';
const HOUR = 60 * 60 * 1000;

let site: SiteAdminServer;
let server: http.Server;
let port: number;
let dir: string;
let clock = Date.UTC(2026, 0, 5, 9);

beforeAll(async () => {
  dir = tempDir('site-admin-people-');
  const config = loadConfig({
    SITE_PROFILE: join(REPO_ROOT, 'server', 'site-profile.example.json'),
    SANDBOX_API_KEY: 'demo-key',
    DATA_DIR: dir,
    HOST: '127.0.0.1',
    ADMIN_USER: OWNER,
    ADMIN_PASSWORD: OWNER_PASSWORD,
    LOG_REQUESTS: 'false',
  });
  site = await createSiteAdminServer(config, { now: () => clock });
  server = http.createServer((req, res) => site.handle(req, res));
  port = await listen(server);
});

afterAll(async () => {
  await closeServer(server);
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A browser of its own: its cookies, and the Origin of our pages on every change. */
function browser(userAgent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/130.0 Safari/537.36') {
  const cookies = new Map<string, string>();
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const reply = await send(port, {
      method,
      path,
      headers: {
        'user-agent': userAgent,
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(method === 'GET' ? {} : { origin: `http://127.0.0.1:${port}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of [reply.headers['set-cookie'] ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return reply;
  };
  return {
    call,
    json: async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
      const reply = await call(method, path, body);
      expect(reply.status, reply.text).toBe(status);
      return JSON.parse(reply.text) as T;
    },
    signIn: (email: string, password: string) => call('POST', '/api/sign-in/password', { email, password }),
  };
}

function expectError(reply: Reply, status: number): { message: string; details?: { field: string; message: string }[] } {
  expect(reply.status, reply.text).toBe(status);
  // 409 and 410 are ours, not the spec's: their phrase is the standard one (node's), in the same shape.
  const phrase = STATUS_PHRASES[status] ?? STATUS_CODES[status];
  const problems = errorShapeProblems(status, reply.headers['content-type'], reply.text).filter(
    (problem) => !problem.startsWith('error is'),
  );
  expect(problems).toEqual([]);
  const body = JSON.parse(reply.text) as { error: string; message: string; details?: { field: string; message: string }[] };
  expect(body.error).toBe(phrase);
  return body;
}

const tokenOf = (link: LinkView) => new URL(link.url).hash.slice(1);

async function signedInOwner() {
  const owner = browser();
  expect((await owner.signIn(OWNER, OWNER_PASSWORD)).status).toBe(200);
  return owner;
}

/** Invites a person and lets them choose their password with the link: their browser, signed in. */
async function invitedPerson(owner: ReturnType<typeof browser>, email: string, grants: { siteId: string; role: string }[]) {
  const invited = await owner.json<InvitedView>('POST', PEOPLE_PATHS.people, { email, displayName: 'Pat Rivers', grants }, 201);
  const person = browser(
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1',
  );
  await person.json('POST', PEOPLE_PATHS.linkAccept, { token: tokenOf(invited.link), password: INVITEE_PASSWORD });
  return { person, id: invited.person.id, link: invited.link };
}

describe('Your account', () => {
  it('is only for someone signed in (401 in the error shape)', async () => {
    expectError(await browser().call('GET', PEOPLE_PATHS.account), 401);
  });

  it('shows the person, their grants and their sessions, this one marked, with the device named', async () => {
    const owner = await signedInOwner();
    const other = browser('Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0');
    await other.signIn(OWNER, OWNER_PASSWORD);
    const account = await owner.json<AccountView>('GET', PEOPLE_PATHS.account);
    expect(account).toMatchObject({
      email: OWNER,
      grants: [{ siteId: '*', role: 'owner' }],
      hasPassword: true,
      secondFactorRequired: false,
    });
    const current = account.sessions.filter((session) => session.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ device: 'Chrome on macOS', address: '127.0.0.1', method: 'password' });
    expect(account.sessions.map((session) => session.device)).toContain('Firefox on Linux');
  });

  it('changes the name, refusing an empty one field by field', async () => {
    const owner = await signedInOwner();
    const refused = expectError(await owner.call('PATCH', PEOPLE_PATHS.account, { displayName: '   ' }), 400);
    expect(refused.details).toEqual([{ field: 'displayName', message: 'must not be empty' }]);
    await owner.json('PATCH', PEOPLE_PATHS.account, { displayName: 'Olive Owner' });
    expect((await owner.json<AccountView>('GET', PEOPLE_PATHS.account)).displayName).toBe('Olive Owner');
    const sites = await owner.json<{ me: { displayName: string } }>('GET', '/api/sites');
    expect(sites.me.displayName).toBe('Olive Owner');
  });

  it('signs out one session by its handle, or every other one, and never another person’s', async () => {
    const owner = await signedInOwner();
    const phone = browser('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36');
    await phone.signIn(OWNER, OWNER_PASSWORD);
    const { sessions } = await owner.json<AccountView>('GET', PEOPLE_PATHS.account);
    const phoneSession = sessions.find((session) => session.device === 'Chrome on Android' && !session.current);
    expect(phoneSession).toBeDefined();
    expect((await owner.call('DELETE', peoplePath(PEOPLE_PATHS.accountSession, { handle: phoneSession?.handle ?? '' }))).status).toBe(204);
    expectError(await phone.call('GET', PEOPLE_PATHS.account), 401);
    expectError(await owner.call('DELETE', peoplePath(PEOPLE_PATHS.accountSession, { handle: 'f'.repeat(64) })), 404);

    const laptop = browser();
    await laptop.signIn(OWNER, OWNER_PASSWORD);
    const { ended } = await owner.json<{ ended: number }>('POST', PEOPLE_PATHS.accountSignOutOthers);
    expect(ended).toBeGreaterThanOrEqual(1);
    expectError(await laptop.call('GET', PEOPLE_PATHS.account), 401);
    expect((await owner.json<AccountView>('GET', PEOPLE_PATHS.account)).sessions).toHaveLength(1);
  });

  it('changes the password (ASVS V6.2.3): the current one checked, the new one by the rules, other sessions ended', async () => {
    const owner = await signedInOwner();
    const { person } = await invitedPerson(owner, 'change@example.com', [{ siteId: 'harbour-linen', role: 'support' }]);
    const elsewhere = browser();
    expect((await elsewhere.signIn('change@example.com', INVITEE_PASSWORD)).status).toBe(200);

    const wrong = expectError(
      await person.call('POST', PEOPLE_PATHS.accountPassword, {
        currentPassword: 'not it at all, sorry',
        newPassword: 'copper kettle summer meadow',
      }),
      400,
    );
    expect(wrong.details).toEqual([{ field: 'currentPassword', message: 'This is not your current password.' }]);
    const weak = expectError(
      await person.call('POST', PEOPLE_PATHS.accountPassword, { currentPassword: INVITEE_PASSWORD, newPassword: 'password1' }),
      400,
    );
    expect(weak.details?.every((detail) => detail.field === 'newPassword')).toBe(true);
    expect(weak.details?.map((detail) => detail.message).join(' ')).toMatch(/at least 15 characters/);

    await person.json('POST', PEOPLE_PATHS.accountPassword, {
      currentPassword: INVITEE_PASSWORD,
      newPassword: 'copper kettle summer meadow',
    });
    expectError(await elsewhere.call('GET', PEOPLE_PATHS.account), 401);
    expect((await person.call('GET', PEOPLE_PATHS.account)).status).toBe(200);
    expect((await browser().signIn('change@example.com', INVITEE_PASSWORD)).status).toBe(401);
    expect((await browser().signIn('change@example.com', 'copper kettle summer meadow')).status).toBe(200);
  });

  it('has no account in the local demo to show', async () => {
    const demoDir = tempDir('site-admin-people-demo-');
    const demo = await createSiteAdminServer(loadConfig({ DATA_DIR: demoDir, HOST: '127.0.0.1', LOG_REQUESTS: 'false' }));
    const demoServer = http.createServer((req, res) => demo.handle(req, res));
    const demoPort = await listen(demoServer);
    try {
      const reply = await send(demoPort, { path: PEOPLE_PATHS.account });
      expect(expectError(reply, 409).message).toMatch(/local demo/);
      expectError(await send(demoPort, { path: PEOPLE_PATHS.people }), 409);
    } finally {
      await closeServer(demoServer);
      await demo.close();
      rmSync(demoDir, { recursive: true, force: true });
    }
  });
});

describe('People', () => {
  it('invites a person: a link of 72 hours whose token is only in its fragment, and the person listed as invited', async () => {
    const owner = await signedInOwner();
    const invited = await owner.json<InvitedView>(
      'POST',
      PEOPLE_PATHS.people,
      { email: '  Sam@Example.com ', displayName: 'Sam Shore', grants: [{ siteId: 'summit-outfitters', role: 'editor' }] },
      201,
    );
    const url = new URL(invited.link.url);
    expect(url.origin).toBe(`http://127.0.0.1:${port}`);
    expect(url.pathname).toBe('/invite');
    expect(url.search).toBe('');
    expect(tokenOf(invited.link)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invited.link.expiresAt).toBe(clock + 72 * HOUR);
    // Only the token's hash is kept.
    const stored = await site.database.db.selectFrom('one_time_links').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(tokenOf(invited.link));

    const people = await owner.json<PeopleView>('GET', PEOPLE_PATHS.people);
    expect(people.sites.map((s) => s.id)).toEqual(['harbour-linen', 'summit-outfitters']);
    expect(people.people.find((p) => p.email === 'Sam@Example.com')).toMatchObject({
      status: 'invited',
      hasPassword: false,
      grants: [{ siteId: 'summit-outfitters', role: 'editor' }],
      link: { purpose: 'invitation', expiresAt: clock + 72 * HOUR },
    });
    const again = expectError(
      await owner.call('POST', PEOPLE_PATHS.people, { email: 'sam@example.com', displayName: 'Sam', grants: [] }),
      409,
    );
    expect(again.details).toEqual([{ field: 'email', message: 'is already someone here' }]);
    const badSite = expectError(
      await owner.call('POST', PEOPLE_PATHS.people, {
        email: 'x@example.com',
        displayName: 'X',
        grants: [{ siteId: 'nowhere', role: 'support' }],
      }),
      400,
    );
    expect(badSite.details).toEqual([{ field: 'grants.0.siteId', message: 'is not a site of this server' }]);
    const badEmail = expectError(
      await owner.call('POST', PEOPLE_PATHS.people, { email: 'not an address', displayName: 'X', grants: [] }),
      400,
    );
    expect(badEmail.details?.map((detail) => detail.field)).toEqual(['email']);
  });

  it('refuses every People endpoint to a person who is not an owner of every site (403), changing nothing', async () => {
    const owner = await signedInOwner();
    const { person, id } = await invitedPerson(owner, 'editor@example.com', [
      { siteId: 'harbour-linen', role: 'editor' },
      { siteId: 'summit-outfitters', role: 'owner' },
    ]);
    const calls: [string, string, unknown][] = [
      ['GET', PEOPLE_PATHS.people, undefined],
      ['POST', PEOPLE_PATHS.people, { email: 'sneak@example.com', displayName: 'Sneak', grants: [{ siteId: '*', role: 'owner' }] }],
      ['PATCH', peoplePath(PEOPLE_PATHS.person, { id }), { disabled: true }],
      ['PUT', peoplePath(PEOPLE_PATHS.personGrants, { id }), { grants: [{ siteId: '*', role: 'owner' }] }],
      ['POST', peoplePath(PEOPLE_PATHS.personReset, { id }), undefined],
      ['POST', peoplePath(PEOPLE_PATHS.personSignOut, { id }), undefined],
      ['PUT', PEOPLE_PATHS.secondFactor, { everyone: true, roles: [] }],
    ];
    for (const [method, path, body] of calls) {
      expect(expectError(await person.call(method, path, body), 403).message, `${method} ${path}`).toMatch(/owner of every site/);
    }
    expect((await site.accounts.people.getByEmail('sneak@example.com')) ?? null).toBeNull();
    expect(await site.accounts.people.grantsOf(id)).toEqual([
      { siteId: 'harbour-linen', role: 'editor' },
      { siteId: 'summit-outfitters', role: 'owner' },
    ]);
    expect((await person.call('GET', PEOPLE_PATHS.account)).status).toBe(200);
  });

  it('refuses a change that does not come from our own pages (the same-origin check), changing nothing', async () => {
    const owner = await signedInOwner();
    const forged = await owner.call(
      'POST',
      PEOPLE_PATHS.people,
      { email: 'forged@example.com', displayName: 'Forged', grants: [{ siteId: '*', role: 'owner' }] },
      { origin: 'https://evil.example' },
    );
    expectError(forged, 403);
    const crossSite = await owner.call('PUT', PEOPLE_PATHS.secondFactor, { everyone: true, roles: [] }, { 'sec-fetch-site': 'cross-site' });
    expectError(crossSite, 403);
    expect(await site.accounts.people.getByEmail('forged@example.com')).toBeUndefined();
    expect((await owner.json<PeopleView>('GET', PEOPLE_PATHS.people)).secondFactor.everyone).toBe(false);
  });

  it('sets grants as sites × roles: the person’s sites change at their next request', async () => {
    const owner = await signedInOwner();
    const { person, id } = await invitedPerson(owner, 'grants@example.com', [{ siteId: 'harbour-linen', role: 'support' }]);
    let sites = await person.json<{ sites: { id: string; can: string[] }[] }>('GET', '/api/sites');
    expect(sites.sites.map((s) => [s.id, s.can])).toEqual([['harbour-linen', ['lookup']]]);
    await owner.json('PUT', peoplePath(PEOPLE_PATHS.personGrants, { id }), {
      grants: [
        { siteId: 'harbour-linen', role: 'editor' },
        { siteId: 'summit-outfitters', role: 'support' },
      ],
    });
    sites = await person.json('GET', '/api/sites');
    expect(sites.sites.map((s) => [s.id, s.can])).toEqual([
      ['harbour-linen', ['lookup', 'create', 'export']],
      ['summit-outfitters', ['lookup']],
    ]);
    await owner.json('PUT', peoplePath(PEOPLE_PATHS.personGrants, { id }), { grants: [{ siteId: '*', role: 'support' }] });
    sites = await person.json('GET', '/api/sites');
    expect(sites.sites.map((s) => s.id)).toEqual(['harbour-linen', 'summit-outfitters']);
    expectError(await owner.call('PUT', peoplePath(PEOPLE_PATHS.personGrants, { id: 'nobody' }), { grants: [] }), 404);
  });

  it('disables a person: out at their very next request; enabled again, they sign in afresh', async () => {
    const owner = await signedInOwner();
    const { person, id } = await invitedPerson(owner, 'disable@example.com', [{ siteId: 'harbour-linen', role: 'editor' }]);
    expect((await owner.call('PATCH', peoplePath(PEOPLE_PATHS.person, { id }), { disabled: true })).status).toBe(204);
    expectError(await person.call('GET', '/api/sites'), 401);
    expect((await browser().signIn('disable@example.com', INVITEE_PASSWORD)).status).toBe(401);
    expect((await owner.json<PeopleView>('GET', PEOPLE_PATHS.people)).people.find((p) => p.id === id)?.status).toBe('disabled');
    expect((await owner.call('PATCH', peoplePath(PEOPLE_PATHS.person, { id }), { disabled: false })).status).toBe(204);
    expect((await browser().signIn('disable@example.com', INVITEE_PASSWORD)).status).toBe(200);
  });

  it('never leaves nobody to manage people: an owner cannot disable themselves, nor take the last owner’s role', async () => {
    const owner = await signedInOwner();
    const { id: ownerId } = (await owner.json<{ me: { id: string } }>('GET', '/api/sites')).me;
    expect(
      expectError(await owner.call('PATCH', peoplePath(PEOPLE_PATHS.person, { id: ownerId }), { disabled: true }), 409).message,
    ).toMatch(/cannot disable yourself/);
    const everyOwner = (await owner.json<PeopleView>('GET', PEOPLE_PATHS.people)).people.filter((p) =>
      p.grants.some((g) => g.siteId === '*' && g.role === 'owner'),
    );
    expect(everyOwner.map((p) => p.id)).toEqual([ownerId]);
    const last = expectError(
      await owner.call('PUT', peoplePath(PEOPLE_PATHS.personGrants, { id: ownerId }), { grants: [{ siteId: '*', role: 'editor' }] }),
      409,
    );
    expect(last.message).toMatch(/last active owner/);
    expect(await site.accounts.people.grantsOf(ownerId)).toEqual([{ siteId: '*', role: 'owner' }]);
  });

  it('resets a person: the old password and every session end, and a new link lets them choose another', async () => {
    const owner = await signedInOwner();
    const { person, id, link: first } = await invitedPerson(owner, 'reset@example.com', [{ siteId: 'harbour-linen', role: 'support' }]);
    const reset = await owner.json<LinkView>('POST', peoplePath(PEOPLE_PATHS.personReset, { id }));
    expect(tokenOf(reset)).not.toBe(tokenOf(first));
    expectError(await person.call('GET', '/api/sites'), 401);
    expect((await browser().signIn('reset@example.com', INVITEE_PASSWORD)).status).toBe(401);
    const details = await browser().json<LinkDetails>('POST', PEOPLE_PATHS.link, { token: tokenOf(reset) });
    expect(details).toMatchObject({ purpose: 'reset', email: 'reset@example.com', displayName: 'Pat Rivers' });
    const back = browser();
    await back.json('POST', PEOPLE_PATHS.linkAccept, { token: tokenOf(reset), password: 'amber thistle canyon morning' });
    expect((await back.call('GET', '/api/sites')).status).toBe(200);
    const { id: ownerId } = (await owner.json<{ me: { id: string } }>('GET', '/api/sites')).me;
    expectError(await owner.call('POST', peoplePath(PEOPLE_PATHS.personReset, { id: ownerId })), 409);
  });

  it('signs a person out everywhere', async () => {
    const owner = await signedInOwner();
    const { person, id } = await invitedPerson(owner, 'signout@example.com', [{ siteId: 'harbour-linen', role: 'support' }]);
    const { ended } = await owner.json<{ ended: number }>('POST', peoplePath(PEOPLE_PATHS.personSignOut, { id }));
    expect(ended).toBe(1);
    expectError(await person.call('GET', '/api/sites'), 401);
  });

  it('keeps the owners’ second-factor rule, which the person’s account and link then show', async () => {
    const owner = await signedInOwner();
    const invited = await owner.json<InvitedView>(
      'POST',
      PEOPLE_PATHS.people,
      { email: 'rule@example.com', displayName: 'Rule Person', grants: [{ siteId: 'harbour-linen', role: 'editor' }] },
      201,
    );
    const rule = await owner.json('PUT', PEOPLE_PATHS.secondFactor, { everyone: false, roles: ['editor'] });
    expect(rule).toEqual({ everyone: false, roles: ['editor'] });
    expect((await owner.json<PeopleView>('GET', PEOPLE_PATHS.people)).secondFactor).toEqual({ everyone: false, roles: ['editor'] });
    const details = await browser().json<LinkDetails>('POST', PEOPLE_PATHS.link, { token: tokenOf(invited.link) });
    expect(details.secondFactorRequired).toBe(true);
    expect((await owner.json<AccountView>('GET', PEOPLE_PATHS.account)).secondFactorRequired).toBe(false);
    expectError(await owner.call('PUT', PEOPLE_PATHS.secondFactor, { everyone: 'yes', roles: [] }), 400);
    await owner.json('PUT', PEOPLE_PATHS.secondFactor, { everyone: false, roles: [] });
  });
});

describe('one-time links', () => {
  it('tell who they are for, and choosing a password with one signs the person in, once', async () => {
    const owner = await signedInOwner();
    const invited = await owner.json<InvitedView>(
      'POST',
      PEOPLE_PATHS.people,
      { email: 'link@example.com', displayName: 'Lee Link', grants: [{ siteId: 'harbour-linen', role: 'support' }] },
      201,
    );
    const token = tokenOf(invited.link);
    const invitee = browser();
    const details = await invitee.json<LinkDetails>('POST', PEOPLE_PATHS.link, { token });
    expect(details).toEqual({
      purpose: 'invitation',
      email: 'link@example.com',
      displayName: 'Lee Link',
      secondFactorRequired: false,
      expiresAt: clock + 72 * HOUR,
    });

    const weak = expectError(await invitee.call('POST', PEOPLE_PATHS.linkAccept, { token, password: 'Lee Link site-admin 2026' }), 400);
    expect(weak.details?.map((detail) => detail.field)).toEqual(expect.arrayContaining(['password']));
    expect(weak.message).toMatch(/site-admin/);

    const answer = await invitee.json<{ result: string; me: { email: string } }>('POST', PEOPLE_PATHS.linkAccept, {
      token,
      password: INVITEE_PASSWORD,
    });
    expect(answer).toMatchObject({ result: 'signed-in', me: { email: 'link@example.com' } });
    expect((await invitee.call('GET', '/api/sites')).status).toBe(200);
    expect(expectError(await browser().call('POST', PEOPLE_PATHS.link, { token }), 410).message).toMatch(/used already/);
    expectError(await browser().call('POST', PEOPLE_PATHS.linkAccept, { token, password: 'another long passphrase here' }), 410);
    expect((await owner.json<PeopleView>('GET', PEOPLE_PATHS.people)).people.find((p) => p.email === 'link@example.com')?.status).toBe(
      'active',
    );
  });

  it('answer 404 for a link that never was and 410 once it has expired (72 hours)', async () => {
    const owner = await signedInOwner();
    expect(expectError(await browser().call('POST', PEOPLE_PATHS.link, { token: 'A'.repeat(43) }), 404).message).toMatch(/copied whole/);
    expectError(await browser().call('POST', PEOPLE_PATHS.link, { token: 'short' }), 400);
    const invited = await owner.json<InvitedView>(
      'POST',
      PEOPLE_PATHS.people,
      { email: 'late@example.com', displayName: 'Late', grants: [] },
      201,
    );
    const before = clock;
    clock += 72 * HOUR;
    try {
      expect(expectError(await browser().call('POST', PEOPLE_PATHS.link, { token: tokenOf(invited.link) }), 410).message).toMatch(
        /expired/,
      );
      expectError(await browser().call('POST', PEOPLE_PATHS.linkAccept, { token: tokenOf(invited.link), password: INVITEE_PASSWORD }), 410);
    } finally {
      clock = before;
    }
  });
});
