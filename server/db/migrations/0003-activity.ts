/**
 * The activity record: one append-only chain of entries, each with the SHA-256 of the one before it and of
 * its own canonical JSON (server/activity/chain.ts). Stands alone, like every migration.
 */
import { type Migration } from 'kysely';

export const activity: Migration = {
  async up(db) {
    await db.schema
      .createTable('activity')
      .addColumn('seq', 'bigint', (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('person_id', 'text')
      .addColumn('person_name', 'text')
      .addColumn('site_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_name', 'text')
      .addColumn('target_slug', 'text')
      .addColumn('form_id', 'text')
      .addColumn('case_id', 'text')
      .addColumn('refers_to', 'bigint')
      .addColumn('request_id', 'text')
      .addColumn('address', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('duration_ms', 'integer')
      .addColumn('detail', 'text')
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .execute();
    // The Activity page's filters: newest first within a person, a site, an action; a time range.
    await db.schema.createIndex('activity_at').on('activity').column('at').execute();
    await db.schema.createIndex('activity_person').on('activity').columns(['person_id', 'seq']).execute();
    await db.schema.createIndex('activity_site').on('activity').columns(['site_id', 'seq']).execute();
    await db.schema.createIndex('activity_action').on('activity').columns(['action', 'seq']).execute();
    await db.schema.createIndex('activity_slug').on('activity').columns(['target_slug', 'seq']).execute();
    await db.schema.createIndex('activity_case').on('activity').columns(['case_id', 'seq']).execute();
  },
};
