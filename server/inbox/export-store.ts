/**
 * What an export of a form's cases reads of the team's own work (migration 0007): each touched case's status
 * and assignee (with the assignee's name), and for "new to me" the cases the asker has seen and since when
 * their "new" runs. Read once per export, whole for the form: only cases someone touched have rows, and
 * the export needs them for every page it reads. Knows nothing of HTTP.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export interface CaseWorkRow {
  status: string;
  assigneeId: string | null;
  assigneeName: string | null;
}

export function createExportStore(db: Kysely<Database>) {
  return {
    /** The status and assignee of every case of the form the team has touched, by case id. */
    async workOf(siteId: string, formId: string): Promise<Map<string, CaseWorkRow>> {
      const rows = await db
        .selectFrom('case_work')
        .leftJoin('people', 'people.id', 'case_work.assignee_id')
        .select(['case_work.case_id', 'case_work.status', 'case_work.assignee_id', 'people.display_name'])
        .where('case_work.site_id', '=', siteId)
        .where('case_work.form_id', '=', formId)
        .execute();
      return new Map(
        rows.map((row) => [row.case_id, { status: row.status, assigneeId: row.assignee_id, assigneeName: row.display_name ?? null }]),
      );
    },

    /** The cases of the form that `personKey` (a person's id, or 'demo') has seen. */
    async seenBy(siteId: string, formId: string, personKey: string): Promise<Set<string>> {
      const rows = await db
        .selectFrom('case_seen')
        .select('case_id')
        .where('site_id', '=', siteId)
        .where('form_id', '=', formId)
        .where('person_key', '=', personKey)
        .execute();
      return new Set(rows.map((row) => row.case_id));
    },

    /** Since when (ms) `personKey`'s "new" runs on the form; undefined when they never opened its inbox. */
    async newSince(siteId: string, formId: string, personKey: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('inbox_watches')
        .select('since')
        .where('site_id', '=', siteId)
        .where('form_id', '=', formId)
        .where('person_key', '=', personKey)
        .executeTakeFirst();
      return row ? Number(row.since) : undefined;
    },
  };
}

export type ExportStore = ReturnType<typeof createExportStore>;
