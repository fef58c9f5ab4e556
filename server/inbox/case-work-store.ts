/**
 * The team's work on a site's cases in site-admin's database (tables of migration 0007-case-work): each
 * case's status and assignee, its notes with every earlier text, which cases each person has seen, and since
 * when a person's "new" runs on a form. Knows nothing of HTTP, of who may do what, or of the activity record:
 * the endpoints decide and record; this keeps what it is given. Times are milliseconds, passed in.
 *
 * Nothing is edited away: a note's edit moves its earlier text to case_note_versions in the same
 * transaction, and only retention (`pruneNotes`) removes a note, with its versions.
 */
import type { Kysely } from 'kysely';
import { ALL_SITES, capabilitiesOn, type Grant } from '../../src/contract/access';
import {
  NEW_WINDOW_MS,
  UNTOUCHED,
  type CaseStatus,
  type CaseWork,
  type CaseWorkDetail,
  type Note,
  type PersonRef,
} from '../../src/contract/case-work';
import type { AppDatabase } from '../db/open';
import type { CaseNotesTable, Database } from '../db/schema';
import { randomId } from '../imports/import-store';

/** Who changes work or writes a note: a person (id and name at the time), or the local demo (id null). */
export interface Worker {
  id: string | null;
  name: string;
}

/** A touched case's status and assignee, as an export writes them. */
export interface CaseWorkRow {
  status: string;
  assigneeId: string | null;
  assigneeName: string | null;
}

/** The key a person's seen cases and watches are kept under: their id, or 'demo' for the local demo. */
export const personKeyOf = (worker: Worker): string => worker.id ?? 'demo';

/** Notes removed per transaction by `pruneNotes`: small, so writes are never held up long. */
const PRUNE_BATCH = 500;

/** Whether the database refused a row for a key it already holds (two edits of a note at once). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

export function createCaseWorkStore(database: AppDatabase) {
  const { db } = database;

  /** The notes of one case, oldest first, each with its earlier texts, oldest first. */
  async function notesOf(trx: Kysely<Database>, siteId: string, formId: string, caseId: string): Promise<Note[]> {
    const rows = await trx
      .selectFrom('case_notes')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('form_id', '=', formId)
      .where('case_id', '=', caseId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (rows.length === 0) return [];
    const versions = await trx
      .selectFrom('case_note_versions')
      .selectAll()
      .where(
        'note_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('note_id')
      .orderBy('version')
      .execute();
    const byNote = new Map<string, Note['versions']>();
    for (const version of versions) {
      const list = byNote.get(version.note_id) ?? [];
      list.push({ text: version.text, at: Number(version.at), by: version.by_name });
      byNote.set(version.note_id, list);
    }
    return rows.map((row) => noteOf(row, byNote.get(row.id) ?? []));
  }

  function noteOf(row: CaseNotesTable, versions: Note['versions']): Note {
    return {
      id: row.id,
      text: row.text,
      author: { id: row.author_id, name: row.author_name },
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      versions,
    };
  }

  /** Since when (ms) `personKey`'s "new" runs on the form; undefined before they first opened its inbox. */
  async function newSince(siteId: string, formId: string, personKey: string): Promise<number | undefined> {
    const row = await db
      .selectFrom('inbox_watches')
      .select('since')
      .where('site_id', '=', siteId)
      .where('form_id', '=', formId)
      .where('person_key', '=', personKey)
      .executeTakeFirst();
    return row ? Number(row.since) : undefined;
  }

  /** The work on `caseIds` as `personKey` sees it; a case nobody touched is UNTOUCHED (seen as they saw it). */
  async function workOf(
    trx: Kysely<Database>,
    siteId: string,
    formId: string,
    caseIds: readonly string[],
    personKey: string,
  ): Promise<Record<string, CaseWork>> {
    const answer: Record<string, CaseWork> = {};
    if (caseIds.length === 0) return answer;
    const ids = [...caseIds];
    const [work, notes, seen] = await Promise.all([
      trx
        .selectFrom('case_work')
        .leftJoin('people', 'people.id', 'case_work.assignee_id')
        .select([
          'case_work.case_id',
          'case_work.status',
          'case_work.assignee_id',
          'people.display_name as assignee_name',
          'case_work.updated_at',
          'case_work.updated_by_name',
        ])
        .where('case_work.site_id', '=', siteId)
        .where('case_work.form_id', '=', formId)
        .where('case_work.case_id', 'in', ids)
        .execute(),
      trx
        .selectFrom('case_notes')
        .select(['case_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('site_id', '=', siteId)
        .where('form_id', '=', formId)
        .where('case_id', 'in', ids)
        .groupBy('case_id')
        .execute(),
      trx
        .selectFrom('case_seen')
        .select('case_id')
        .where('site_id', '=', siteId)
        .where('form_id', '=', formId)
        .where('person_key', '=', personKey)
        .where('case_id', 'in', ids)
        .execute(),
    ]);
    const seenIds = new Set(seen.map((row) => row.case_id));
    for (const id of ids) answer[id] = { ...UNTOUCHED, seen: seenIds.has(id) };
    for (const row of work) {
      const entry = answer[row.case_id];
      if (!entry) continue;
      entry.status = row.status as CaseStatus;
      entry.assignee = row.assignee_id === null ? null : { id: row.assignee_id, name: row.assignee_name ?? 'A person no longer here' };
      entry.updatedAt = Number(row.updated_at);
      entry.updatedBy = row.updated_by_name;
    }
    for (const row of notes) {
      const entry = answer[row.case_id];
      if (entry) entry.notes = Number(row.n);
    }
    return answer;
  }

  return {
    /** The work on up to a page of cases, as `personKey` sees it. */
    work(siteId: string, formId: string, caseIds: readonly string[], personKey: string): Promise<Record<string, CaseWork>> {
      return workOf(db, siteId, formId, caseIds, personKey);
    },

    newSince,

    /**
     * The status and assignee (with the assignee's name) of every case of the form the team has touched, by
     * case id: what an export reads once, whole for the form, since only touched cases have rows.
     */
    async workOfForm(siteId: string, formId: string): Promise<Map<string, CaseWorkRow>> {
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

    /**
     * Since when `personKey`'s "new" runs on the form: on the first read, now less NEW_WINDOW_MS (their watch
     * is created then, asked now); afterwards as it was kept. Reading work never moves `asked_at` on: that is
     * the counts' business.
     */
    async since(siteId: string, formId: string, personKey: string, now: number): Promise<number> {
      const found = await newSince(siteId, formId, personKey);
      if (found !== undefined) return found;
      await db
        .insertInto('inbox_watches')
        .values({ site_id: siteId, form_id: formId, person_key: personKey, since: now - NEW_WINDOW_MS, asked_at: now })
        .onConflict((oc) => oc.columns(['site_id', 'form_id', 'person_key']).doNothing())
        .execute();
      // Another request may have created it first: its value stands.
      return (await newSince(siteId, formId, personKey)) ?? now - NEW_WINDOW_MS;
    },

    /**
     * Sets the status and/or the assignee (a person's id, or null: nobody) of every case in `caseIds`, in one
     * transaction, creating the rows of cases nobody touched (status new unless one is given).
     */
    async change(
      siteId: string,
      formId: string,
      caseIds: readonly string[],
      change: { status?: CaseStatus; assignee?: string | null },
      by: Worker,
      now: number,
    ): Promise<void> {
      if (caseIds.length === 0 || (change.status === undefined && change.assignee === undefined)) return;
      const updated = {
        updated_at: now,
        updated_by_id: by.id,
        updated_by_name: by.name,
        ...(change.status === undefined ? {} : { status: change.status }),
        ...(change.assignee === undefined ? {} : { assignee_id: change.assignee }),
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('case_work')
          .values(
            caseIds.map((caseId) => ({
              site_id: siteId,
              form_id: formId,
              case_id: caseId,
              status: change.status ?? 'new',
              assignee_id: change.assignee ?? null,
              updated_at: now,
              updated_by_id: by.id,
              updated_by_name: by.name,
            })),
          )
          .onConflict((oc) => oc.columns(['site_id', 'form_id', 'case_id']).doUpdateSet(updated))
          .execute();
      });
    },

    /** Marks `caseIds` seen (or not seen again) by `personKey`. */
    async setSeen(
      siteId: string,
      formId: string,
      caseIds: readonly string[],
      personKey: string,
      seen: boolean,
      now: number,
    ): Promise<void> {
      if (caseIds.length === 0) return;
      if (seen) {
        await db
          .insertInto('case_seen')
          .values(caseIds.map((caseId) => ({ site_id: siteId, form_id: formId, person_key: personKey, case_id: caseId, seen_at: now })))
          .onConflict((oc) => oc.columns(['site_id', 'form_id', 'person_key', 'case_id']).doNothing())
          .execute();
      } else {
        await db
          .deleteFrom('case_seen')
          .where('site_id', '=', siteId)
          .where('form_id', '=', formId)
          .where('person_key', '=', personKey)
          .where('case_id', 'in', [...caseIds])
          .execute();
      }
    },

    /** One case's work as `personKey` sees it, and its notes with their earlier texts. */
    async detail(siteId: string, formId: string, caseId: string, personKey: string): Promise<CaseWorkDetail> {
      const [work, notes] = await Promise.all([workOf(db, siteId, formId, [caseId], personKey), notesOf(db, siteId, formId, caseId)]);
      return { work: work[caseId] ?? UNTOUCHED, notes };
    },

    /** A new note on the case, written by `by`. */
    async addNote(siteId: string, formId: string, caseId: string, text: string, by: Worker, now: number): Promise<Note> {
      const row: CaseNotesTable = {
        id: randomId(12),
        site_id: siteId,
        form_id: formId,
        case_id: caseId,
        author_id: by.id,
        author_name: by.name,
        created_at: now,
        updated_at: now,
        text,
      };
      await db.insertInto('case_notes').values(row).execute();
      return noteOf(row, []);
    },

    /** Takes a new note back (the record could not say it was added): as if it had never been written. */
    async removeNote(noteId: string): Promise<void> {
      await db.deleteFrom('case_notes').where('id', '=', noteId).execute();
    },

    /**
     * Takes an edit back (the record could not say it was made): the note's text and time as they were before
     * it, from the version the edit kept, which goes again; only while no later edit has been saved.
     */
    async undoEdit(noteId: string, edited: { text: string; updatedAt: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom('case_note_versions')
          .selectAll()
          .where('note_id', '=', noteId)
          .orderBy('version', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (!last) return;
        const back = await trx
          .updateTable('case_notes')
          .set({ text: last.text, updated_at: last.at })
          .where('id', '=', noteId)
          .where('text', '=', edited.text)
          .where('updated_at', '=', edited.updatedAt)
          .executeTakeFirst();
        if (Number(back.numUpdatedRows) === 1) {
          await trx.deleteFrom('case_note_versions').where('note_id', '=', noteId).where('version', '=', last.version).execute();
        }
      });
    },

    /**
     * The note's new text, written by its author; its earlier text (with when it was written) is kept as the
     * next version, in the same transaction. 'missing' when the case has no such note, 'not-author' when
     * `by` did not write it, 'conflict' when another edit of it was saved meanwhile (nothing changed).
     */
    async editNote(
      siteId: string,
      formId: string,
      caseId: string,
      noteId: string,
      text: string,
      by: Worker,
      now: number,
    ): Promise<Note | 'missing' | 'not-author' | 'conflict'> {
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom('case_notes')
            .selectAll()
            .where('id', '=', noteId)
            .where('site_id', '=', siteId)
            .where('form_id', '=', formId)
            .where('case_id', '=', caseId)
            .executeTakeFirst();
          if (!row) return 'missing' as const;
          if (row.author_id !== by.id) return 'not-author' as const;
          // Only if nobody saved an edit since it was read: on PostgreSQL a second edit waits here for the
          // first to commit, then finds the note changed and leaves it alone.
          const moved = await trx
            .updateTable('case_notes')
            .set({ text, updated_at: now })
            .where('id', '=', noteId)
            .where('updated_at', '=', row.updated_at)
            .where('text', '=', row.text)
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) !== 1) return 'conflict' as const;
          const last = await trx
            .selectFrom('case_note_versions')
            .select((eb) => eb.fn.max<number | null>('version').as('v'))
            .where('note_id', '=', noteId)
            .executeTakeFirst();
          await trx
            .insertInto('case_note_versions')
            .values({
              note_id: noteId,
              version: Number(last?.v ?? 0) + 1,
              text: row.text,
              at: row.updated_at,
              by_id: row.author_id,
              by_name: row.author_name,
            })
            .execute();
          const notes = await notesOf(trx, siteId, formId, caseId);
          return notes.find((note) => note.id === noteId) ?? ('missing' as const);
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'conflict';
        throw error;
      }
    },

    /**
     * Removes the notes first written before `cutoff`, with their earlier texts, a batch per transaction;
     * resolves to how many notes were removed.
     */
    async pruneNotes(cutoff: number): Promise<number> {
      let removed = 0;
      for (;;) {
        const ids = (await db.selectFrom('case_notes').select('id').where('created_at', '<', cutoff).limit(PRUNE_BATCH).execute()).map(
          (row) => row.id,
        );
        if (ids.length === 0) break;
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('case_note_versions').where('note_id', 'in', ids).execute();
          const result = await trx.deleteFrom('case_notes').where('id', 'in', ids).executeTakeFirst();
          removed += Number(result.numDeletedRows);
        });
        if (ids.length < PRUNE_BATCH) break;
      }
      return removed;
    },

    /**
     * Who may be given the site's cases: every active person who may look cases up on it (by a grant on the
     * site or on every site), by name.
     */
    async assignees(siteId: string): Promise<PersonRef[]> {
      const rows = await db
        .selectFrom('people')
        .innerJoin('grants', 'grants.person_id', 'people.id')
        .select(['people.id', 'people.display_name', 'grants.site_id', 'grants.role'])
        .where('people.disabled_at', 'is', null)
        .where('grants.site_id', 'in', [siteId, ALL_SITES])
        .execute();
      const grants = new Map<string, { name: string; grants: Grant[] }>();
      for (const row of rows) {
        const person = grants.get(row.id) ?? { name: row.display_name, grants: [] };
        person.grants.push({ siteId: row.site_id, role: row.role });
        grants.set(row.id, person);
      }
      return [...grants.entries()]
        .filter(([, person]) => capabilitiesOn(person.grants, siteId).includes('lookup'))
        .map(([id, person]) => ({ id, name: person.name }))
        .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id.localeCompare(b.id));
    },
  };
}

export type CaseWorkStore = ReturnType<typeof createCaseWorkStore>;
