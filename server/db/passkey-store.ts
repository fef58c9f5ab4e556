/**
 * Passkeys in site-admin's database: WebAuthn credentials by their id, each a person's, with its public
 * key, its signature counter and a name the person chose. Knows nothing of WebAuthn's ceremonies
 * (auth/passkeys.ts) nor of HTTP; times are milliseconds since the epoch, passed in by the caller.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from './schema';

export interface Passkey {
  /** WebAuthn's credential id, base64url. */
  id: string;
  personId: string;
  /** The credential's public key (COSE). */
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

function passkeyOf(row: Selectable<PasskeysTable>): Passkey {
  return {
    id: row.credential_id,
    personId: row.person_id,
    publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
    counter: Number(row.counter),
    transports: row.transports ? row.transports.split(',') : [],
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export function createPasskeyStore(db: Kysely<Database>) {
  return {
    /** Keeps a new passkey; false when that credential id is already kept (for anyone). */
    async add(passkey: Omit<Passkey, 'lastUsedAt'>): Promise<boolean> {
      const result = await db
        .insertInto('passkeys')
        .values({
          credential_id: passkey.id,
          person_id: passkey.personId,
          public_key: Buffer.from(passkey.publicKey).toString('base64url'),
          counter: passkey.counter,
          transports: passkey.transports.join(','),
          name: passkey.name,
          created_at: passkey.createdAt,
          last_used_at: null,
        })
        .onConflict((oc) => oc.column('credential_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async get(id: string): Promise<Passkey | undefined> {
      const row = await db.selectFrom('passkeys').selectAll().where('credential_id', '=', id).executeTakeFirst();
      return row ? passkeyOf(row) : undefined;
    },

    /** A person's passkeys, oldest first. */
    async listOf(personId: string): Promise<Passkey[]> {
      const rows = await db
        .selectFrom('passkeys')
        .selectAll()
        .where('person_id', '=', personId)
        .orderBy('created_at')
        .orderBy('credential_id')
        .execute();
      return rows.map(passkeyOf);
    },

    async countOf(personId: string): Promise<number> {
      const { n } = await db
        .selectFrom('passkeys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('person_id', '=', personId)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    /**
     * After a sign-in with it: the authenticator's new counter and when. Only moves the counter forward, so
     * two sign-ins racing on two instances cannot set it back (WebAuthn's clone check relies on it).
     */
    async used(id: string, counter: number, now: number): Promise<void> {
      await db
        .updateTable('passkeys')
        .set((eb) => ({
          // CASE rather than max(): SQLite's two-argument max() is PostgreSQL's greatest().
          counter: eb.case().when('counter', '<', counter).then(counter).else(eb.ref('counter')).end(),
          last_used_at: now,
        }))
        .where('credential_id', '=', id)
        .execute();
    },

    /** Renames one of `personId`'s passkeys; false when they have none of that id. */
    async rename(personId: string, id: string, name: string): Promise<boolean> {
      const result = await db
        .updateTable('passkeys')
        .set({ name })
        .where('credential_id', '=', id)
        .where('person_id', '=', personId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Removes one of `personId`'s passkeys; false when they have none of that id. */
    async remove(personId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom('passkeys').where('credential_id', '=', id).where('person_id', '=', personId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type PasskeyStore = ReturnType<typeof createPasskeyStore>;
