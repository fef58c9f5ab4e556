/**
 * The people and session stores, on SQLite and PostgreSQL alike: what the sign-in, the People page and
 * every request's session check will rely on.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './open';
import { createPeopleStore, type PeopleStore } from './people-store';
import { describeEachEngine } from '../testing/postgres';
import { ALL_SITES } from './schema';
import { secretTokenHash } from './secret-token';
import { createSessionStore, type SessionStore } from './session-store';

const T = Date.UTC(2026, 10, 1, 9);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const IDLE = 2 * HOUR;
const ABSOLUTE = 12 * HOUR;

describeEachEngine('the stores', (_engine, freshDatabase) => {
  let database: AppDatabase;
  let people: PeopleStore;
  let sessions: SessionStore;

  beforeEach(async () => {
    database = await openDatabase(await freshDatabase());
    people = createPeopleStore(database.db);
    sessions = createSessionStore(database.db);
  });
  afterEach(async () => {
    await database.close();
  });

  const addPerson = async (email: string, name = 'Someone') => {
    const added = await people.add({ email, displayName: name, now: T });
    if (!added.ok) throw new Error(`could not add ${email}`);
    return added.person;
  };
  const startSession = (personId: string, now = T) =>
    sessions.create({ personId, now, idleMs: IDLE, absoluteMs: ABSOLUTE, userAgent: 'Chromium', address: '127.0.0.1' });

  it('adds a person, active, and finds them by id and by e-mail address in any case', async () => {
    const ada = await addPerson(' Ada.Lovelace@Example.com ', ' Ada ');
    expect(ada).toMatchObject({
      email: 'Ada.Lovelace@Example.com',
      displayName: 'Ada',
      disabledAt: null,
      passwordHash: null,
      createdAt: T,
    });
    expect(await people.get(ada.id)).toEqual(ada);
    expect(await people.getByEmail('ADA.LOVELACE@example.COM')).toEqual(ada);
    expect(await people.getByEmail('someone.else@example.com')).toBeUndefined();
  });

  it('refuses a second person with the same e-mail address, whatever its case', async () => {
    await addPerson('ada@example.com');
    expect(await people.add({ email: 'ADA@Example.com', displayName: 'Imposter', now: T })).toEqual({ ok: false, reason: 'email-taken' });
    expect(await people.add({ email: 'Ädä@example.com', displayName: 'Ädä', now: T })).toMatchObject({ ok: true });
    expect(await people.add({ email: 'äDÄ@EXAMPLE.COM', displayName: 'Again', now: T })).toEqual({ ok: false, reason: 'email-taken' });
    expect(await people.count()).toBe(2);
  });

  it('lists and counts people, and disables and enables one', async () => {
    const bea = await addPerson('bea@example.com');
    const ada = await addPerson('ada@example.com');
    expect((await people.list()).map((p) => p.email)).toEqual(['ada@example.com', 'bea@example.com']);
    expect(await people.setDisabled(bea.id, true, T + MINUTE)).toBe(true);
    expect(await people.get(bea.id)).toMatchObject({ disabledAt: T + MINUTE, updatedAt: T + MINUTE });
    expect(await people.count()).toBe(2);
    expect(await people.count({ active: true })).toBe(1);
    expect(await people.setDisabled(bea.id, false, T + 2 * MINUTE)).toBe(true);
    expect(await people.count({ active: true })).toBe(2);
    expect(await people.setDisabled('no-such-person', true, T)).toBe(false);
    expect(await people.setPasswordHash(ada.id, '$argon2id$v=19$stand-in', T + MINUTE)).toBe(true);
    expect(await people.get(ada.id)).toMatchObject({ passwordHash: '$argon2id$v=19$stand-in' });
  });

  it('sets a person’s grants as a whole, one role per site, on a site or on all sites', async () => {
    const ada = await addPerson('ada@example.com');
    const bea = await addPerson('bea@example.com');
    await people.setGrants(
      ada.id,
      [
        { siteId: 'harbour', role: 'editor' },
        { siteId: 'summit', role: 'support' },
      ],
      T + MINUTE,
    );
    await people.setGrants(bea.id, [{ siteId: ALL_SITES, role: 'owner' }], T);
    expect(await people.grantsOf(ada.id)).toEqual([
      { siteId: 'harbour', role: 'editor' },
      { siteId: 'summit', role: 'support' },
    ]);
    expect(await people.get(ada.id)).toMatchObject({ updatedAt: T + MINUTE });
    // Replacing: the grants not given again are gone; the last role given for a site counts.
    await people.setGrants(
      ada.id,
      [
        { siteId: 'summit', role: 'support' },
        { siteId: 'summit', role: 'editor' },
      ],
      T + 2 * MINUTE,
    );
    expect(await people.grantsOf(ada.id)).toEqual([{ siteId: 'summit', role: 'editor' }]);
    await people.setGrants(ada.id, [], T + 3 * MINUTE);
    expect(await people.grantsOf(ada.id)).toEqual([]);
    expect(await people.grantsOf(bea.id)).toEqual([{ siteId: '*', role: 'owner' }]);
  });

  it('refuses a grant of a role that does not exist, or for nobody', async () => {
    const ada = await addPerson('ada@example.com');
    await expect(
      sql`insert into grants (person_id, site_id, role) values (${ada.id}, 'harbour', 'admin')`.execute(database.db),
    ).rejects.toThrow();
    await expect(people.setGrants('no-such-person', [{ siteId: 'harbour', role: 'editor' }], T)).rejects.toThrow();
  });

  it('keeps only the hash of a session id, and finds the session with its person by the id', async () => {
    const ada = await addPerson('ada@example.com', 'Ada');
    const { id, session } = await startSession(ada.id);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    const stored = await sql<{ id_hash: string }>`select id_hash from sessions`.execute(database.db);
    expect(stored.rows).toEqual([{ id_hash: secretTokenHash(id) }]);
    expect(JSON.stringify(stored.rows)).not.toContain(id);
    expect(session).toMatchObject({ personId: ada.id, idleExpiresAt: T + IDLE, expiresAt: T + ABSOLUTE, userAgent: 'Chromium' });
    expect(await sessions.get(id, T + MINUTE)).toMatchObject({ personId: ada.id, email: 'ada@example.com', displayName: 'Ada' });
    expect(await sessions.get(secretTokenHash(id), T + MINUTE)).toBeUndefined();
    const other = await startSession(ada.id);
    expect(other.id).not.toBe(id);
  });

  it('ends a session after the idle time-out, unless touched, and at the absolute one whatever happens', async () => {
    const ada = await addPerson('ada@example.com');
    const { id } = await startSession(ada.id);
    expect(await sessions.get(id, T + IDLE - 1)).toBeDefined();
    expect(await sessions.get(id, T + IDLE)).toBeUndefined();
    // Touched within the idle time, it lives on, until the absolute time-out.
    for (let now = T; now < T + ABSOLUTE - MINUTE; now += IDLE - MINUTE) {
      expect(await sessions.touch(id, now, IDLE), `touch at +${(now - T) / MINUTE} min`).toBe(true);
    }
    expect(await sessions.get(id, T + ABSOLUTE - 1)).toMatchObject({ idleExpiresAt: T + ABSOLUTE, expiresAt: T + ABSOLUTE });
    expect(await sessions.get(id, T + ABSOLUTE)).toBeUndefined();
    expect(await sessions.touch(id, T + ABSOLUTE, IDLE)).toBe(false);
    // An ended session is not brought back by a touch.
    const late = await startSession(ada.id);
    expect(await sessions.touch(late.id, T + IDLE + 1, IDLE)).toBe(false);
    expect(await sessions.get(late.id, T + IDLE + 2)).toBeUndefined();
  });

  it('ends the sessions of a person disabled (ASVS V7.4.2): refused at the next look-up, and still once enabled again', async () => {
    const ada = await addPerson('ada@example.com');
    const bea = await addPerson('bea@example.com');
    const { id } = await startSession(ada.id);
    const other = await startSession(bea.id);
    await people.setDisabled(ada.id, true, T + MINUTE);
    expect(await sessions.get(id, T + 2 * MINUTE)).toBeUndefined();
    await people.setDisabled(ada.id, false, T + 3 * MINUTE);
    expect(await sessions.get(id, T + 4 * MINUTE)).toBeUndefined();
    expect(await sessions.get(other.id, T + 4 * MINUTE)).toBeDefined();
  });

  it('lists a person’s sessions in use, and signs out one, all, or all but the current one', async () => {
    const ada = await addPerson('ada@example.com');
    const bea = await addPerson('bea@example.com');
    const first = await startSession(ada.id, T);
    const second = await startSession(ada.id, T + MINUTE);
    const third = await startSession(ada.id, T + 2 * MINUTE);
    const beas = await startSession(bea.id);
    await startSession(ada.id, T - ABSOLUTE); // long over
    expect((await sessions.listOf(ada.id, T + 3 * MINUTE)).map((s) => s.idHash)).toEqual(
      [third, second, first].map((s) => s.session.idHash),
    );
    // By handle: only the person's own.
    expect(await sessions.deleteOne(bea.id, first.session.idHash)).toBe(false);
    expect(await sessions.deleteOne(ada.id, first.session.idHash)).toBe(true);
    expect(await sessions.get(first.id, T + 3 * MINUTE)).toBeUndefined();
    // Everywhere but here.
    expect(await sessions.deleteAllOf(ada.id, { exceptId: third.id })).toBe(2);
    expect(await sessions.get(second.id, T + 3 * MINUTE)).toBeUndefined();
    expect(await sessions.get(third.id, T + 3 * MINUTE)).toBeDefined();
    // Everywhere; another person's sessions stay.
    expect(await sessions.deleteAllOf(ada.id)).toBe(1);
    expect(await sessions.listOf(ada.id, T + 3 * MINUTE)).toEqual([]);
    expect(await sessions.get(beas.id, T + 3 * MINUTE)).toBeDefined();
    expect(await sessions.delete(beas.id)).toBe(true);
    expect(await sessions.delete(beas.id)).toBe(false);
  });

  it('prunes the sessions that have ended, and only those, naming each one’s person first', async () => {
    const ada = await addPerson('ada@example.com', 'Ada');
    const idle = await startSession(ada.id, T - IDLE - MINUTE);
    const current = await startSession(ada.id, T);
    expect(await sessions.endedBy(T)).toEqual([{ personId: ada.id, displayName: 'Ada', method: 'password' }]);
    expect(await sessions.deleteExpired(T)).toBe(1);
    expect(await sessions.endedBy(T)).toEqual([]);
    expect(await sessions.get(current.id, T)).toBeDefined();
    expect(await sessions.get(idle.id, T - IDLE)).toBeUndefined();
  });
});
