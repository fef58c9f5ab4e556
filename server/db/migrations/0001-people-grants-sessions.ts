/**
 * The first layout: people, their grants and their sessions. A migration stands alone (it types the
 * database as Kysely's `any`, not schema.ts, which follows the latest layout) and is never changed once
 * released: a later change is a new numbered migration.
 */
import { sql, type Migration } from 'kysely';

export const peopleGrantsSessions: Migration = {
  async up(db) {
    await db.schema
      .createTable('people')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_key', 'text', (c) => c.notNull().unique())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('disabled_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('grants')
      .addColumn('person_id', 'text', (c) => c.notNull().references('people.id').onDelete('cascade'))
      .addColumn('site_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('grants_pk', ['person_id', 'site_id'])
      .addCheckConstraint('grants_role', sql`role in ('owner', 'editor', 'support')`)
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('person_id', 'text', (c) => c.notNull().references('people.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('idle_expires_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('user_agent', 'text')
      .addColumn('address', 'text')
      .execute();
    // "Sign out everywhere" and "your sessions" find a person's sessions; pruning finds the expired ones.
    await db.schema.createIndex('sessions_person').on('sessions').column('person_id').execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
  },
};
