/**
 * The activity record in site-admin's database: one chain of entries, appended only. Each entry carries
 * `hash` = SHA-256 of the previous entry's hash, a newline, and the entry's canonical JSON (every column
 * but `hash` and `prev_hash`, keys sorted, nulls kept), so an entry edited, deleted or moved breaks the
 * chain from that point, and `verify` names the first entry where it breaks.
 *
 * The chain stays one chain whoever writes: each append numbers its entries from the end this store knows
 * and inserts them in one statement (on SQLite in one BEGIN IMMEDIATE, the file's write lock); when another
 * instance or process appended first, the entry's number is taken, the primary key refuses the insert
 * whole, and the entries are linked again to the end as it now is. An append resolves only once its insert
 * has committed.
 */
import { CompiledQuery, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { hash } from 'node:crypto';
import type { AppDatabase } from '../db/open';
import type { Actor } from '../../src/contract/access';
import type { ActivityFilter } from '../../src/contract/activity';
import type { ActivityTable, Database } from '../db/schema';

type ActivityQuery = SelectQueryBuilder<Database, 'activity', ActivityRow>;

/** `query` narrowed to what `filter` asks for, but for its search (`q`: see `page`). */
function filtered(query: ActivityQuery, filter: ActivityFilter, timeIndex = true): ActivityQuery {
  let q = query;
  // `+at` (SQLite) is the same value, but not a column its planner reads through the index on `at`.
  const at = timeIndex ? sql<number>`at` : sql<number>`+at`;
  if (filter.person) q = q.where('person_id', '=', filter.person);
  if (filter.site) q = q.where('site_id', '=', filter.site);
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.outcome) q = q.where('outcome', '=', filter.outcome);
  if (filter.from !== undefined) q = q.where(at, '>=', filter.from);
  if (filter.to !== undefined) q = q.where(at, '<', filter.to);
  return q;
}

/** A search's words, as the name indices hold them: letters and digits, each the start of a word in the name. */
function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

/** The previous hash of the first entry ever. */
export const GENESIS_HASH = '0'.repeat(64);

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

/** The order of the fields of each shape of row met so far, and each field's `"key":`: a row's keys are sorted once, not per entry. */
const fieldOrders = new Map<string, { keys: string[]; prefixes: string[] }>();

/** The entry's canonical JSON: every column but the two hashes, keys in sorted order, nulls kept. */
export function canonicalJson(row: Omit<ActivityRow, 'hash' | 'prev_hash'> | ActivityRow): string {
  const record = row as unknown as Record<string, unknown>;
  const shape = Object.keys(record).join(',');
  let order = fieldOrders.get(shape);
  if (!order) {
    const keys = Object.keys(record)
      .filter((key) => key !== 'hash' && key !== 'prev_hash')
      .sort();
    order = { keys, prefixes: keys.map((key, i) => `${i === 0 ? '' : ','}${JSON.stringify(key)}:`) };
    // Rows come in a handful of shapes (as written, as read back); anything else is not kept.
    if (fieldOrders.size < 16) fieldOrders.set(shape, order);
  }
  let json = '{';
  for (let i = 0; i < order.keys.length; i += 1) {
    // Numbers as the database gives them back (bigint columns are read as numbers on both engines).
    json += `${order.prefixes[i] ?? ''}${JSON.stringify(record[order.keys[i] ?? ''] ?? null)}`;
  }
  return `${json}}`;
}

export function entryHash(prevHash: string, row: Omit<ActivityRow, 'hash' | 'prev_hash'> | ActivityRow): string {
  // One call for the whole text (crypto.hash): the same digest as a Hash object fed the parts, at a fraction of its cost.
  return hash('sha256', `${prevHash}\n${canonicalJson(row)}`, 'hex');
}

/** One value of the canonical JSON, as canonicalJson writes it. */
const json = (value: string | number | null | undefined) => JSON.stringify(value ?? null);

/**
 * canonicalJson of a whole row, with its columns named in sorted order here rather than found and sorted
 * per row: the same text (the tests compare the two), in a fraction of the time, for every entry appended.
 */
export function rowJson(row: ActivityRow): string {
  return (
    `{"action":${json(row.action)},"actor_kind":${json(row.actor_kind)},"address":${json(row.address)},"at":${json(row.at)}` +
    `,"case_id":${json(row.case_id)},"detail":${json(row.detail)},"duration_ms":${json(row.duration_ms)},"form_id":${json(row.form_id)}` +
    `,"outcome":${json(row.outcome)},"person_id":${json(row.person_id)},"person_name":${json(row.person_name)}` +
    `,"refers_to":${json(row.refers_to)},"request_id":${json(row.request_id)},"seq":${json(row.seq)},"site_id":${json(row.site_id)}` +
    `,"status":${json(row.status)},"target_name":${json(row.target_name)},"target_slug":${json(row.target_slug)}` +
    `,"user_agent":${json(row.user_agent)}}`
  );
}

/** Half a character (a lone UTF-16 surrogate), which no database stores: each engine would keep U+FFFD instead. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A name from a create's body, as the database will store it, so that the hash is of what is stored. */
const wellFormed = (text: string | null | undefined): string | null =>
  text === undefined || text === null ? null : text.replace(LONE_SURROGATE, '\ufffd');

/** The row of `entry` at `seq`, linked to `prevHash`, its own hash filled in. */
export function chainedRow(entry: NewEntry, seq: number, prevHash: string): ActivityRow {
  // One literal with every column: a row spread from another, then given its hashes, cost several times more.
  const actor = entry.actor;
  const person = actor.kind === 'person' ? actor : undefined;
  const row: ActivityRow = {
    seq,
    at: entry.at,
    actor_kind: actor.kind,
    person_id: person ? person.id : null,
    person_name: person ? person.name : null,
    site_id: entry.siteId ?? null,
    action: entry.action,
    target_name: wellFormed(entry.target?.name),
    target_slug: wellFormed(entry.target?.slug),
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
    prev_hash: prevHash,
    hash: '',
  };
  row.hash = hash('sha256', `${prevHash}\n${rowJson(row)}`, 'hex');
  return row;
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
const VERIFY_BATCH = 1_000;

/** How many of the newest entries a search by name on PostgreSQL reads before it turns to the index of the names' words. */
const NAME_SEARCH_RECENT = 5_000;

/** Older entries the page's check reads again each time, in turn (0.25 to 0.3 s at a million here; the whole chain took 16 s). */
const CHECK_WINDOW = 20_000;

export function createActivityStore(database: AppDatabase) {
  const { db } = database;

  /** Links `entries` to the chain's end (`last`): their rows, numbered and hashed. */
  function chained(last: { seq: number; hash: string } | undefined, entries: readonly NewEntry[]): ActivityRow[] {
    let seq = last ? Number(last.seq) : 0;
    let prev = last?.hash ?? GENESIS_HASH;
    return entries.map((entry) => {
      seq += 1;
      const row = chainedRow(entry, seq, prev);
      prev = row.hash;
      return row;
    });
  }

  /**
   * The chain's end as this store last wrote or read it: where its next entries link. Appends are numbered
   * from it and written without reading it again; when another writer (a second instance, the command line)
   * appended meanwhile, the first number is taken, the insert fails as a whole on the primary key, and the
   * end is read again and the entries linked to it. An insert that succeeds therefore follows the entry its
   * `prev_hash` names: numbers are never reused, and the newest entry is never pruned.
   */
  let end: { seq: number; hash: string } | undefined;
  let endKnown = false;
  const readEnd = async () => {
    end = await db.selectFrom('activity').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    endKnown = true;
  };

  /** Whether an insert failed because another writer took the first number (the primary key), on either engine. */
  const placeTaken = (error: unknown) => {
    const { code } = error as { code?: unknown };
    return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
  };

  /** Each row's values in the table's column order. */
  const valuesOf = (row: ActivityRow) => ACTIVITY_COLUMNS.map((column) => row[column]);

  // On SQLite the insert is prepared once and run synchronously by better-sqlite3 in one BEGIN IMMEDIATE
  // (its transaction().immediate): the bench measured the Kysely version, built, compiled and prepared for
  // every entry, at about three quarters of a lookup's CPU.
  const { sqlite } = database;
  const insertSqlite = sqlite
    ? (() => {
        // Parameters by position: better-sqlite3 binds them without looking each name up.
        const insert = sqlite.prepare(
          `insert into activity (${ACTIVITY_COLUMNS.join(', ')}) values (${ACTIVITY_COLUMNS.map(() => '?').join(', ')})`,
        );
        return sqlite.transaction((rows: readonly ActivityRow[]) => {
          for (const row of rows) insert.run(valuesOf(row));
        });
      })()
    : undefined;

  /**
   * PostgreSQL's insert: the rows as one JSON parameter, unpacked by the database into the table's columns.
   * One JSON.stringify of the batch costs this process a fraction of binding 21 parameters per row.
   */
  const insertPostgres = `insert into activity (${ACTIVITY_COLUMNS.join(', ')}) select ${ACTIVITY_COLUMNS.join(', ')} from json_populate_recordset(null::activity, $1::json)`;

  /** How many times an append links again to an end another writer moved before it gives up. */
  const RELINK_ATTEMPTS = 100;

  /**
   * Appends as one insert: on PostgreSQL one statement in its own transaction (one round trip), on
   * SQLite one short transaction; resolves once it has committed. Another writer's entries in between
   * cost a read of the end and a second try.
   */
  async function commit(entries: readonly NewEntry[]): Promise<ActivityRow[]> {
    for (let attempt = 1; ; attempt += 1) {
      if (!endKnown) await readEnd();
      const rows = chained(end, entries);
      try {
        if (insertSqlite) {
          // Inside Kysely's hold on the one connection, so no transaction of Kysely's is open around it;
          // IMMEDIATE takes the file's write lock at once, so another process appending waits its turn.
          await db.connection().execute(() => Promise.resolve(insertSqlite.immediate(rows)));
        } else {
          await db.executeQuery(CompiledQuery.raw(insertPostgres, [JSON.stringify(rows)]));
        }
      } catch (error) {
        // Whatever failed, the end is read again before the next append.
        endKnown = false;
        if (placeTaken(error) && attempt < RELINK_ATTEMPTS) continue;
        throw error;
      }
      const last = rows.at(-1);
      if (last) end = { seq: last.seq, hash: last.hash };
      return rows;
    }
  }

  // Group commit: appends wait for the end of the event loop's turn (setImmediate runs once the sockets'
  // news of this turn is handled), then go together in one transaction; appends that arrive while it is under
  // way go in the next. Under load a transaction then holds the entries of every answer that came in at
  // once, and a commit (its log write, seven indices' pages) is paid once for all of them: appended one by
  // one, the commit cost a lookup about as much CPU as everything else it does. Every entry is still
  // committed before its append resolves, so before anything waiting for it (a create leaving, an answer
  // to the browser) goes on.
  let waiting: { entries: readonly NewEntry[]; resolve: (rows: ActivityRow[]) => void; reject: (error: unknown) => void }[] = [];
  let flushing = false;

  async function flush(): Promise<void> {
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

  /**
   * A page of `filter`'s entries, newest first. A search (`q`) is a slug or a case id exactly, or the words
   * of a product's name (each the start of a word, all of them): three queries, each on its own index, each
   * a page long, merged; one query with OR between them could use no index and read every entry.
   */
  async function pageOf(filter: ActivityFilter, before: number | undefined, limit: number): Promise<ActivityRow[]> {
    const newest = (query: ActivityQuery) =>
      (before === undefined ? query : query.where('seq', '<', before)).orderBy('seq', 'desc').limit(limit).execute();
    const all = filtered(db.selectFrom('activity').selectAll(), filter, await timeIndexPays(filter, before, limit));
    const text = filter.q?.trim();
    if (!text) return newest(all);
    const words = wordsOf(text);
    const byName = () => {
      if (words.length === 0) return Promise.resolve([]);
      if (database.engine === 'sqlite') {
        const match = words.map((word) => `"${word}"*`).join(' ');
        return newest(all.where('seq', 'in', sql<number>`(select rowid from activity_names where activity_names match ${match})`));
      }
      const query = words.map((word) => `${word}:*`).join(' & ');
      // The index's expression and condition, word for word, so PostgreSQL can use it.
      const match = sql<boolean>`target_name is not null and to_tsvector('simple', target_name) @@ to_tsquery('simple', ${query})`;
      return namesOnPostgres((from) => filtered(from.selectFrom('activity').selectAll(), filter).where(match), before, limit);
    };
    const found = await Promise.all([newest(all.where('target_slug', '=', text)), newest(all.where('case_id', '=', text)), byName()]);
    const bySeq = new Map<number, ActivityRow>();
    for (const row of found.flat()) bySeq.set(Number(row.seq), row);
    return [...bySeq.values()].sort((a, b) => Number(b.seq) - Number(a.seq)).slice(0, limit);
  }

  /**
   * Whether a time range is best read through the index on `at` (SQLite only: PostgreSQL's planner weighs
   * this itself). SQLite's takes that index for any range, then sorts what it read: fast for a day, but for
   * the last month of a million entries (75,000) about 0.3 s, where reading newest first and passing over
   * the entries newer than the range takes a few ms. Which is cheaper follows from how many entries are in
   * the range against how many are newer, estimated from the places of the range's ends (times grow with
   * places, give or take the milliseconds an append waits). The answer is the same either way.
   */
  async function timeIndexPays(filter: ActivityFilter, before: number | undefined, limit: number): Promise<boolean> {
    if (database.engine !== 'sqlite' || (filter.from === undefined && filter.to === undefined)) return true;
    const placeAt = async (at: number | undefined) => {
      if (at === undefined) return undefined;
      const row = await db.selectFrom('activity').select('seq').where('at', '>=', at).orderBy('at').limit(1).executeTakeFirst();
      return row ? Number(row.seq) : Number.POSITIVE_INFINITY;
    };
    const newest = async () =>
      Number((await db.selectFrom('activity').select('seq').orderBy('seq', 'desc').limit(1).executeTakeFirst())?.seq ?? 0) + 1;
    const [low, high, top] = await Promise.all([placeAt(filter.from), placeAt(filter.to), before ?? newest()]);
    const end = Math.min(high ?? top, top);
    const newer = top - end;
    const inRange = end - Math.min(low ?? 0, end);
    return inRange < newer + limit * 10;
  }

  /**
   * A page of a search by name on PostgreSQL. Its planner cannot tell how many names start with a word
   * (a prefix), and when it guesses many it reads newest first, computing every entry's words: a word in
   * no name cost a second at a million. So first the newest entries alone (a bounded read: places have
   * no gaps), which serves a common word; only if they hold less than a page, the older ones through the
   * index of the names' words alone (with the planner's index scans off for this one query), whose cost
   * follows the number of names that match. The same entries either way.
   */
  async function namesOnPostgres(
    matching: (from: Kysely<Database>) => ActivityQuery,
    before: number | undefined,
    limit: number,
  ): Promise<ActivityRow[]> {
    const top =
      before ?? Number((await db.selectFrom('activity').select('seq').orderBy('seq', 'desc').limit(1).executeTakeFirst())?.seq ?? 0) + 1;
    const floor = top - NAME_SEARCH_RECENT;
    const recent = await matching(db).where('seq', '<', top).where('seq', '>=', floor).orderBy('seq', 'desc').limit(limit).execute();
    if (recent.length === limit || floor <= 0) return recent;
    const older = await db.transaction().execute(async (trx) => {
      await sql`set local enable_indexscan = off`.execute(trx);
      return matching(trx)
        .where('seq', '<', floor)
        .orderBy('seq', 'desc')
        .limit(limit - recent.length)
        .execute();
    });
    return [...recent, ...older];
  }

  /** What the last check verified: the chain from `first` to `last` (its hash), and where the next window starts. */
  let verified: { first: number; last: number; lastHash: string; windowAfter: number } | undefined;
  let checking: Promise<Verification> | undefined;
  /** A whole check under way: another caller waits for it rather than reading everything a second time. */
  let verifying: Promise<Verification> | undefined;

  const store = {
    /** Appends entries, in order, at the end of the chain; resolves with them once committed. */
    append(...entries: NewEntry[]): Promise<ActivityRow[]> {
      return new Promise<ActivityRow[]>((resolve, reject) => {
        waiting.push({ entries, resolve, reject });
        if (!flushing) {
          flushing = true;
          setImmediate(() => void flush());
        }
      });
    },

    /**
     * Entries that pass `filter`, newest first, older than `before` (a seq) when given: keyset pages, so the
     * millionth entry costs what the first does.
     */
    list(filter: ActivityFilter, page: { before?: number; limit: number }): Promise<ActivityRow[]> {
      return pageOf(filter, page.before, page.limit);
    },

    /** Every entry that passes `filter`, newest first, a batch at a time (for export: memory stays flat). */
    async *stream(filter: ActivityFilter, batchSize = 1_000): AsyncGenerator<ActivityRow[]> {
      let before: number | undefined;
      for (;;) {
        const batch = await pageOf(filter, before, batchSize);
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
     * What became of the product update at `seq`: its outcome entry (the first that completes it), and the
     * updates sent to revert it (`detail.reverts` = seq), oldest first, each with its outcome entry. All of
     * them come after the update, so only the product updates and their outcomes after it are read, through
     * the index of the actions; a revert's detail is matched as text first (a detail is one flat JSON object
     * whose strings escape their quotes, so `"reverts":<seq>` followed by `,` or `}` is its own key), then
     * read to be sure.
     */
    async updateFollowUps(
      seq: number,
    ): Promise<{ outcome: ActivityRow | undefined; reverts: { update: ActivityRow; outcome: ActivityRow | undefined }[] }> {
      const outcomeOf = (update: number) =>
        db
          .selectFrom('activity')
          .selectAll()
          .where('action', '=', 'product.update.outcome')
          .where('seq', '>', update)
          .where('refers_to', '=', update)
          .orderBy('seq')
          .limit(1)
          .executeTakeFirst();
      const key = `%"reverts":${seq}`;
      const candidates = await db
        .selectFrom('activity')
        .selectAll()
        .where('action', '=', 'product.update')
        .where('seq', '>', seq)
        .where((eb) => eb.or([eb('detail', 'like', `${key},%`), eb('detail', 'like', `${key}}%`)]))
        .orderBy('seq')
        .execute();
      const reverts = candidates.filter((row) => {
        try {
          return (JSON.parse(row.detail ?? 'null') as { reverts?: unknown } | null)?.reverts === seq;
        } catch {
          return false;
        }
      });
      return {
        outcome: await outcomeOf(seq),
        reverts: await Promise.all(reverts.map(async (update) => ({ update, outcome: await outcomeOf(Number(update.seq)) }))),
      };
    },

    /** The outcome entry of a product created (the platform answered `created`), by its place; undefined for any other entry. */
    async createdProduct(seq: number): Promise<ActivityRow | undefined> {
      return createdProducts().where('seq', '=', seq).executeTakeFirst();
    },

    /** The products created on `siteId`, newest first, older than `before` (a seq) when given: the team's list, a page at a time. */
    async createdProductsOn(siteId: string, page: { before?: number; limit: number }): Promise<ActivityRow[]> {
      let select = createdProducts().where('site_id', '=', siteId);
      if (page.before !== undefined) select = select.where('seq', '<', page.before);
      return select.orderBy('seq', 'desc').limit(page.limit).execute();
    },

    /** Each slug created on `siteId`, with its last creation's time and who: one row per slug (the editor's and the import's warning). */
    async createdSlugsOn(siteId: string): Promise<Pick<ActivityRow, 'target_slug' | 'at' | 'actor_kind' | 'person_name'>[]> {
      const latest = db
        .selectFrom('activity')
        .select((eb) => ['target_slug', eb.fn.max('seq').as('last')])
        .where('action', '=', 'product.create.outcome')
        .where('outcome', '=', 'created')
        .where('site_id', '=', siteId)
        .where('target_slug', 'is not', null)
        .groupBy('target_slug')
        .as('latest');
      return db
        .selectFrom('activity')
        .innerJoin(latest, 'latest.last', 'activity.seq')
        .select(['activity.target_slug', 'activity.at', 'activity.actor_kind', 'activity.person_name'])
        .execute();
    },

    /**
     * Checks the whole chain from its first kept entry: the places follow each other, each entry's
     * `prev_hash` is the hash of the one before, and each hash is that of its own content. Names the
     * first entry where it breaks. Reads every entry: `npm run activity -- verify`, and hourly.
     */
    verify(): Promise<Verification> {
      verifying ??= verifyAll().finally(() => {
        verifying = undefined;
      });
      return verifying;
    },

    /**
     * The Activity page's check, which must not read a million entries on every load: the entries appended
     * since the last check, linked to the end that check verified (still there with the same hash, else
     * the whole chain is read again and the break named); and one window of older entries in turn, so
     * an entry edited in place (without its hash) is found within a round of the windows, and by the
     * hourly full `verify`. A chain shorter than a window is read whole every time. The first check after
     * a start reads the whole chain.
     */
    check(): Promise<Verification> {
      checking ??= checkIncrementally().finally(() => {
        checking = undefined;
      });
      return checking;
    },
  };

  /** The outcome entries of products created. */
  function createdProducts() {
    return db.selectFrom('activity').selectAll().where('action', '=', 'product.create.outcome').where('outcome', '=', 'created');
  }

  async function verifyAll(): Promise<Verification> {
    const result = await walk({ after: 0 });
    if (!result.ok) {
      // The page's next check reads it all again, and names the break too.
      verified = undefined;
      return result.verification;
    }
    const known = verified;
    const end = known ? await db.selectFrom('activity').select('hash').where('seq', '=', known.last).executeTakeFirst() : undefined;
    // A chain rewritten since the page's check verified its end stays reported by that check (see check).
    if (!known || known.first !== result.first || end?.hash === known.lastHash) remember(result);
    return { ok: true, entries: result.entries, first: result.first, last: result.last };
  }

  function remember(result: { first: number | null; last: number | null; lastHash: string | null }) {
    if (result.first === null || result.last === null || result.lastHash === null) verified = undefined;
    else verified = { first: result.first, last: result.last, lastHash: result.lastHash, windowAfter: verified?.windowAfter ?? 0 };
  }

  async function checkIncrementally(): Promise<Verification> {
    const known = verified;
    const firstRow = await db.selectFrom('activity').select('seq').orderBy('seq').limit(1).executeTakeFirst();
    const first = firstRow ? Number(firstRow.seq) : null;
    // No check yet, or the chain now starts outside what was verified: all of it. Pruned since (the first
    // entries removed, as pruning does, oldest first): what is left of the verified part stays verified.
    if (!known || first === null || first < known.first || first > known.last) return store.verify();
    // The end verified last time is gone or changed: entries were rewritten, their hashes recomputed from some
    // point on (which a whole check cannot tell from a chain that was never changed). Said on every check
    // until the server restarts, with the whole chain's check naming an earlier break if there is one.
    const end = await db.selectFrom('activity').select('hash').where('seq', '=', known.last).executeTakeFirst();
    if (end?.hash !== known.lastHash) {
      const whole = await store.verify();
      verified = known;
      if (!whole.ok) return whole;
      return {
        ok: false,
        entries: whole.entries,
        brokenAt: known.last,
        reason: `entry ${known.last} is ${end ? 'not the one' : 'gone, not'} verified earlier (the chain from some entry up to it was rewritten)`,
      };
    }
    const news = await walk({ after: known.last, prev: known.lastHash });
    if (!news.ok) return news.verification;
    const last = news.last ?? known.last;
    // One window of the older entries, from the entry before it (to check the link), wrapping round at the end.
    const windowAfter = known.windowAfter >= known.last ? 0 : known.windowAfter;
    const from = Math.max(windowAfter, first);
    const before = from > first ? await db.selectFrom('activity').select('hash').where('seq', '=', from).executeTakeFirst() : undefined;
    if (from > first && !before) return store.verify();
    const window = await walk({ after: from > first ? from : from - 1, prev: before?.hash, until: known.last, limit: CHECK_WINDOW });
    if (!window.ok) return window.verification;
    verified = {
      first,
      last,
      lastHash: news.lastHash ?? known.lastHash,
      windowAfter: window.last === null || window.last >= known.last ? 0 : window.last,
    };
    return { ok: true, entries: last - first + 1, first, last };
  }

  /**
   * Walks the chain from the entry after `after` (linked to `prev` when given), through `until` or the end,
   * at most `limit` entries: either the break it finds, or how far it got.
   */
  async function walk(range: {
    after: number;
    prev?: string;
    until?: number;
    limit?: number;
  }): Promise<
    | { ok: true; entries: number; first: number | null; last: number | null; lastHash: string | null }
    | { ok: false; verification: Verification }
  > {
    let after = range.after;
    let expectedPrev: string | null = range.prev ?? null;
    let expectedSeq: number | null = range.prev === undefined ? null : range.after + 1;
    let entries = 0;
    let first: number | null = null;
    let last: number | null = null;
    let lastHash: string | null = null;
    const limit = range.limit ?? Number.POSITIVE_INFINITY;
    while (entries < limit) {
      let query = db.selectFrom('activity').selectAll().where('seq', '>', after);
      if (range.until !== undefined) query = query.where('seq', '<=', range.until);
      const batch = await query
        .orderBy('seq')
        .limit(Math.min(VERIFY_BATCH, limit - entries))
        .execute();
      if (batch.length === 0) break;
      for (const row of batch) {
        const seq = Number(row.seq);
        const broken = (brokenAt: number, reason: string) => ({
          ok: false as const,
          verification: { ok: false as const, entries, brokenAt, reason },
        });
        if (expectedSeq !== null && seq !== expectedSeq)
          return broken(expectedSeq, `entry ${expectedSeq} is missing (the next kept is ${seq})`);
        if (expectedPrev !== null && row.prev_hash !== expectedPrev) return broken(seq, `entry ${seq} does not follow the entry before it`);
        if (entryHash(row.prev_hash, row) !== row.hash) return broken(seq, `entry ${seq} was changed after it was written`);
        first ??= seq;
        last = seq;
        lastHash = row.hash;
        entries += 1;
        expectedSeq = seq + 1;
        expectedPrev = row.hash;
      }
      after = last ?? after;
      // Between batches, the rest of the server's work: better-sqlite3 answers at once, so without a turn of
      // the event loop here a million entries (about 14 s) would hold every request up until the end.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { ok: true, entries, first, last, lastHash };
  }

  return store;
}

export type ActivityStore = ReturnType<typeof createActivityStore>;
