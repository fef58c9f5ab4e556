/**
 * People, their sessions and what they may do, as the server's pipeline and our own endpoints need them:
 * who a request is from (`identify`), a session started or ended, the person and sites the browser is
 * told of. A session found is kept in memory only until the database marks a change that may concern it,
 * which every instance hears before answering its next request (db/session-changes.ts), so a person
 * disabled or given other grants (on any instance, or by the people command) is treated so at their very
 * next request.
 *
 * With nobody in the database and the server on loopback, there is no sign-in at all: the local demo of
 * `npm install && npm start`. Once a person exists, every instance asks everyone to sign in.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ALL_SITES, capabilitiesOfAsker, managesPeople, type Asker, type Capability, type Me } from '../../src/contract/access';
import type { SignInAnswer } from '../../src/contract/sign-in-answers';
import type { SiteInfo } from '../../src/contract/site-info';
import { adminDisplayName, ConfigError, type ServerConfig } from '../config';
import type { AppDatabase } from '../db/open';
import { createPeopleStore } from '../db/people-store';
import { createSessionLookup, createSessionStore } from '../db/session-store';
import { createRoleCapabilityStore } from '../db/role-capability-store';
import { createSettingsStore } from '../db/settings-store';
import type { Identity } from '../identity';
import { hashPassword, needsRehash, verifyPassword } from './password-hash';
import { clearSessionCookie, sessionIdOf, setSessionCookie, type CookieSetting } from './session-cookie';

/** A session's use is written down at most this often (its idle time-out moves on with it). */
const TOUCH_INTERVAL_MS = 60_000;
/** After a new id is issued (grants changed), the old one still works this long, for requests already on their way. */
const ROTATION_GRACE_MS = 10_000;

/** What happens to sessions, for the activity record (server/activity): told by `record`. */
export interface AccountEvent {
  action: 'sign-in' | 'sign-in.failed' | 'sign-out' | 'session.expired' | 'person.changed';
  /** Who, when known (a failed sign-in at an address nobody has is anonymous). */
  person?: { id: string; name: string };
  /** The way in: 'password', 'passkey', 'password+passkey', 'single-sign-on'. */
  method?: string;
  /** Why a sign-in failed, in a word: 'wrong-password', 'throttled', ... */
  reason?: string;
  /** For person.changed: whom it changed (the actor is `person`). */
  subject?: { id: string; name: string; email: string };
  /** For person.changed: what, in a word ('invited', 'grants', 'disabled', 'enabled', 'reset', 'signed-out', 'second-factor-rule'), and its details. */
  change?: string;
  detail?: Record<string, unknown>;
  req?: IncomingMessage;
}

/** A site as `GET /api/sites` lists it to one person: what they may do on it. */
export type SiteFor = SiteInfo & { can: Capability[] };

export interface AccountsOptions {
  database: AppDatabase;
  sessions: ServerConfig['sessions'];
  /** The server listens on loopback only: with nobody in the database, no sign-in (the local demo). */
  demoAllowed: boolean;
  /** The clock; Date.now unless a test moves it. */
  now?: () => number;
  /** The sites this server works on, for the sites a person who has just signed in may use. */
  sites: readonly SiteInfo[];
}

export function createAccounts(options: AccountsOptions) {
  const { db } = options.database;
  const lookUpSession = createSessionLookup(options.database);
  const people = createPeopleStore(db);
  const sessions = createSessionStore(db);
  const settings = createSettingsStore(db);
  const roleCapabilities = createRoleCapabilityStore(db);
  const cookie: CookieSetting = { secure: options.sessions.secureCookies };
  const { idleMs, absoluteMs } = options.sessions;
  const now = options.now ?? Date.now;
  // The demo lasts until the first person is added (by anyone, on any instance); then never again.
  let demo = options.demoAllowed;
  let recorder: ((event: AccountEvent) => Promise<void>) | undefined;

  /** Tells the activity record; a record that cannot be written is logged, and the sign-in goes on. */
  async function record(event: AccountEvent): Promise<void> {
    if (!recorder) return;
    await recorder(event).catch((error: unknown) => console.error('site-admin: the activity record could not take a sign-in event', error));
  }

  /** The sites `who` may use, each with what they may do on it; in the demo, every site with everything. */
  function sitesFor(who: Asker, sites: readonly SiteInfo[]): SiteFor[] {
    return sites.flatMap((site) => {
      const can = capabilitiesOfAsker(who, site.id);
      return can.length > 0 ? [{ ...site, can }] : [];
    });
  }

  const changes = options.database.sessionChanges;
  /** The generation of session changes (db/session-changes.ts) under which nobody was counted last. */
  let nobodyAt: number | undefined;

  async function inDemo(): Promise<boolean> {
    if (!demo) return false;
    // A person added anywhere is a marked change: until one is heard, nobody is still nobody, without
    // counting on every request (on PostgreSQL a round trip of its own).
    const generation = await changes.settle();
    if (generation !== undefined && generation === nobodyAt) return true;
    if ((await people.count()) > 0) {
      demo = false;
      return false;
    }
    if (changes.current() === generation) nobodyAt = generation;
    return true;
  }

  return {
    people,
    sessions,
    settings,
    /** The owners' overrides of what each role may do on a site. */
    roleCapabilities,
    cookie,
    now,

    /** Whether this server is in the local demo right now (no sign-in). */
    inDemo,

    /** Where sign-ins, sign-outs and expiries are told (the activity record). */
    recordWith(fn: (event: AccountEvent) => Promise<void>) {
      recorder = fn;
    },
    record,

    /**
     * Removes the sessions that have ended by now, telling the record of each (an expiry nobody saw
     * happen is recorded when it is cleared away). Resolves to how many.
     */
    async clearEndedSessions(): Promise<number> {
      const t = now();
      const ended = await sessions.endedBy(t);
      const removed = await sessions.deleteExpired(t);
      for (const session of ended) {
        await record({ action: 'session.expired', person: { id: session.personId, name: session.displayName }, method: session.method });
      }
      return removed;
    },

    /**
     * Who `req` is from. A session whose person's grants changed since it was issued gets a new id here (set
     * on `res`); one unused for a while is marked used, unless the ask is not a use (`asUse: false`: a page's
     * background ask).
     */
    async identify(req: IncomingMessage, res: ServerResponse, options?: { asUse?: boolean }): Promise<Identity> {
      if (await inDemo()) return { kind: 'demo' };
      const id = sessionIdOf(req, cookie);
      if (!id) return { kind: 'nobody' };
      const t = now();
      const found = await lookUpSession.find(id, t);
      if (!found) return { kind: 'nobody' };
      const { session, grants, overrides } = found;
      let sessionId = id;
      if (session.grantsChangedAt > session.grantsAt) {
        const next = await sessions.rotate(id, t, session.grantsChangedAt, ROTATION_GRACE_MS);
        if (!next) return { kind: 'nobody' };
        setSessionCookie(res, next, session.expiresAt - t, cookie);
        sessionId = next;
      } else if (options?.asUse !== false && t - session.lastSeenAt >= TOUCH_INTERVAL_MS) {
        // In memory first: the requests that arrive while the touch is written (on PostgreSQL, a round trip
        // that waits for the row) would otherwise each touch the same row again.
        lookUpSession.touching(id, t, idleMs);
        if (!(await sessions.touch(id, t, idleMs))) lookUpSession.forget(id);
      }
      return {
        kind: 'person',
        id: session.personId,
        email: session.email,
        displayName: session.displayName,
        grants,
        overrides,
        session,
        sessionId,
      };
    },

    /**
     * Starts a session for a person who has just proved who they are: a new id (the session the browser
     * came with, if any, ends: no id chosen before sign-in survives it), in the cookie on `res`.
     */
    async startSession(req: IncomingMessage, res: ServerResponse, personId: string, method: string): Promise<void> {
      const t = now();
      const previous = sessionIdOf(req, cookie);
      if (previous) await sessions.delete(previous);
      const person = await people.get(personId);
      if (!person) throw new Error('No such person.');
      const userAgent = req.headers['user-agent']?.slice(0, 300) ?? null;
      const { id } = await sessions.create({
        personId,
        now: t,
        idleMs,
        absoluteMs,
        userAgent,
        address: req.socket.remoteAddress ?? null,
        grantsAt: person.grantsChangedAt,
        method,
      });
      setSessionCookie(res, id, absoluteMs, cookie);
      await record({ action: 'sign-in', person: { id: personId, name: person.displayName }, method, req });
    },

    /** Ends the session the browser holds, and its cookie. */
    async endSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const id = sessionIdOf(req, cookie);
      const session = id ? await sessions.get(id, now()) : undefined;
      if (id) await sessions.delete(id);
      clearSessionCookie(res, cookie);
      if (session)
        await record({ action: 'sign-out', person: { id: session.personId, name: session.displayName }, method: session.method, req });
    },

    /** What the browser is told of who it is. */
    meOf(identity: Identity): Me | null {
      if (identity.kind === 'demo') return { kind: 'demo' };
      if (identity.kind === 'nobody') return null;
      const { id, email, displayName, grants } = identity;
      return { kind: 'person', id, email, displayName, grants, managesPeople: managesPeople(grants) };
    },

    /** What the browser is told of a person who has just signed in. */
    async meOfPerson(personId: string): Promise<Me> {
      const person = await people.get(personId);
      if (!person) throw new Error('No such person.');
      const grants = await people.grantsOf(personId);
      return {
        kind: 'person',
        id: person.id,
        email: person.email,
        displayName: person.displayName,
        grants,
        managesPeople: managesPeople(grants),
      };
    },

    /** The sites `identity` may use, each with what they may do on it; in the demo, every site with everything. */
    sitesFor,

    /**
     * The answer to a sign-in that has just started `personId`'s session: who they are and the sites they may
     * use, as `GET /api/sites` would answer them, so that the page goes on without asking for them again (a
     * round trip fewer between Sign in and the page, 0.56 s on a slow mobile network).
     */
    async signedInAnswer(personId: string): Promise<SignInAnswer> {
      const [me, overrides] = await Promise.all([this.meOfPerson(personId), roleCapabilities.list()]);
      const grants = me.kind === 'person' ? me.grants : [];
      return { result: 'signed-in', me, sites: sitesFor({ kind: 'person', grants, overrides }, options.sites) };
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

/**
 * At start: ADMIN_USER and ADMIN_PASSWORD (the shared login of earlier versions) become an owner of every
 * site, created or brought up to date (active, that password, an owner of every site); then a server that
 * other machines can reach must have someone who can sign in.
 */
export async function prepareAccounts(accounts: Accounts, config: Pick<ServerConfig, 'adminOwner' | 'host'>, loopback: boolean) {
  const t = accounts.now();
  const admin = config.adminOwner;
  if (admin) {
    const existing = await accounts.people.getByEmail(admin.email);
    let personId: string;
    if (!existing) {
      const added = await accounts.people.add({
        email: admin.email,
        displayName: adminDisplayName(admin.email),
        passwordHash: await hashPassword(admin.password),
        now: t,
      });
      if (!added.ok) throw new Error(`ADMIN_USER ${admin.email} could not be added.`);
      personId = added.person.id;
    } else {
      personId = existing.id;
      const same = existing.passwordHash !== null && (await verifyPassword(existing.passwordHash, admin.password));
      if (!same || (existing.passwordHash !== null && needsRehash(existing.passwordHash))) {
        await accounts.people.setPasswordHash(personId, await hashPassword(admin.password), t);
        // A changed password ends the sessions started with the old one.
        if (!same) await accounts.sessions.deleteAllOf(personId);
      }
      if (existing.disabledAt !== null) await accounts.people.setDisabled(personId, false, t);
    }
    const grants = await accounts.people.grantsOf(personId);
    if (!grants.some((grant) => grant.siteId === ALL_SITES && grant.role === 'owner')) {
      await accounts.people.setGrants(
        personId,
        [...grants.filter((grant) => grant.siteId !== ALL_SITES), { siteId: ALL_SITES, role: 'owner' }],
        t,
      );
    }
  }
  if (!loopback && (await accounts.people.count({ active: true })) === 0) {
    throw new ConfigError(
      `HOST is ${config.host}, which other machines can reach, and nobody can sign in: add a person with ` +
        '"npm run people -- add", or set ADMIN_USER and ADMIN_PASSWORD, or keep HOST on loopback (127.0.0.1).',
    );
  }
}
