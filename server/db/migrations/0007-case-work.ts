/**
 * The team's work on a site's cases, which the platform has no place for (it keeps no status, note or
 * assignee, and a case cannot be updated there), and what the inbox needs to tell each person what is new:
 * - case_work: a case's status and assignee, one row per case the team has touched (none: new, nobody);
 * - case_notes and case_note_versions: notes in plain text, each edit keeping the earlier text;
 * - case_seen: which cases each person has opened or marked seen;
 * - inbox_watches: since when a person's "new" counts run, per site and form;
 * - inbox_polls: the one reading of a form's newest cases that the whole team shares, and the lease of the
 *   instance that makes it;
 * - role_capabilities: what owners withheld from (or gave to) a role on a site, beside the roles' defaults.
 * A person is kept by id ('demo' for the local demo). Stands alone, like every migration.
 */
import { type Migration } from 'kysely';

export const caseWork: Migration = {
  async up(db) {
    await db.schema
      .createTable('case_work')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('assignee_id', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_by_id', 'text')
      .addColumn('updated_by_name', 'text')
      .addPrimaryKeyConstraint('case_work_key', ['site_id', 'form_id', 'case_id'])
      .execute();
    await db.schema.createIndex('case_work_assignee').on('case_work').columns(['site_id', 'form_id', 'assignee_id']).execute();
    await db.schema.createIndex('case_work_status').on('case_work').columns(['site_id', 'form_id', 'status']).execute();

    await db.schema
      .createTable('case_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text')
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('case_notes_case').on('case_notes').columns(['site_id', 'form_id', 'case_id', 'created_at']).execute();
    await db.schema.createIndex('case_notes_created').on('case_notes').columns(['created_at']).execute();
    await db.schema
      .createTable('case_note_versions')
      .addColumn('note_id', 'text', (c) => c.notNull().references('case_notes.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('by_id', 'text')
      .addColumn('by_name', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('case_note_versions_key', ['note_id', 'version'])
      .execute();

    await db.schema
      .createTable('case_seen')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('person_key', 'text', (c) => c.notNull())
      .addColumn('case_id', 'text', (c) => c.notNull())
      .addColumn('seen_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('case_seen_key', ['site_id', 'form_id', 'person_key', 'case_id'])
      .execute();
    await db.schema
      .createTable('inbox_watches')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('person_key', 'text', (c) => c.notNull())
      .addColumn('since', 'bigint', (c) => c.notNull())
      .addColumn('asked_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('inbox_watches_key', ['site_id', 'form_id', 'person_key'])
      .execute();
    await db.schema
      .createTable('inbox_polls')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('form_id', 'text', (c) => c.notNull())
      .addColumn('holder', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('polled_at', 'bigint')
      .addColumn('outcome', 'text')
      .addColumn('newest', 'text')
      .addColumn('total', 'integer')
      .addPrimaryKeyConstraint('inbox_polls_key', ['site_id', 'form_id'])
      .execute();
    await db.schema
      .createTable('role_capabilities')
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('capability', 'text', (c) => c.notNull())
      .addColumn('allowed', 'integer', (c) => c.notNull())
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .addColumn('changed_by', 'text')
      .addPrimaryKeyConstraint('role_capabilities_key', ['site_id', 'role', 'capability'])
      .execute();
  },
};
