/**
 * The activity record's chain on both engines: appended in order, verified, and broken visibly (at the
 * right entry) by an edit, a deletion or a reordering; two instances appending at once to one database
 * make one chain.
 */
import { sql } from 'kysely';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openDatabase, type AppDatabase } from '../db/open';
import { describeEachEngine } from '../testing/postgres';
import { canonicalJson, chainedRow, createActivityStore, entryHash, GENESIS_HASH, rowJson, type NewEntry } from './activity-store';

const T = Date.UTC(2026, 10, 25, 12);
const ADA = { kind: 'person', id: 'p1', name: 'Ada' } as const;

const lookup = (n: number): NewEntry => ({
  at: T + n,
  actor: ADA,
  siteId: 'harbour',
  action: 'case.lookup',
  target: { form: '3', case: String(48_000 + n) },
  outcome: 'found',
  status: 200,
  durationMs: 12,
});

async function withDatabase<T>(open: () => Promise<AppDatabase>, body: (database: AppDatabase) => Promise<T>): Promise<T> {
  const database = await open();
  try {
    return await body(database);
  } finally {
    await database.close();
  }
}

describe('the canonical JSON of an entry', () => {
  it('has its keys sorted and its nulls kept, whatever order the row came in', () => {
    expect(canonicalJson({ seq: 1, at: 2, action: 'x', detail: null } as never)).toBe('{"action":"x","at":2,"detail":null,"seq":1}');
    expect(canonicalJson({ detail: null, seq: 1, action: 'x', at: 2 } as never)).toBe('{"action":"x","at":2,"detail":null,"seq":1}');
  });

  it('is the same text when an appended row is written with its columns named in order', () => {
    // Every column a different value, strings that need escaping among them: a column left out or misplaced shows.
    const entry: NewEntry = {
      at: 1_764_000_000_123,
      actor: { kind: 'person', id: 'p-1', name: 'Zoë "Z" \\ O\u2028Brien' },
      siteId: 'north',
      action: 'product.create.outcome',
      target: { name: 'Mug\nlarge', slug: 'mug-large', form: '3', case: '48217' },
      refersTo: 41,
      requestId: 'req-1',
      address: '::1',
      userAgent: 'Firefox 140 on Linux',
      outcome: 'created',
      status: 201,
      durationMs: 12.6,
      detail: { answer: '{"id":7}' },
    };
    const row = chainedRow(entry, 42, 'f'.repeat(64));
    expect(rowJson(row)).toBe(canonicalJson(row));
    expect(Object.keys(JSON.parse(rowJson(row)) as object)).toHaveLength(19);
    expect(row.hash).toBe(entryHash('f'.repeat(64), row));
    const first = chainedRow({ at: 1, actor: { kind: 'demo' }, action: 'case.lookup', outcome: 'found' }, 1, GENESIS_HASH);
    expect(first.hash).toBe(entryHash(GENESIS_HASH, first));
  });
});

describeEachEngine('the activity chain', (_engine, freshDatabase) => {
  it('keeps a product name with a lone surrogate as the database stores it, so the chain still verifies', async () => {
    const setting = await freshDatabase();
    await withDatabase(
      () => openDatabase(setting),
      async (database) => {
        const store = createActivityStore(database);
        // A create's body may spell half a character ("\\ud800" in its JSON); no database stores that.
        const create: NewEntry = {
          ...lookup(1),
          action: 'product.create',
          outcome: 'sent',
          target: { name: 'Mug \ud800', slug: '\udc00x' },
        };
        const [row] = await store.append(create, lookup(2));
        expect(row).toMatchObject({ target_name: 'Mug \ufffd', target_slug: '\ufffdx' });
        expect((await store.get(1))?.target_name).toBe('Mug \ufffd');
        expect(await store.verify()).toEqual({ ok: true, entries: 2, first: 1, last: 2 });
      },
    );
  });

  it('numbers entries from 1, links each to the one before, and verifies', async () => {
    const setting = await freshDatabase();
    await withDatabase(
      () => openDatabase(setting),
      async (database) => {
        const store = createActivityStore(database);
        const [first] = await store.append(lookup(1));
        const rows = await store.append(lookup(2), lookup(3));
        expect(first).toMatchObject({ seq: 1, prev_hash: GENESIS_HASH });
        expect(rows.map((row) => row.seq)).toEqual([2, 3]);
        expect(rows[0]?.prev_hash).toBe(first?.hash);
        expect(rows[1]?.prev_hash).toBe(rows[0]?.hash);
        expect(await store.verify()).toEqual({ ok: true, entries: 3, first: 1, last: 3 });
        // What was written reads back as written, detail as JSON.
        await store.append({ ...lookup(4), action: 'product.create', outcome: 'sent', detail: { body: '{"name":"Mug"}' } });
        expect(JSON.parse((await store.get(4))?.detail ?? 'null')).toEqual({ body: '{"name":"Mug"}' });
      },
    );
  });

  it('breaks at the entry that was edited, and at the gap where one was deleted', async () => {
    const setting = await freshDatabase();
    await withDatabase(
      () => openDatabase(setting),
      async (database) => {
        const store = createActivityStore(database);
        for (let n = 1; n <= 6; n += 1) await store.append(lookup(n));
        await sql`update activity set case_id = '1' where seq = 4`.execute(database.db);
        expect(await store.verify()).toMatchObject({ ok: false, brokenAt: 4, reason: 'entry 4 was changed after it was written' });
        await sql`update activity set case_id = '48004' where seq = 4`.execute(database.db);
        expect((await store.verify()).ok).toBe(true);
        await sql`delete from activity where seq = 3`.execute(database.db);
        expect(await store.verify()).toMatchObject({ ok: false, brokenAt: 3 });
      },
    );
  });

  it('the page’s check reads only what is new, yet finds an entry changed in place and a tail rewritten with new hashes', async () => {
    const setting = await freshDatabase();
    await withDatabase(
      () => openDatabase(setting),
      async (database) => {
        const store = createActivityStore(database);
        for (let n = 1; n <= 5; n += 1) await store.append(lookup(n));
        expect(await store.check()).toEqual({ ok: true, entries: 5, first: 1, last: 5 });
        await store.append(lookup(6), lookup(7));
        expect(await store.check()).toEqual({ ok: true, entries: 7, first: 1, last: 7 });
        // Changed in place, its hash left as it was: found by the window of older entries (the whole of a short chain).
        await sql`update activity set case_id = '1' where seq = 2`.execute(database.db);
        expect(await store.check()).toMatchObject({ ok: false, brokenAt: 2, reason: 'entry 2 was changed after it was written' });
        expect(await store.check()).toMatchObject({ ok: false, brokenAt: 2 });
        await sql`update activity set case_id = '48002' where seq = 2`.execute(database.db);
        expect((await store.check()).ok).toBe(true);
        // Entry 6 changed and every hash from it recomputed, the end included: the end the last check verified is not there any more.
        const rows = await database.db.selectFrom('activity').selectAll().where('seq', '>=', 6).orderBy('seq').execute();
        let prev = (await store.get(5))?.hash ?? '';
        for (const row of rows) {
          const changed = { ...row, case_id: row.seq === 6 ? '1' : row.case_id, prev_hash: prev };
          const hash = entryHash(prev, changed);
          await sql`update activity set case_id = ${changed.case_id}, prev_hash = ${prev}, hash = ${hash} where seq = ${row.seq}`.execute(
            database.db,
          );
          prev = hash;
        }
        // Whole again as far as the database shows; the end the page's check remembers tells.
        expect((await store.verify()).ok).toBe(true);
        expect(await store.check()).toMatchObject({
          ok: false,
          brokenAt: 7,
          reason: expect.stringMatching(/^entry 7 is not the one verified earlier/),
        });
        expect((await store.check()).ok).toBe(false);
      },
    );
  });

  it('breaks where entries were swapped, even with their hashes recomputed', async () => {
    const setting = await freshDatabase();
    await withDatabase(
      () => openDatabase(setting),
      async (database) => {
        const store = createActivityStore(database);
        for (let n = 1; n <= 4; n += 1) await store.append(lookup(n));
        // Swap the content of 2 and 3 but keep their places: entry 2 no longer hashes to what 3 points back to.
        const two = await store.get(2);
        const three = await store.get(3);
        await sql`update activity set case_id = ${three?.case_id ?? ''}, at = ${three?.at ?? 0} where seq = 2`.execute(database.db);
        await sql`update activity set case_id = ${two?.case_id ?? ''}, at = ${two?.at ?? 0} where seq = 3`.execute(database.db);
        expect(await store.verify()).toMatchObject({ ok: false, brokenAt: 2 });
      },
    );
  });

  it('stays one chain when two instances append to the same database at once', async () => {
    const setting = await freshDatabase();
    const database = await openDatabase(setting);
    try {
      const store = createActivityStore(database);
      // The other instance: a thread of its own (a SQLite writer waiting for the lock holds up its whole thread).
      const other = new Worker(
        `
        const { parentPort, workerData } = require('node:worker_threads');
        (async () => {
          (await import('tsx/esm/api')).register();
          const { openDatabase } = await import(workerData.open);
          const { createActivityStore } = await import(workerData.store);
          const where = workerData.engine === 'sqlite' ? workerData : { engine: 'postgres', url: new URL(workerData.url) };
          const database = await openDatabase(where);
          const store = createActivityStore(database);
          await Promise.all(Array.from({ length: 30 }, (_, n) =>
            store.append({ at: n, actor: { kind: 'demo' }, action: 'case.lookup', outcome: 'found', target: { case: 'w' + n } })));
          await database.close();
          parentPort.postMessage('done');
        })().catch((error) => parentPort.postMessage(String(error)));`,
        {
          eval: true,
          workerData: {
            ...setting,
            url: 'url' in setting ? setting.url.href : undefined,
            open: new URL('../db/open.ts', import.meta.url).href,
            store: new URL('./activity-store.ts', import.meta.url).href,
          },
        },
      );
      const [, [message]] = await Promise.all([
        Promise.all(Array.from({ length: 30 }, (_, n) => store.append(lookup(n)))),
        once(other, 'message') as Promise<[string]>,
      ]);
      await other.terminate();
      expect(message).toBe('done');
      expect(await store.verify()).toEqual({ ok: true, entries: 60, first: 1, last: 60 });
    } finally {
      await database.close();
    }
  }, 60_000);
});

describeEachEngine('what became of a product update', (_engine, freshDatabase) => {
  it('finds its outcome and the updates that revert it, each with its outcome, and nothing that only looks like one', async () => {
    const setting = await freshDatabase();
    await withDatabase(
      () => openDatabase(setting),
      async (database) => {
        const store = createActivityStore(database);
        const update = (n: number, detail: Record<string, unknown>): NewEntry => ({
          ...lookup(n),
          action: 'product.update',
          target: { name: 'Walnut tray', slug: 'walnut-tray' },
          outcome: 'sent',
          detail: { product: '1042', body: '{"name":"Walnut tray","enabled":"true"}', before: '{"id":"1042"}', ...detail },
        });
        const outcome = (n: number, of: number, result: string): NewEntry => ({
          ...lookup(n),
          action: 'product.update.outcome',
          refersTo: of,
          outcome: result,
          detail: { product: '1042', answer: '{}' },
        });
        // 1 is the update; 2 another whose body's text holds "reverts":1 inside a string (escaped, so not a key).
        await store.append(update(1, {}));
        await store.append(update(2, { body: '{"note":"\\"reverts\\":1}"}' }));
        await store.append(outcome(3, 1, 'updated'), outcome(4, 2, 'updated'));
        // 5 reverts 12 (its text starts as "reverts":1), 6 reverts 1 and is rejected, 8 reverts 1 and succeeds.
        await store.append(update(5, { reverts: 12 }), update(6, { reverts: 1 }));
        await store.append(outcome(7, 6, 'rejected'), update(8, { reverts: 1 }), outcome(9, 8, 'updated'));

        const found = await store.updateFollowUps(1);
        expect(found.outcome).toMatchObject({ seq: 3, outcome: 'updated' });
        expect(
          found.reverts.map(({ update: u, outcome: o }) => [Number(u.seq), o?.seq === undefined ? null : Number(o.seq), o?.outcome]),
        ).toEqual([
          [6, 7, 'rejected'],
          [8, 9, 'updated'],
        ]);
        expect(await store.updateFollowUps(8)).toMatchObject({ outcome: { seq: 9 }, reverts: [] });
        // A revert whose outcome was never written (the server stopped in between): listed, without one.
        await store.append(update(10, { reverts: 8 }));
        expect((await store.updateFollowUps(8)).reverts).toMatchObject([{ update: { seq: 10 }, outcome: undefined }]);
      },
    );
  });
});
