/**
 * The activity record in site-admin's database: one chain of entries, appended only. Each entry carries
 * `hash` = SHA-256 of the previous entry's hash, a newline, and the entry's canonical JSON (every column
 * but `hash` and `prev_hash`, keys sorted, nulls kept), so an entry edited, deleted or moved breaks the
 * chain from that point, and `verify` names the first entry where it breaks.
 *
 * Appends are serialised, so the chain stays one chain whoever writes: on SQLite in one BEGIN IMMEDIATE
 * (the file's write lock, which a second process waits for), on PostgreSQL under a transaction-level
 * advisory lock (every instance sharing the database waits its turn). An append resolves only once its
 * transaction has committed.
 */
import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { createHash } from 'node:crypto';
import type { AppDatabase } from '../db/open';
import type { ActivityFilter } from '../../src/contract/activity';
import type { ActivityTable, Database } from '../db/schema';

type ActivityQuery = SelectQueryBuilder<Database, 'activity', ActivityRow>;

/** `query` narrowed to what `filter` asks for. */
function filtered(query: ActivityQuery, filter: ActivityFilter): ActivityQuery {
  let q = query;
  if (filter.person) q = q.where('person_id', '=', filter.person);
  if (filter.site) q = q.where('site_id', '=', filter.site);
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.outcome) q = q.where('outcome', '=', filter.outcome);
  if (filter.from !== undefined) q = q.where('at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('at', '<', filter.to);
  const text = filter.q?.trim();
  if (text) {
    // A slug or a case id exactly (indexed), or words of a product's name anywhere in it.
    const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('target_slug', '=', text), eb('case_id', '=', text), eb(sql`target_name`, 'like', sql`${like} escape '\\'`)]),
    );
  }
  return q;
}

/** The previous hash of the first entry ever. */
export const GENESIS_HASH = '0'.repeat(64);

/** PostgreSQL's advisory lock key for appends: any fixed number, the same on every instance. */
const APPEND_LOCK_KEY = 4_178_932_001;

export type Actor = { kind: 'person'; id: string; name: string } | { kind: 'demo' } | { kind: 'anonymous' };

/** What an entry says; the store adds its place in the chain and its hashes. */
export interface NewEntry {
  at: number;
  actor: Actor;
  siteId?: string | null;
  action: string;
  target?: { name?: string | null; slug?: string | null; form?: string | null; case?: string | null };
  refersTo?: number | null;
  requestId?: string | null;
  address?: string | null;
  userAgent?: string | null;
  outcome: string;
  status?: number | null;
  durationMs?: number | null;
  /** Kept as JSON. */
  detail?: unknown;
}

export type ActivityRow = ActivityTable;

/** The row of `entry`, without its hashes. */
function rowOf(entry: NewEntry, seq: number): Omit<ActivityRow, 'hash' | 'prev_hash'> {
  const actor = entry.actor;
  return {
    seq,
    at: entry.at,
    actor_kind: actor.kind,
    person_id: actor.kind === 'person' ? actor.id : null,
    person_name: actor.kind === 'person' ? actor.name : null,
    site_id: entry.siteId ?? null,
    action: entry.action,
    target_name: entry.target?.name ?? null,
    target_slug: entry.target?.slug ?? null,
    form_id: entry.target?.form ?? null,
    case_id: entry.target?.case ?? null,
    refers_to: entry.refersTo ?? null,
    request_id: entry.requestId ?? null,
    address: entry.address ?? null,
    user_agent: entry.userAgent ?? null,
    outcome: entry.outcome,
    status: entry.status ?? null,
    duration_ms: entry.durationMs === undefined || entry.durationMs === null ? null : Math.round(entry.durationMs),
    detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
  };
}

/** The entry's canonical JSON: every column but the two hashes, keys in sorted order, nulls kept. */
export function canonicalJson(row: Omit<ActivityRow, 'hash' | 'prev_hash'> | ActivityRow): string {
  const fields = Object.keys(row)
    .filter((key) => key !== 'hash' && key !== 'prev_hash')
    .sort();
  const record = row as unknown as Record<string, unknown>;
  // Numbers as the database gives them back (bigint columns are read as numbers on both engines).
  return `{${fields.map((key) => `${JSON.stringify(key)}:${JSON.stringify(record[key] ?? null)}`).join(',')}}`;
}

export function entryHash(prevHash: string, row: Omit<ActivityRow, 'hash' | 'prev_hash'> | ActivityRow): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonicalJson(row)).digest('hex');
}

export type Verification =
  | { ok: true; entries: number; first: number | null; last: number | null }
  | { ok: false; entries: number; brokenAt: number; reason: string };

/** Every column of an entry, in the table's order. */
const ACTIVITY_COLUMNS = [
  'seq',
  'at',
  'actor_kind',
  'person_id',
  'person_name',
  'site_id',
  'action',
  'target_name',
  'target_slug',
  'form_id',
  'case_id',
  'refers_to',
  'request_id',
  'address',
  'user_agent',
  'outcome',
  'status',
  'duration_ms',
  'detail',
  'prev_hash',
  'hash',
] as const satisfies readonly (keyof ActivityRow)[];

/** At most this many appends go in one transaction. */
const APPEND_BATCH = 500;

/** How many entries `verify` reads at a time: memory stays flat at any length. */
const VERIFY_BATCH = 2_000;

export function createActivityStore(database: AppDatabase) {
  const { db } = database;

  async function appendIn(trx: Kysely<Database> | Transaction<Database>, entries: readonly NewEntry[]): Promise<ActivityRow[]> {
    const last = await trx.selectFrom('activity').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    const rows = chained(last, entries);
    await trx.insertInto('activity').values(rows).execute();
    return rows;
  }

  /** Links `entries` to the chain's end (`last`): their rows, numbered and hashed. */
  function chained(last: { seq: number; hash: string } | undefined, entries: readonly NewEntry[]): ActivityRow[] {
    let seq = last ? Number(last.seq) : 0;
    let prev = last?.hash ?? GENESIS_HASH;
    return entries.map((entry) => {
      seq += 1;
      const row = rowOf(entry, seq);
      const hash = entryHash(prev, row);
      const full: ActivityRow = { ...row, prev_hash: prev, hash };
      prev = hash;
      return full;
    });
  }

  // On SQLite the append is two statements prepared once and run synchronously by better-sqlite3 in one
  // BEGIN IMMEDIATE (its transaction().immediate): the bench measured the Kysely version, built, compiled and
  // prepared for every entry, at about three quarters of a lookup's CPU.
  const { sqlite } = database;
  const appendSqlite = sqlite
    ? (() => {
        const last = sqlite.prepare<[], { seq: number; hash: string }>('select seq, hash from activity order by seq desc limit 1');
        const columns = [...ACTIVITY_COLUMNS];
        const insert = sqlite.prepare(`insert into activity (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`);
        return sqlite.transaction((entries: readonly NewEntry[]) => {
          const rows = chained(last.get(), entries);
          for (const row of rows) insert.run(row);
          return rows;
        });
      })()
    : undefined;

  /** Appends in one transaction, serialised with every other writer (this process's and other instances'). */
  async function commit(entries: readonly NewEntry[]): Promise<ActivityRow[]> {
    if (appendSqlite) {
      // Inside Kysely's hold on the one connection, so no transaction of Kysely's is open around it; IMMEDIATE
      // takes the file's write lock at once, so another process appending waits instead of reading a chain
      // end that moves.
      return db.connection().execute(() => Promise.resolve(appendSqlite.immediate(entries)));
    }
    return db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${APPEND_LOCK_KEY})`.execute(trx);
      return appendIn(trx, entries);
    });
  }

  // Group commit: appends that arrive while a transaction is under way wait for it, then go together in
  // the next one, so the record keeps up with many calls at once (one transaction costs about a
  // millisecond here, whatever it holds).
  let waiting: { entries: readonly NewEntry[]; resolve: (rows: ActivityRow[]) => void; reject: (error: unknown) => void }[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
    flushing = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, APPEND_BATCH);
      waiting = waiting.slice(batch.length);
      try {
        const rows = await commit(batch.flatMap((item) => item.entries));
        let at = 0;
        for (const item of batch) {
          item.resolve(rows.slice(at, at + item.entries.length));
          at += item.entries.length;
        }
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    flushing = false;
  }

  return {
    /** Appends entries, in order, at the end of the chain; resolves with them once committed. */
    append(...entries: NewEntry[]): Promise<ActivityRow[]> {
      return new Promise<ActivityRow[]>((resolve, reject) => {
        waiting.push({ entries, resolve, reject });
        if (!flushing) void flush();
      });
    },

    /**
     * Entries that pass `filter`, newest first, older than `before` (a seq) when given: keyset pages, so the
     * millionth entry costs what the first does.
     */
    async list(filter: ActivityFilter, page: { before?: number; limit: number }): Promise<ActivityRow[]> {
      let query = filtered(db.selectFrom('activity').selectAll(), filter);
      if (page.before !== undefined) query = query.where('seq', '<', page.before);
      return query.orderBy('seq', 'desc').limit(page.limit).execute();
    },

    /** Every entry that passes `filter`, newest first, a batch at a time (for export: memory stays flat). */
    async *stream(filter: ActivityFilter, batchSize = 1_000): AsyncGenerator<ActivityRow[]> {
      let before: number | undefined;
      for (;;) {
        let query = filtered(db.selectFrom('activity').selectAll(), filter);
        if (before !== undefined) query = query.where('seq', '<', before);
        const batch = await query.orderBy('seq', 'desc').limit(batchSize).execute();
        if (batch.length === 0) return;
        yield batch;
        before = Number(batch[batch.length - 1]?.seq);
        if (batch.length < batchSize) return;
      }
    },

    /**
     * Removes the entries written before `cutoff`, oldest first, `batch` at a time (each its own short
     * transaction, so appends are never held up long), and records what was removed as an entry of its
     * own. Verification then starts from the first entry kept. Resolves to how many were removed.
     */
    async prune(cutoff: number, now: number, batch = 1_000): Promise<number> {
      let removed = 0;
      let through: number | null = null;
      // Never the newest entry: the chain's end is what the next append links to.
      const newest = await db.selectFrom('activity').select('seq').orderBy('seq', 'desc').limit(1).executeTakeFirst();
      if (!newest) return 0;
      for (;;) {
        const oldest = await db
          .selectFrom('activity')
          .select('seq')
          .where('at', '<', cutoff)
          .where('seq', '<', newest.seq)
          .orderBy('seq')
          .limit(batch)
          .execute();
        const bound = oldest.at(-1)?.seq;
        if (bound === undefined) break;
        const result = await db.deleteFrom('activity').where('seq', '<=', bound).executeTakeFirst();
        removed += Number(result.numDeletedRows);
        through = Number(bound);
        if (oldest.length < batch) break;
      }
      if (removed > 0) {
        await this.append({
          at: now,
          actor: { kind: 'anonymous' },
          action: 'activity.pruned',
          outcome: 'ok',
          detail: { removed, through, before: new Date(cutoff).toISOString() },
        });
      }
      return removed;
    },

    /** One entry by its place in the chain. */
    async get(seq: number): Promise<ActivityRow | undefined> {
      return db.selectFrom('activity').selectAll().where('seq', '=', seq).executeTakeFirst();
    },

    /**
     * Checks the whole chain from its first kept entry: the places follow each other, each entry's
     * `prev_hash` is the hash of the one before, and each hash is that of its own content. Names the
     * first entry where it breaks.
     */
    async verify(): Promise<Verification> {
      let after = 0;
      let expectedPrev: string | null = null;
      let expectedSeq: number | null = null;
      let entries = 0;
      let first: number | null = null;
      let last: number | null = null;
      for (;;) {
        const batch = await db.selectFrom('activity').selectAll().where('seq', '>', after).orderBy('seq').limit(VERIFY_BATCH).execute();
        if (batch.length === 0) break;
        for (const row of batch) {
          const seq = Number(row.seq);
          if (expectedSeq !== null && seq !== expectedSeq) {
            return { ok: false, entries, brokenAt: expectedSeq, reason: `entry ${expectedSeq} is missing (the next kept is ${seq})` };
          }
          if (expectedPrev !== null && row.prev_hash !== expectedPrev) {
            return { ok: false, entries, brokenAt: seq, reason: `entry ${seq} does not follow the entry before it` };
          }
          if (entryHash(row.prev_hash, row) !== row.hash) {
            return { ok: false, entries, brokenAt: seq, reason: `entry ${seq} was changed after it was written` };
          }
          first ??= seq;
          last = seq;
          entries += 1;
          expectedSeq = seq + 1;
          expectedPrev = row.hash;
        }
        after = last ?? after;
      }
      return { ok: true, entries, first, last };
    },
  };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;
