/**
 * The database side of four eyes (migration 0009-approvals): each site's rule, the changes held back for
 * approval, who approved which version, and each change's history. Every move of a change's state is a
 * conditional UPDATE on the state (and version) it moves from, so two people, tabs or instances acting on
 * the same change at once never both succeed: a write's claim of an approved change (pending → sending)
 * happens once.
 */
import type { Kysely } from 'kysely';
import {
  APPROVAL_KINDS,
  APPROVER_ROLES,
  RULE_OFF,
  type ApprovalKind,
  type ApprovalRule,
  type ApproverRole,
} from '../../src/contract/approvals';
import { ALL_SITES } from '../../src/contract/access';
import type { ChangesTable, Database } from '../db/schema';

export type ChangeRow = ChangesTable;

export interface StoredRule {
  rule: ApprovalRule;
  changedAt: number | null;
  changedBy: { id: string; name: string } | null;
}

/** An import's item as kept: the item asked for, with its body's hash. */
export interface StoredItem {
  key: string;
  method: 'POST' | 'PUT';
  product?: string;
  base?: string;
  body: string;
  hash: string;
}

export interface ApprovalRow {
  personId: string;
  name: string;
  at: number;
}

export interface EventRow {
  action: string;
  version: number;
  byId: string | null;
  byName: string | null;
  at: number;
  reason: string | null;
  seq: number | null;
  writeSeq: number | null;
}

/** Reads a JSON list kept by this store, keeping only the values it may hold (a row written by hand stays readable). */
function listOf<T extends string>(text: string, allowed: readonly T[]): T[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? allowed.filter((item) => value.includes(item)) : [];
  } catch {
    return [];
  }
}

export function createApprovalStore(db: Kysely<Database>) {
  return {
    async rule(siteId: string): Promise<StoredRule> {
      const row = await db.selectFrom('approval_rules').selectAll().where('site_id', '=', siteId).executeTakeFirst();
      if (!row) return { rule: RULE_OFF, changedAt: null, changedBy: null };
      const approvers = listOf<ApproverRole>(row.approvers, APPROVER_ROLES);
      return {
        rule: {
          writes: listOf<ApprovalKind>(row.writes, APPROVAL_KINDS),
          approvals: Number(row.approvals) === 2 ? 2 : 1,
          approvers: approvers.length > 0 ? approvers : ['owner'],
        },
        changedAt: Number(row.changed_at),
        changedBy: row.changed_by_id ? { id: row.changed_by_id, name: row.changed_by_name ?? '' } : null,
      };
    },

    async setRule(siteId: string, rule: ApprovalRule, at: number, by: { id: string; name: string }): Promise<void> {
      const values = {
        writes: JSON.stringify(rule.writes),
        approvals: rule.approvals,
        approvers: JSON.stringify(rule.approvers),
        changed_at: at,
        changed_by_id: by.id,
        changed_by_name: by.name,
      };
      await db
        .insertInto('approval_rules')
        .values({ site_id: siteId, ...values })
        .onConflict((oc) => oc.column('site_id').doUpdateSet(values))
        .execute();
    },

    async insert(row: ChangeRow): Promise<void> {
      await db.insertInto('changes').values(row).execute();
    },

    async get(id: string): Promise<ChangeRow | undefined> {
      const row = await db.selectFrom('changes').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? numbers(row) : undefined;
    },

    /** The newest changes of `sites` (at most `limit`), those in `states` when given, of `author` when given. */
    async list(filter: { sites: readonly string[]; states?: readonly string[]; author?: string; limit: number }): Promise<ChangeRow[]> {
      if (filter.sites.length === 0) return [];
      let query = db.selectFrom('changes').selectAll().where('site_id', 'in', filter.sites);
      if (filter.states) query = query.where('state', 'in', filter.states);
      if (filter.author !== undefined) query = query.where('author_id', '=', filter.author);
      const rows = await query.orderBy('asked_at', 'desc').orderBy('id').limit(filter.limit).execute();
      return rows.map(numbers);
    },

    /** The open changes whose time ran out by `now` (pending or approved, or returned to their authors). */
    async due(now: number): Promise<ChangeRow[]> {
      const rows = await db
        .selectFrom('changes')
        .selectAll()
        .where('state', 'in', ['pending', 'returned'])
        .where('expires_at', '<=', now)
        .limit(500)
        .execute();
      return rows.map(numbers);
    },

    /** Changes left `sending` since before `before` (the write that claimed them never settled them: a crash). */
    async stuck(before: number): Promise<ChangeRow[]> {
      const rows = await db
        .selectFrom('changes')
        .selectAll()
        .where('state', '=', 'sending')
        .where('updated_at', '<', before)
        .limit(500)
        .execute();
      return rows.map(numbers);
    },

    /**
     * Moves the change from one of `from` (at `version`, when given) to `to`, with `set`; false when it was
     * no longer in such a state (someone else moved it first).
     */
    async move(
      id: string,
      from: readonly string[],
      to: string,
      set: Partial<Omit<ChangeRow, 'id' | 'state'>>,
      version?: number,
      /** When given: only while the change has not expired by then (a claim never takes an expired change). */
      liveAt?: number,
    ): Promise<boolean> {
      let query = db
        .updateTable('changes')
        .set({ ...set, state: to })
        .where('id', '=', id)
        .where('state', 'in', from);
      if (version !== undefined) query = query.where('version', '=', version);
      if (liveAt !== undefined) query = query.where('expires_at', '>', liveAt);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Adds `person`'s approval of `version`; false when they approved it already. */
    async approve(id: string, version: number, person: { id: string; name: string }, at: number): Promise<boolean> {
      const result = await db
        .insertInto('change_approvals')
        .values({ change_id: id, version, person_id: person.id, person_name: person.name, at })
        .onConflict((oc) => oc.columns(['change_id', 'version', 'person_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** Puts a change back as `row` holds it (a step the activity record could not take is undone). */
    async restore(row: ChangeRow): Promise<void> {
      const { id, ...rest } = row;
      await db.updateTable('changes').set(rest).where('id', '=', id).execute();
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('changes').where('id', '=', id).execute();
    },

    async unapprove(id: string, version: number, personId: string): Promise<void> {
      await db
        .deleteFrom('change_approvals')
        .where('change_id', '=', id)
        .where('version', '=', version)
        .where('person_id', '=', personId)
        .execute();
    },

    /** Which of `changes` (id and version) `personId` approved: `id:version` each. */
    async approvedBy(personId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('change_approvals')
        .select(['change_id', 'version'])
        .where('person_id', '=', personId)
        .where('change_id', 'in', ids)
        .execute();
      return new Set(rows.map((row) => `${row.change_id}:${Number(row.version)}`));
    },

    /** Every approval given to `version`, whoever gave it. */
    async approvalsOf(id: string, version: number): Promise<ApprovalRow[]> {
      const rows = await db
        .selectFrom('change_approvals')
        .select(['person_id', 'person_name', 'at'])
        .where('change_id', '=', id)
        .where('version', '=', version)
        .orderBy('at')
        .execute();
      return rows.map((row) => ({ personId: row.person_id, name: row.person_name, at: Number(row.at) }));
    },

    /**
     * The approvals of `version` that count now: from people other than `authorId` who are still enabled and
     * still hold one of `approvers` on `siteId` (a grant on the site or on every site), one per person.
     */
    async countingApprovals(
      change: { id: string; version: number; site_id: string; author_id: string },
      approvers: readonly ApproverRole[],
    ): Promise<ApprovalRow[]> {
      if (approvers.length === 0) return [];
      const rows = await db
        .selectFrom('change_approvals as a')
        .innerJoin('people as p', 'p.id', 'a.person_id')
        .select(['a.person_id', 'p.display_name', 'a.at'])
        .where('a.change_id', '=', change.id)
        .where('a.version', '=', change.version)
        .where('a.person_id', '<>', change.author_id)
        .where('p.disabled_at', 'is', null)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('grants as g')
              .select('g.person_id')
              .whereRef('g.person_id', '=', 'a.person_id')
              .where('g.site_id', 'in', [change.site_id, ALL_SITES])
              .where('g.role', 'in', approvers),
          ),
        )
        .orderBy('a.at')
        .execute();
      return rows.map((row) => ({ personId: row.person_id, name: row.display_name, at: Number(row.at) }));
    },

    /** Whether `personId` is still an enabled owner of `siteId` (a grant on the site or on every site): an override counts only then. */
    async isOwner(personId: string, siteId: string): Promise<boolean> {
      const row = await db
        .selectFrom('grants as g')
        .innerJoin('people as p', 'p.id', 'g.person_id')
        .select('g.person_id')
        .where('g.person_id', '=', personId)
        .where('p.disabled_at', 'is', null)
        .where('g.site_id', 'in', [siteId, ALL_SITES])
        .where('g.role', '=', 'owner')
        .executeTakeFirst();
      return row !== undefined;
    },

    async countOf(id: string, version: number): Promise<number> {
      const row = await db
        .selectFrom('change_approvals')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('change_id', '=', id)
        .where('version', '=', version)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Adds a step to the change's history, numbered after the last. */
    async addEvent(id: string, event: EventRow): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom('change_events')
          .select((eb) => eb.fn.max('n').as('n'))
          .where('change_id', '=', id)
          .executeTakeFirst();
        await trx
          .insertInto('change_events')
          .values({
            change_id: id,
            n: Number(last?.n ?? 0) + 1,
            action: event.action,
            version: event.version,
            by_id: event.byId,
            by_name: event.byName,
            at: event.at,
            reason: event.reason,
            seq: event.seq,
            write_seq: event.writeSeq,
          })
          .execute();
      });
    },

    async eventsOf(id: string): Promise<EventRow[]> {
      const rows = await db.selectFrom('change_events').selectAll().where('change_id', '=', id).orderBy('n').execute();
      return rows.map((row) => ({
        action: row.action,
        version: Number(row.version),
        byId: row.by_id,
        byName: row.by_name,
        at: Number(row.at),
        reason: row.reason,
        seq: row.seq === null ? null : Number(row.seq),
        writeSeq: row.write_seq === null ? null : Number(row.write_seq),
      }));
    },

    /** The import changes of `importId` that may still be sent. */
    async ofImport(importId: string): Promise<ChangeRow[]> {
      const rows = await db
        .selectFrom('changes')
        .selectAll()
        .where('import_id', '=', importId)
        .where('kind', '=', 'import')
        .where('state', '=', 'pending')
        .execute();
      return rows.map(numbers);
    },
  };
}

/** PostgreSQL's bigint and integer columns read back as numbers (open.ts), SQLite's too; kept so for certain. */
function numbers(row: ChangeRow): ChangeRow {
  return {
    ...row,
    version: Number(row.version),
    asked_at: Number(row.asked_at),
    updated_at: Number(row.updated_at),
    expires_at: Number(row.expires_at),
    revert_of: row.revert_of === null ? null : Number(row.revert_of),
    override_version: row.override_version === null ? null : Number(row.override_version),
    override_at: row.override_at === null ? null : Number(row.override_at),
    sent_seq: row.sent_seq === null ? null : Number(row.sent_seq),
  };
}

export type ApprovalStore = ReturnType<typeof createApprovalStore>;
