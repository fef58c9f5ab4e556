/**
 * Four eyes on a site's writes (src/contract/approvals.ts):
 * - approval_rules: each site's rule (no row: off), who set it last and when;
 * - changes: a write held back until approved: its exact body text (or an import's items, each body exact),
 *   the SHA-256 it is checked against when sent, its version (moved on by its author's every edit), state,
 *   author, times, expiry, and an owner's override of a version;
 * - change_approvals: who approved which version of a change (one row per person and version);
 * - change_events: the change's history as its page shows it, each step beside its activity record entry.
 * Stands alone, like every migration.
 */
import { type Migration } from 'kysely';

export const approvals: Migration = {
  async up(db) {
    await db.schema
      .createTable('approval_rules')
      .addColumn('site_id', 'text', (c) => c.primaryKey())
      .addColumn('writes', 'text', (c) => c.notNull())
      .addColumn('approvals', 'integer', (c) => c.notNull())
      .addColumn('approvers', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .addColumn('changed_by_id', 'text')
      .addColumn('changed_by_name', 'text')
      .execute();

    await db.schema
      .createTable('changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('product', 'text')
      .addColumn('base', 'text')
      .addColumn('before_text', 'text')
      .addColumn('body', 'text')
      .addColumn('items', 'text')
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('revert_of', 'bigint')
      .addColumn('import_id', 'text')
      .addColumn('author_kind', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('asked_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('override_version', 'integer')
      .addColumn('override_by_id', 'text')
      .addColumn('override_by_name', 'text')
      .addColumn('override_at', 'bigint')
      .addColumn('override_reason', 'text')
      .addColumn('sent_seq', 'bigint')
      .execute();
    await db.schema.createIndex('changes_site').on('changes').columns(['site_id', 'state', 'asked_at']).execute();
    await db.schema.createIndex('changes_author').on('changes').columns(['author_id', 'asked_at']).execute();
    await db.schema.createIndex('changes_import').on('changes').columns(['import_id']).execute();
    // Expiry is looked for whenever changes are read or sent: the open ones whose time ran out.
    await db.schema.createIndex('changes_expiry').on('changes').columns(['state', 'expires_at']).execute();

    await db.schema
      .createTable('change_approvals')
      .addColumn('change_id', 'text', (c) => c.notNull().references('changes.id').onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('person_id', 'text', (c) => c.notNull())
      .addColumn('person_name', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('change_approvals_key', ['change_id', 'version', 'person_id'])
      .execute();

    await db.schema
      .createTable('change_events')
      .addColumn('change_id', 'text', (c) => c.notNull().references('changes.id').onDelete('cascade'))
      .addColumn('n', 'integer', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('by_id', 'text')
      .addColumn('by_name', 'text')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('seq', 'bigint')
      .addColumn('write_seq', 'bigint')
      .addPrimaryKeyConstraint('change_events_key', ['change_id', 'n'])
      .execute();
  },
};
