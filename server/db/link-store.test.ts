/**
 * One-time links (invitations, resets) on SQLite and PostgreSQL alike: only the token's hash kept, used at
 * most once, never after they expire, and only the newest of a person's links open.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLinkStore, type LinkStore } from './link-store';
import { secretTokenHash } from './secret-token';
import { openDatabase, type AppDatabase } from './open';
import { createPeopleStore } from './people-store';
import { describeEachEngine } from '../testing/postgres';

const T = Date.UTC(2026, 10, 1, 9);
const TTL = 72 * 60 * 60 * 1000;

describeEachEngine('the one-time link store', (_engine, freshDatabase) => {
  let database: AppDatabase;
  let links: LinkStore;
  let personId: string;

  beforeEach(async () => {
    database = await openDatabase(await freshDatabase());
    links = createLinkStore(database.db);
    const added = await createPeopleStore(database.db).add({ email: 'ada@example.com', displayName: 'Ada', now: T });
    if (!added.ok) throw new Error('could not add Ada');
    personId = added.person.id;
  });
  afterEach(async () => {
    await database.close();
  });

  it('keeps only the hash of a 256-bit token, and finds the link by the token', async () => {
    const { token, expiresAt } = await links.create({ personId, purpose: 'invitation', createdBy: null, now: T, ttlMs: TTL });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBe(T + TTL);
    const rows = await database.db.selectFrom('one_time_links').select('token_hash').execute();
    expect(rows).toEqual([{ token_hash: secretTokenHash(token) }]);
    expect(await links.find(token)).toEqual({
      personId,
      purpose: 'invitation',
      createdBy: null,
      createdAt: T,
      expiresAt: T + TTL,
      usedAt: null,
    });
    expect(await links.find(token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')))).toBeUndefined();
  });

  it('is used once, and never after it expires', async () => {
    const first = await links.create({ personId, purpose: 'invitation', createdBy: null, now: T, ttlMs: TTL });
    expect(await links.use(first.token, T + TTL)).toBe(false);
    expect(await links.use(first.token, T + 1)).toBe(true);
    expect(await links.use(first.token, T + 2)).toBe(false);
    expect((await links.find(first.token))?.usedAt).toBe(T + 1);
  });

  it('holds one open link per person: a new one voids the one before', async () => {
    const first = await links.create({ personId, purpose: 'invitation', createdBy: null, now: T, ttlMs: TTL });
    const second = await links.create({ personId, purpose: 'reset', createdBy: personId, now: T + 5, ttlMs: TTL });
    expect(await links.use(first.token, T + 6)).toBe(false);
    expect(await links.openLinks(T + 6)).toEqual(new Map([[personId, { purpose: 'reset', expiresAt: T + 5 + TTL }]]));
    expect(await links.openLinks(T + 5 + TTL)).toEqual(new Map());
    await links.voidAllOf(personId, T + 7);
    expect(await links.use(second.token, T + 8)).toBe(false);
  });
});
