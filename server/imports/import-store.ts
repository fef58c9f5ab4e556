/**
 * Imports on the server (tables `imports` and `import_products`): the file, the work on it, each product's
 * status and the run's lease. The rules that make an import safe to resume from any browser live here:
 *
 * - A product is claimed ('sending') in one statement that succeeds only when it was never created, nor is
 *   on its way, nor has an unknown outcome; the claim also needs the run's live lease. A product is
 *   therefore sent at most once by any number of pages, instances and people.
 * - The lease is taken in one conditional update (free, lapsed, or already this runner's), so two pages
 *   cannot both run an import; a page that died lets go when its lease lapses, and what it left 'sending'
 *   becomes 'unknown' when someone else takes the run (it may have been created: never resent by itself).
 */
import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import {
  IMPORT_LEASE_MS,
  type ImportCounts,
  type ImportFile,
  type ImportRecord,
  type ImportSummary,
  type ServerProductStatus,
  type SharedWork,
} from '../../src/contract/imports';
import type { AppDatabase } from '../db/open';
import type { Database, ImportsTable } from '../db/schema';
// An import's starter and runner are named as the activity record names its actors.
import { actorNameOf as nameOf, type Starter } from '../identity';

/** A random id or token, url-safe. */
export const randomId = (bytes = 16) => randomBytes(bytes).toString('base64url');

function parse(text: string | null): unknown {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    return null;
  }
}

/** The dry run's count of products, as the work last said. */
function productsOf(work: string): number {
  const value = (parse(work) as { products?: unknown } | null)?.products;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** `work`, with the count of products of `old` when it says none (a page whose dry run has not finished). */
function withCount(work: string, old: string | undefined): string {
  const next = parse(work) as { products?: unknown } | null;
  if (next && next.products === undefined) return JSON.stringify({ ...next, products: productsOf(old ?? '{}') });
  return work;
}

/** Every column of an import but its file (megabytes, read only when the file is asked for). */
const LIGHT_COLUMNS = [
  'id',
  'site_id',
  'started_by_kind',
  'started_by_id',
  'started_by_name',
  'created_at',
  'updated_at',
  'file_name',
  'work',
  'version',
  'runner_token',
  'runner_kind',
  'runner_id',
  'runner_name',
  'runner_since',
  'lease_until',
  'ran_at',
  'ended_at',
  'ended_how',
] as const;

export type Outcome =
  | { status: 'created' | 'updated'; body: string | null; answer: string | null }
  | { status: 'rejected'; httpStatus: number; message: string; details: { field: string; message: string }[] }
  | { status: 'unknown'; message: string }
  /** An update not sent: the product changed on the platform since the dry run (412). */
  | { status: 'conflict'; message: string }
  /** Not processed (429, 503 with Retry-After) or never sent: back to not sent. */
  | { status: 'pending' };

/** An import nobody runs. */
const NO_RUNNER = {
  runner_token: null,
  runner_kind: null,
  runner_id: null,
  runner_name: null,
  runner_since: null,
  lease_until: null,
} as const;

export function createImportStore(database: AppDatabase) {
  const { db } = database;
  const leaseLive = (row: Pick<ImportsTable, 'runner_token' | 'lease_until'>, now: number) =>
    row.runner_token !== null && row.lease_until !== null && Number(row.lease_until) > now;

  async function countsOf(ids: readonly string[], work: Map<string, string>): Promise<Map<string, ImportCounts>> {
    const counts = new Map<string, ImportCounts>(
      ids.map((id) => [
        id,
        {
          products: productsOf(work.get(id) ?? '{}'),
          created: 0,
          updated: 0,
          rejected: 0,
          unknown: 0,
          skipped: 0,
          conflict: 0,
          pending: 0,
        },
      ]),
    );
    if (ids.length > 0) {
      const rows = await db
        .selectFrom('import_products')
        .select(['import_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('import_id', 'in', ids)
        .groupBy(['import_id', 'status'])
        .execute();
      for (const row of rows) {
        const c = counts.get(row.import_id);
        if (!c) continue;
        const n = Number(row.n);
        // 'sending' counts as unknown here: a count is read later than the send, and it may have been created.
        if (row.status === 'created') c.created += n;
        else if (row.status === 'updated') c.updated += n;
        else if (row.status === 'conflict') c.conflict += n;
        else if (row.status === 'rejected') c.rejected += n;
        else if (row.status === 'skipped') c.skipped += n;
        else c.unknown += n;
      }
    }
    for (const c of counts.values()) {
      c.pending = Math.max(0, c.products - c.created - c.updated - c.rejected - c.unknown - c.skipped - c.conflict);
    }
    return counts;
  }

  function summaryOf(row: Omit<ImportsTable, 'file'>, counts: ImportCounts, now: number): ImportSummary {
    return {
      id: row.id,
      siteId: row.site_id,
      fileName: row.file_name,
      startedBy: nameOf(row.started_by_kind, row.started_by_name),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      counts,
      runner: leaseLive(row, now)
        ? { name: nameOf(row.runner_kind, row.runner_name), since: Number(row.runner_since), until: Number(row.lease_until) }
        : null,
      endedAt: row.ended_at === null ? null : Number(row.ended_at),
    };
  }

  const getRow = (id: string) => db.selectFrom('imports').select(LIGHT_COLUMNS).where('id', '=', id).executeTakeFirst();

  return {
    /**
     * A new import; `known` are statuses a browser kept before the server did (an import started by an
     * earlier version): they can only hold products back, never let one be sent.
     */
    async create(input: {
      siteId: string;
      by: Starter;
      fileName: string;
      file: string;
      work: string;
      now: number;
      known?: readonly { key: string; status: Exclude<ServerProductStatus['status'], 'sending'>; detail: string }[];
    }): Promise<string> {
      const id = randomId();
      await db.transaction().execute(async (trx: Kysely<Database>) => {
        await trx
          .insertInto('imports')
          .values({
            id,
            site_id: input.siteId,
            started_by_kind: input.by.kind,
            started_by_id: input.by.kind === 'person' ? input.by.id : null,
            started_by_name: input.by.kind === 'person' ? input.by.name : null,
            created_at: input.now,
            updated_at: input.now,
            file_name: input.fileName,
            file: input.file,
            work: input.work,
            version: 1,
            ...NO_RUNNER,
            ran_at: null,
            ended_at: null,
            ended_how: null,
          })
          .execute();
        if (input.known && input.known.length > 0) {
          await trx
            .insertInto('import_products')
            .values(
              input.known.map((k) => ({
                import_id: id,
                product_key: k.key,
                status: k.status,
                detail: k.detail,
                create_seq: null,
                updated_at: input.now,
              })),
            )
            .execute();
        }
      });
      return id;
    },

    /** The site's imports not discarded, newest first. */
    async list(siteId: string, now: number): Promise<ImportSummary[]> {
      const rows = await db
        .selectFrom('imports')
        .select(LIGHT_COLUMNS)
        .where('site_id', '=', siteId)
        .orderBy('created_at', 'desc')
        .limit(100)
        .execute();
      const counts = await countsOf(
        rows.map((row) => row.id),
        new Map(rows.map((row) => [row.id, row.work])),
      );
      return rows.map((row) => summaryOf(row, counts.get(row.id) as ImportCounts, now));
    },

    /** Its site, or undefined when there is no such import. */
    async siteOf(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('imports').select('site_id').where('id', '=', id).executeTakeFirst();
      return row?.site_id;
    },

    async get(id: string, now: number): Promise<ImportRecord | undefined> {
      const row = await db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const counts = await countsOf([id], new Map([[id, row.work]]));
      const rows = await db.selectFrom('import_products').selectAll().where('import_id', '=', id).execute();
      const live = leaseLive(row, now);
      const products: Record<string, ServerProductStatus> = {};
      for (const product of rows) {
        const detail = (parse(product.detail) ?? {}) as Omit<ServerProductStatus, 'status' | 'at' | 'createSeq'>;
        // Statuses a browser kept before the server did were once stored with the answer and body as JSON, not text.
        for (const field of ['body', 'answer'] as const) {
          const value: unknown = detail[field];
          if (value !== undefined && value !== null && typeof value !== 'string') detail[field] = JSON.stringify(value);
        }
        const lapsed = product.status === 'sending' && !live;
        products[product.product_key] = {
          ...detail,
          status: lapsed ? 'unknown' : (product.status as ServerProductStatus['status']),
          ...(lapsed ? { message: 'The page that sent this product stopped before its answer came: it may have been created.' } : {}),
          at: Number(product.updated_at),
          createSeq: product.create_seq === null ? null : Number(product.create_seq),
        };
      }
      return {
        ...summaryOf(row, counts.get(id) as ImportCounts, now),
        // Both were read through the contract's schemas before they were stored.
        file: parse(row.file) as ImportFile,
        work: parse(row.work) as SharedWork,
        version: Number(row.version),
        products,
      };
    },

    /** One import's summary, without reading its file. */
    async summary(id: string, now: number): Promise<ImportSummary | undefined> {
      const row = await getRow(id);
      if (!row) return undefined;
      const counts = await countsOf([id], new Map([[id, row.work]]));
      return summaryOf(row, counts.get(id) as ImportCounts, now);
    },

    async counts(id: string): Promise<ImportCounts> {
      const row = await db.selectFrom('imports').select('work').where('id', '=', id).executeTakeFirst();
      const counts = await countsOf([id], new Map([[id, row?.work ?? '{}']]));
      return counts.get(id) as ImportCounts;
    },

    /** Replaces the work when `version` is the latest; resolves to the new version, or 'stale'/'missing'. */
    async updateWork(id: string, version: number, work: string, now: number): Promise<number | 'stale' | 'missing'> {
      const old = await db.selectFrom('imports').select('work').where('id', '=', id).executeTakeFirst();
      const result = await db
        .updateTable('imports')
        .set({ work: withCount(work, old?.work), version: version + 1, updated_at: now })
        .where('id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return version + 1;
      return (await getRow(id)) ? 'stale' : 'missing';
    },

    /**
     * Replaces the file and work at `version` (the editor's round trip), in one transaction: the product of
     * rows [start, end) is unsent again (unless created: a created product keeps its status), later rows'
     * statuses move by `delta`. Refused while someone runs the import.
     */
    async replaceFile(
      id: string,
      version: number,
      input: { file: string; work: string; start: number; end: number; delta: number },
      now: number,
    ): Promise<number | 'stale' | 'missing' | 'running'> {
      return db.transaction().execute(async (trx: Kysely<Database>) => {
        let select = trx.selectFrom('imports').select(LIGHT_COLUMNS).where('id', '=', id);
        if (database.engine === 'postgres') select = select.forUpdate();
        const row = await select.executeTakeFirst();
        if (!row) return 'missing';
        if (Number(row.version) !== version) return 'stale';
        if (leaseLive(row, now)) return 'running';
        const products = await trx.selectFrom('import_products').selectAll().where('import_id', '=', id).execute();
        const moved = products.flatMap((product) => {
          const key = Number(product.product_key);
          if (!Number.isSafeInteger(key) || key < input.end || input.delta === 0) return [];
          return [{ ...product, product_key: String(key + input.delta) }];
        });
        const gone = products.filter((product) => {
          const key = Number(product.product_key);
          return key >= input.start && key < input.end && product.status !== 'created';
        });
        const removed = [...moved.map((p) => String(Number(p.product_key) - input.delta)), ...gone.map((p) => p.product_key)];
        if (removed.length > 0) {
          await trx.deleteFrom('import_products').where('import_id', '=', id).where('product_key', 'in', removed).execute();
        }
        if (moved.length > 0) await trx.insertInto('import_products').values(moved).execute();
        await trx
          .updateTable('imports')
          .set({ file: input.file, work: withCount(input.work, row.work), version: version + 1, updated_at: now })
          .where('id', '=', id)
          .execute();
        return version + 1;
      });
    },

    /**
     * Takes the run for `runner` (a new token when null or not the holder's), or renews it for the page
     * that holds it. Resolves to the token and whether this took the run (first ever: started; again:
     * resumed); or to the live holder.
     */
    async claim(
      id: string,
      runner: string | null,
      who: Starter,
      now: number,
    ): Promise<
      | { kind: 'ok'; token: string; leaseUntil: number; took: 'started' | 'resumed' | null }
      | { kind: 'held'; name: string; since: number }
      | { kind: 'missing' }
    > {
      const row = await getRow(id);
      if (!row) return { kind: 'missing' };
      const leaseUntil = now + IMPORT_LEASE_MS;
      const whoId = who.kind === 'person' ? who.id : null;
      if (runner !== null && row.runner_token === runner && leaseLive(row, now) && row.runner_id === whoId) {
        const renewed = await db
          .updateTable('imports')
          .set({ lease_until: leaseUntil })
          .where('id', '=', id)
          .where('runner_token', '=', runner)
          .executeTakeFirst();
        if (Number(renewed.numUpdatedRows) === 1) return { kind: 'ok', token: runner, leaseUntil, took: null };
      }
      const token = randomId();
      // One statement decides: free, lapsed, or this page's own (after a lapse of its own) — never another's live lease.
      const taken = await db
        .updateTable('imports')
        .set({
          runner_token: token,
          runner_kind: who.kind,
          runner_id: whoId,
          runner_name: who.kind === 'person' ? who.name : null,
          runner_since: now,
          lease_until: leaseUntil,
          ran_at: row.ran_at ?? now,
          ended_at: null,
          ended_how: null,
          updated_at: now,
        })
        .where('id', '=', id)
        .where((eb) =>
          eb.or([
            eb('runner_token', 'is', null),
            eb('lease_until', '<=', now),
            ...(runner === null ? [] : [eb('runner_token', '=', runner)]),
          ]),
        )
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) {
        const holder = await getRow(id);
        return {
          kind: 'held',
          name: nameOf(holder?.runner_kind ?? null, holder?.runner_name ?? null),
          since: Number(holder?.runner_since ?? now),
        };
      }
      // What the last runner left on its way has no answer to come on this run's watch.
      await db
        .updateTable('import_products')
        .set({
          status: 'unknown',
          detail: JSON.stringify({ message: 'The page that sent this product stopped before its answer came: it may have been created.' }),
          updated_at: now,
        })
        .where('import_id', '=', id)
        .where('status', '=', 'sending')
        .execute();
      return { kind: 'ok', token, leaseUntil, took: row.ran_at === null ? 'started' : 'resumed' };
    },

    /** Lets the run go; false when `runner` does not hold it. `finished`: every product was answered. */
    async release(id: string, runner: string, finished: boolean, now: number): Promise<boolean> {
      const result = await db
        .updateTable('imports')
        .set({
          ...NO_RUNNER,
          updated_at: now,
          ...(finished ? { ended_at: now, ended_how: 'finished' } : {}),
        })
        .where('id', '=', id)
        .where('runner_token', '=', runner)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Claims a product for sending, its create or its update (`operation`, kept beside the claim): only with
     * `runner`'s live lease (and, for a person, their own), and only when it was never created or updated,
     * is not on its way, has no unknown outcome and was not held back as changed since the dry run (a
     * rejected one may go again).
     */
    async claimProduct(
      id: string,
      key: string,
      runner: string,
      who: Starter,
      now: number,
      operation: 'create-product' | 'update-product' = 'create-product',
    ): Promise<
      { ok: true } | { ok: false; why: 'missing' | 'not-running' | 'held' | 'answered'; name?: string; since?: number; status?: string }
    > {
      return db.transaction().execute(async (trx: Kysely<Database>) => {
        let select = trx.selectFrom('imports').select(LIGHT_COLUMNS).where('id', '=', id);
        // PostgreSQL: a claim of the run waits for this transaction, and this one for it.
        if (database.engine === 'postgres') select = select.forUpdate();
        const row = await select.executeTakeFirst();
        if (!row) return { ok: false, why: 'missing' } as const;
        const live = leaseLive(row, now);
        if (!live || row.runner_token !== runner || row.runner_id !== (who.kind === 'person' ? who.id : null)) {
          return live
            ? ({ ok: false, why: 'held', name: nameOf(row.runner_kind, row.runner_name), since: Number(row.runner_since) } as const)
            : ({ ok: false, why: 'not-running' } as const);
        }
        await trx
          .deleteFrom('import_products')
          .where('import_id', '=', id)
          .where('product_key', '=', key)
          .where('status', '=', 'rejected')
          .execute();
        const inserted = await trx
          .insertInto('import_products')
          .values({
            import_id: id,
            product_key: key,
            status: 'sending',
            detail: JSON.stringify({ operation }),
            create_seq: null,
            updated_at: now,
          })
          .onConflict((oc) => oc.columns(['import_id', 'product_key']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return { ok: true } as const;
        const existing = await trx
          .selectFrom('import_products')
          .select('status')
          .where('import_id', '=', id)
          .where('product_key', '=', key)
          .executeTakeFirst();
        return { ok: false, why: 'answered', status: existing?.status } as const;
      });
    },

    /** The create's (or update's) entry, once written (before it leaves). */
    async sent(id: string, key: string, createSeq: number, now: number): Promise<void> {
      await db
        .updateTable('import_products')
        .set({ create_seq: createSeq, updated_at: now })
        .where('import_id', '=', id)
        .where('product_key', '=', key)
        .where('status', '=', 'sending')
        .execute();
    },

    /**
     * The outcome of the send of entry `createSeq` (null: it never left). Applies only to that send's claim,
     * so an answer that comes after the lease lapsed still sets the truth ('unknown' becomes 'created').
     */
    async settle(
      id: string,
      key: string,
      attempt: { createSeq: number | null; claimedAt: number },
      outcome: Outcome,
      now: number,
    ): Promise<void> {
      // This send's own claim: by its create entry once written; before that, by the claim's time, and only
      // while still 'sending' (one that a new run marked unknown stays unknown: safe, never sent by itself).
      const mine = (eb: ExpressionBuilder<Database, 'import_products'>) =>
        eb.and([
          eb('import_id', '=', id),
          eb('product_key', '=', key),
          ...(attempt.createSeq === null
            ? [eb('create_seq', 'is', null), eb('updated_at', '=', attempt.claimedAt), eb('status', '=', 'sending')]
            : [eb('create_seq', '=', attempt.createSeq), eb('status', 'in', ['sending', 'unknown'])]),
        ]);
      if (outcome.status === 'pending') {
        await db.deleteFrom('import_products').where(mine).execute();
        return;
      }
      const { status, ...detail } = outcome;
      await db
        .updateTable('import_products')
        .set({ status, detail: JSON.stringify(detail), updated_at: now })
        .where(mine)
        .execute();
    },

    /**
     * A person's decision on an unknown outcome (skip it, or send it again), a rejected product (again), or
     * an update held back because the product changed since the dry run (again, once checked anew).
     */
    async decide(id: string, key: string, decision: 'skipped' | 'pending', now: number): Promise<'ok' | 'not-allowed'> {
      if (decision === 'pending') {
        const result = await db
          .deleteFrom('import_products')
          .where('import_id', '=', id)
          .where('product_key', '=', key)
          .where('status', 'in', ['unknown', 'rejected', 'skipped', 'conflict'])
          .executeTakeFirst();
        return Number(result.numDeletedRows) === 1 ? 'ok' : 'not-allowed';
      }
      const result = await db
        .updateTable('import_products')
        .set({ status: 'skipped', detail: JSON.stringify({ message: 'Skipped by hand after an unknown outcome' }), updated_at: now })
        .where('import_id', '=', id)
        .where('product_key', '=', key)
        .where('status', '=', 'unknown')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? 'ok' : 'not-allowed';
    },

    /** Forgets the import (the activity record keeps its events and every create). */
    async discard(id: string): Promise<void> {
      await db.deleteFrom('import_products').where('import_id', '=', id).execute();
      await db.deleteFrom('imports').where('id', '=', id).execute();
    },
  };
}

export type ImportStore = ReturnType<typeof createImportStore>;
