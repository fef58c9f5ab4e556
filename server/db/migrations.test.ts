/**
 * site-admin's database at start: every layout it may find (an empty database, or one left by any earlier
 * version) is brought to the latest with its rows kept, on SQLite and PostgreSQL alike; one of a newer
 * version is refused, saying so; SQLite's settings; DATABASE_URL's password never in a message.
 */
import { sql, type Kysely } from 'kysely';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createActivityStore } from '../activity/activity-store';
import { ConfigError, DATABASE_FILE, loadConfig, type DatabaseSetting } from '../config';
import { freePort, startSandboxedSite } from '../testing/test-helpers';
import { MIGRATIONS } from './migrations';
import { connectDatabase, migrateDatabase, openDatabase, type AppDatabase } from './open';
import { createPeopleStore } from './people-store';
import { describeEachEngine } from '../testing/postgres';
import { secretTokenHash } from './secret-token';
import { createSessionStore } from './session-store';

const T = Date.UTC(2026, 10, 1);
const SESSION_ID = 'a-session-id-left-by-an-earlier-version';

/**
 * For each layout, the rows a database of it holds, written in that layout's own SQL (not through the
 * stores, which follow the latest layout). A new migration adds its row here; the test below fails until
 * it does. What every layout's rows must read as after migrating is checked by `expectKept`.
 */
const LAYOUTS: Record<string, (db: Kysely<unknown>) => Promise<void>> = {
  '0001-people-grants-sessions': async (db) => {
    await sql`insert into people (id, email, email_key, display_name, password_hash, disabled_at, created_at, updated_at)
              values ('p1', 'Ada@Example.com', 'ada@example.com', 'Ada', 'hash', null, ${T}, ${T})`.execute(db);
    await sql`insert into grants (person_id, site_id, role) values ('p1', 'harbour', 'editor'), ('p1', '*', 'support')`.execute(db);
    await sql`insert into sessions (id_hash, person_id, created_at, last_seen_at, idle_expires_at, expires_at, user_agent, address)
              values (${secretTokenHash(SESSION_ID)}, 'p1', ${T}, ${T}, ${T + 3_600_000}, ${T + 43_200_000}, 'Firefox', '127.0.0.1')`.execute(
      db,
    );
  },
  '0002-sign-in': async (db) => {
    await sql`insert into settings (name, value, updated_at) values ('second-factor', '{"everyone":false,"roles":[]}', ${T})`.execute(db);
    await sql`insert into passkeys (credential_id, person_id, public_key, counter, transports, name, created_at, last_used_at)
              values ('cred-1', 'p1', 'key', 0, 'internal', 'Laptop', ${T}, null)`.execute(db);
  },
  '0003-activity': async (db) => {
    await sql`insert into activity (seq, at, actor_kind, person_id, person_name, site_id, action, outcome, prev_hash, hash)
              values (1, ${T}, 'person', 'p1', 'Ada', 'harbour', 'case.lookup', 'found', ${'0'.repeat(64)}, ${'1'.repeat(64)})`.execute(db);
    await sql`insert into activity (seq, at, actor_kind, person_id, person_name, site_id, action, target_name, outcome, prev_hash, hash)
              values (2, ${T}, 'person', 'p1', 'Ada', 'harbour', 'product.create', 'Walnut tray, sand', 'sent', ${'1'.repeat(64)}, ${'2'.repeat(64)})`.execute(
      db,
    );
  },
  '0004-activity-indexes': async (db) => {
    await sql`insert into activity (seq, at, actor_kind, person_id, person_name, site_id, action, target_name, outcome, prev_hash, hash)
              values (3, ${T}, 'person', 'p1', 'Ada', 'harbour', 'product.create', 'Walnut stool', 'sent', ${'2'.repeat(64)}, ${'3'.repeat(64)})`.execute(
      db,
    );
  },
  '0005-imports': async (db) => {
    await sql`insert into imports (id, site_id, started_by_kind, started_by_id, started_by_name, created_at, updated_at, file_name, file, work, version)
              values ('i1', 'harbour', 'person', 'p1', 'Ada', ${T}, ${T}, 'linen.csv', '{}', '{}', 1)`.execute(db);
    await sql`insert into import_products (import_id, product_key, status, detail, create_seq, updated_at)
              values ('i1', '0', 'created', null, 1, ${T})`.execute(db);
  },
  '0006-session-changes': async (db) => {
    // A change its triggers mark, which must go through on either engine.
    await sql`update people set updated_at = ${T} where id = 'p1'`.execute(db);
  },
  '0007-case-work': async (db) => {
    await sql`insert into case_work (site_id, form_id, case_id, status, assignee_id, updated_at, updated_by_id, updated_by_name)
              values ('harbour', '3', '48217', 'open', 'p1', ${T}, 'p1', 'Ada')`.execute(db);
  },
  '0008-role-capability-changes': async (db) => {
    // An owner's override, which its triggers mark as a change on either engine.
    await sql`insert into role_capabilities (site_id, role, capability, allowed, changed_at, changed_by)
              values ('harbour', 'support', 'export', 1, ${T}, 'p1')`.execute(db);
  },
  '0009-approvals': async (db) => {
    await sql`insert into approval_rules (site_id, writes, approvals, approvers, changed_at, changed_by_id, changed_by_name)
              values ('harbour', '["create"]', 1, '["owner"]', ${T}, 'p1', 'Ada')`.execute(db);
    await sql`insert into changes (id, site_id, kind, version, state, title, body, hash, author_kind, author_id, author_name, asked_at, updated_at, expires_at)
              values ('c1', 'harbour', 'create', 1, 'pending', 'Walnut tray', '{}', 'sha256-0', 'person', 'p1', 'Ada', ${T}, ${T}, ${T})`.execute(
      db,
    );
  },
};

/**
 * A second process's start, in a worker thread (SQLite's wait for a lock holds up its whole thread):
 * loads the code, then, once this thread says go, opens (migrating) and closes `where`. Resolves to a
 * function that says go and waits for the end.
 */
async function readyInAnotherThread(where: DatabaseSetting): Promise<() => Promise<void>> {
  // A worker starts without Vitest's TypeScript loader: it registers tsx's, as the sandbox's worker does.
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { once } = require('node:events');
    (async () => {
      (await import('tsx/esm/api')).register();
      const { openDatabase } = await import(workerData.module);
      const where = workerData.engine === 'sqlite' ? workerData : { engine: 'postgres', url: new URL(workerData.url) };
      parentPort.postMessage('ready');
      await once(parentPort, 'message');
      const database = await openDatabase(where);
      await database.close();
      parentPort.postMessage('done');
    })().catch((error) => parentPort.postMessage(String(error)));`;
  const worker = new Worker(code, {
    eval: true,
    workerData: { ...where, url: 'url' in where ? where.url.href : undefined, module: new URL('./open.ts', import.meta.url).href },
  });
  const [ready] = (await once(worker, 'message')) as [string];
  expect(ready).toBe('ready');
  return async () => {
    try {
      worker.postMessage('go');
      const [message] = (await once(worker, 'message')) as [string];
      expect(message).toBe('done');
    } finally {
      await worker.terminate();
    }
  };
}

async function expectKept(database: AppDatabase, withCaseWork: boolean) {
  const people = createPeopleStore(database.db);
  const person = await people.getByEmail('ada@example.com');
  expect(person).toMatchObject({ id: 'p1', email: 'Ada@Example.com', displayName: 'Ada', disabledAt: null, createdAt: T });
  expect(await people.grantsOf('p1')).toEqual([
    { siteId: '*', role: 'support' },
    { siteId: 'harbour', role: 'editor' },
  ]);
  const session = await createSessionStore(database.db).get(SESSION_ID, T + 1000);
  expect(session).toMatchObject({ personId: 'p1', email: 'Ada@Example.com', expiresAt: T + 43_200_000, userAgent: 'Firefox' });
  // Every product's name written before the name search's index is found by its words, as those written after.
  const named = await database.db
    .selectFrom('activity')
    .select('seq')
    .where('target_name', 'is not', null)
    .orderBy('seq', 'desc')
    .execute();
  const found = await createActivityStore(database).list({ q: 'walnut' }, { limit: 10 });
  expect(found.map((row) => Number(row.seq))).toEqual(named.map((row) => Number(row.seq)));
  // A case's work kept, where the layout had the table (earlier ones gain it empty).
  const work = await database.db.selectFrom('case_work').select(['case_id', 'status', 'assignee_id', 'updated_at']).execute();
  expect(work).toEqual(withCaseWork ? [{ case_id: '48217', status: 'open', assignee_id: 'p1', updated_at: T }] : []);
}

it('every migration has its layout in this test', () => {
  expect(Object.keys(LAYOUTS)).toEqual(Object.keys(MIGRATIONS));
});

it('migration names sort in the order they are listed (Kysely runs them by name)', () => {
  const names = Object.keys(MIGRATIONS);
  expect(names).toEqual([...names].sort());
  for (const name of names) expect(name).toMatch(/^\d{4}-[a-z0-9-]+$/);
});

describeEachEngine('migrations at start', (engine, freshDatabase) => {
  const opened: AppDatabase[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close();
  });
  const open = async (...args: Parameters<typeof openDatabase>) => {
    const database = await openDatabase(...args);
    opened.push(database);
    return database;
  };

  it('creates the latest layout in an empty database', async () => {
    const database = await open(await freshDatabase());
    const tables = (await database.db.introspection.getTables()).map((table) => table.name);
    expect(tables).toEqual(expect.arrayContaining(['people', 'grants', 'sessions']));
    expect(await createPeopleStore(database.db).count()).toBe(0);
  });

  const names = Object.keys(MIGRATIONS);
  it.each(names.map((name, index) => [name, names.slice(0, index + 1)] as const))(
    'brings a database of layout %s to the latest, keeping its rows',
    async (_name, applied) => {
      const where = await freshDatabase();
      const old = connectDatabase(where);
      try {
        // Each layout's rows, as that version would have written them, layout after layout up to `name`.
        for (const layout of applied) {
          await migrateDatabase(old, layout);
          await LAYOUTS[layout]?.(old.db as Kysely<unknown>);
        }
      } finally {
        await old.close();
      }
      const database = await open(where);
      await expectKept(database, applied.includes('0007-case-work'));
    },
  );

  it('opens an up-to-date database again without changing it', async () => {
    const where = await freshDatabase();
    const first = await open(where);
    // Every layout's rows, in order: a later layout's rows may refer to an earlier one's (a passkey to its person).
    for (const name of names) await LAYOUTS[name]?.(first.db as Kysely<unknown>);
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    await expectKept(await open(where), true);
  });

  it('refuses a database that a newer version has migrated, naming the file and the migration', async () => {
    const where = await freshDatabase();
    const first = await open(where);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-the-future', ${new Date(T).toISOString()})`.execute(
      first.db,
    );
    await expect(open(where)).rejects.toThrow(ConfigError);
    await expect(open(where)).rejects.toThrow(/newer site-admin.*9999-from-the-future/);
  });

  it('migrates once when two start on the same database together', async () => {
    const where = await freshDatabase();
    const go = await readyInAnotherThread(where);
    const [a] = await Promise.all([open(where), go()]);
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(a.db);
    expect(rows.rows.map((row) => row.name)).toEqual(names);
    expect(await createPeopleStore(a.db).count()).toBe(0);
  });

  if (engine === 'sqlite') {
    it('uses WAL, synchronous NORMAL, foreign keys and a busy timeout on SQLite', async () => {
      const { sqlite } = await open(await freshDatabase());
      expect(sqlite?.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(sqlite?.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
      expect(sqlite?.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(sqlite?.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    });
  }
});

describe('where the database is', () => {
  it('keeps site-admin.sqlite in DATA_DIR, beside and apart from the sandbox’s database', async () => {
    const running = await startSandboxedSite('site-admin-data-dir-');
    try {
      const file = running.site.database.where;
      expect(basename(file)).toBe(DATABASE_FILE);
      expect(existsSync(file)).toBe(true);
      expect(existsSync(join(dirname(file), 'sandbox.sqlite'))).toBe(true);
      expect(await createPeopleStore(running.site.database.db).count()).toBe(0);
    } finally {
      await running.stop();
    }
  });

  it('refuses a PostgreSQL it cannot reach, naming the host and never the password', async () => {
    const port = await freePort();
    const config = loadConfig({ DATABASE_URL: `postgres://staff:s3cret-pass@127.0.0.1:${port}/site_admin` });
    const error = await openDatabase(config.database).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(`PostgreSQL at 127.0.0.1:${port}/site_admin`);
    expect((error as Error).message).not.toContain('s3cret-pass');
  });
});
