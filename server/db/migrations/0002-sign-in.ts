/**
 * Signing in: one-time links (invitations and resets), passkeys, what a sign-in in progress holds (a
 * passkey's challenge, a single sign-on's state, a password waiting for its second factor), the server's
 * own settings (the second-factor rule, the device-cookie key), and what a session was started with and
 * under which grants. Stands alone, like every migration: never changed once released.
 */
import { type Migration } from 'kysely';

export const signIn: Migration = {
  async up(db) {
    // When the person's grants last changed: a session started before it gets a new id at its next request.
    await db.schema
      .alterTable('people')
      .addColumn('grants_changed_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    // The grants_changed_at the session was issued under, and how it was started (password, passkey, ...).
    await db.schema
      .alterTable('sessions')
      .addColumn('grants_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('sessions')
      .addColumn('method', 'text', (c) => c.notNull().defaultTo('password'))
      .execute();

    // A one-time link: an invitation, or a reset. Kept by the SHA-256 of its token, like a session.
    await db.schema
      .createTable('one_time_links')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('person_id', 'text', (c) => c.notNull().references('people.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('one_time_links_person').on('one_time_links').column('person_id').execute();

    // A passkey: WebAuthn's credential id (base64url) and public key, its signature counter, and a name.
    await db.schema
      .createTable('passkeys')
      .addColumn('credential_id', 'text', (c) => c.primaryKey())
      .addColumn('person_id', 'text', (c) => c.notNull().references('people.id').onDelete('cascade'))
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull())
      .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .execute();
    await db.schema.createIndex('passkeys_person').on('passkeys').column('person_id').execute();

    // A sign-in or registration in progress, held by a random id in a short-lived cookie: in the database,
    // so it can finish on another instance. `data` is JSON; the row is used once and then deleted.
    await db.schema
      .createTable('pending_steps')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('person_id', 'text', (c) => c.references('people.id').onDelete('cascade'))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();

    // The server's own settings, shared by every instance: JSON values by name.
    await db.schema
      .createTable('settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
