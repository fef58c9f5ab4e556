/**
 * The passkey store and the store of steps in progress, on SQLite and PostgreSQL alike: what the passkey
 * ceremonies (auth/passkeys.ts) rely on.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from './open';
import { createPasskeyStore, type PasskeyStore } from './passkey-store';
import { createPendingStepStore, type PendingStepStore } from './pending-step-store';
import { createPeopleStore, type PeopleStore } from './people-store';
import { describeEachEngine } from '../testing/postgres';

const T = Date.UTC(2026, 10, 1, 9);
const MINUTE = 60_000;

describeEachEngine('passkeys and steps in progress', (_engine, freshDatabase) => {
  let database: AppDatabase;
  let people: PeopleStore;
  let passkeys: PasskeyStore;
  let steps: PendingStepStore;

  beforeEach(async () => {
    database = await openDatabase(await freshDatabase());
    people = createPeopleStore(database.db);
    passkeys = createPasskeyStore(database.db);
    steps = createPendingStepStore(database.db);
  });
  afterEach(async () => {
    await database.close();
  });

  const addPerson = async (email: string) => {
    const added = await people.add({ email, displayName: email, now: T });
    if (!added.ok) throw new Error(`could not add ${email}`);
    return added.person;
  };
  const key = (id: string, personId: string, createdAt = T) => ({
    id,
    personId,
    publicKey: new Uint8Array([1, 2, 3, id.length]),
    counter: 5,
    transports: ['internal', 'hybrid'],
    name: `Key ${id}`,
    createdAt,
  });

  it('keeps a passkey with its key, counter and transports, and lists a person’s own, oldest first', async () => {
    const ada = await addPerson('ada@example.com');
    const bob = await addPerson('bob@example.com');
    expect(await passkeys.add(key('b-key', ada.id, T + MINUTE))).toBe(true);
    expect(await passkeys.add(key('a-key', ada.id))).toBe(true);
    expect(await passkeys.add(key('bob-key', bob.id))).toBe(true);
    expect(await passkeys.get('a-key')).toEqual({ ...key('a-key', ada.id), lastUsedAt: null });
    expect((await passkeys.listOf(ada.id)).map((p) => p.id)).toEqual(['a-key', 'b-key']);
    expect(await passkeys.countOf(ada.id)).toBe(2);
    expect(await passkeys.countOf(bob.id)).toBe(1);
  });

  it('refuses a credential id kept already, for anyone, and leaves the first one as it was', async () => {
    const ada = await addPerson('ada@example.com');
    const bob = await addPerson('bob@example.com');
    await passkeys.add(key('same', ada.id));
    expect(await passkeys.add({ ...key('same', bob.id), name: 'Stolen' })).toBe(false);
    expect(await passkeys.get('same')).toMatchObject({ personId: ada.id, name: 'Key same' });
  });

  it('moves the counter forward only, and records the last use', async () => {
    const ada = await addPerson('ada@example.com');
    await passkeys.add(key('k', ada.id));
    await passkeys.used('k', 9, T + MINUTE);
    expect(await passkeys.get('k')).toMatchObject({ counter: 9, lastUsedAt: T + MINUTE });
    await passkeys.used('k', 7, T + 2 * MINUTE);
    expect(await passkeys.get('k')).toMatchObject({ counter: 9, lastUsedAt: T + 2 * MINUTE });
  });

  it('renames and removes only the person’s own passkey', async () => {
    const ada = await addPerson('ada@example.com');
    const bob = await addPerson('bob@example.com');
    await passkeys.add(key('k', ada.id));
    expect(await passkeys.rename(bob.id, 'k', 'Mine now')).toBe(false);
    expect(await passkeys.remove(bob.id, 'k')).toBe(false);
    expect(await passkeys.rename(ada.id, 'k', 'Laptop')).toBe(true);
    expect(await passkeys.get('k')).toMatchObject({ name: 'Laptop' });
    expect(await passkeys.remove(ada.id, 'k')).toBe(true);
    expect(await passkeys.get('k')).toBeUndefined();
  });

  it('removes a person’s passkeys with the person', async () => {
    const ada = await addPerson('ada@example.com');
    await passkeys.add(key('k', ada.id));
    await database.db.deleteFrom('people').where('id', '=', ada.id).execute();
    expect(await passkeys.get('k')).toBeUndefined();
  });

  it('gives a step in progress out once, to its purpose, in its time', async () => {
    const ada = await addPerson('ada@example.com');
    const step = { purpose: 'second-factor', personId: ada.id, data: { challenge: 'abc' }, expiresAt: T + 5 * MINUTE };
    const id = await steps.create(step, T);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await steps.peek(id, 'second-factor', T)).toEqual(step);
    expect(await steps.peek(id, 'passkey-sign-in', T)).toBeUndefined();
    expect(await steps.update(id, 'second-factor', { challenge: 'def' }, T + MINUTE)).toBe(true);
    expect(await steps.take(id, 'second-factor', T + MINUTE)).toEqual({ ...step, data: { challenge: 'def' } });
    expect(await steps.take(id, 'second-factor', T + MINUTE)).toBeUndefined();
    expect(await steps.peek(id, 'second-factor', T + MINUTE)).toBeUndefined();
  });

  it('never gives out a step past its time or of another purpose, and a wrong purpose uses it up', async () => {
    const late = await steps.create({ purpose: 'passkey-sign-in', personId: null, data: {}, expiresAt: T + MINUTE }, T);
    expect(await steps.peek(late, 'passkey-sign-in', T + MINUTE)).toBeUndefined();
    expect(await steps.update(late, 'passkey-sign-in', { x: 1 }, T + MINUTE)).toBe(false);
    expect(await steps.take(late, 'passkey-sign-in', T + MINUTE)).toBeUndefined();
    const other = await steps.create({ purpose: 'passkey-sign-in', personId: null, data: {}, expiresAt: T + MINUTE }, T);
    expect(await steps.take(other, 'second-factor', T)).toBeUndefined();
    expect(await steps.take(other, 'passkey-sign-in', T)).toBeUndefined();
  });

  it('clears steps past their time as new ones are made', async () => {
    await steps.create({ purpose: 'passkey-sign-in', personId: null, data: {}, expiresAt: T + MINUTE }, T);
    await steps.create({ purpose: 'passkey-sign-in', personId: null, data: {}, expiresAt: T + 10 * MINUTE }, T + 2 * MINUTE);
    const rows = await database.db.selectFrom('pending_steps').select('expires_at').execute();
    expect(rows.map((row) => row.expires_at)).toEqual([T + 10 * MINUTE]);
  });
});
