/**
 * People and their grants in site-admin's database. Knows nothing of HTTP, passwords' rules or who may
 * manage whom: it keeps what it is given. Times are milliseconds since the epoch, passed in by the caller.
 */
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Grant } from '../../src/contract/access';
import type { Database, PersonRow } from './schema';

export type { Grant } from '../../src/contract/access';

export interface Person {
  id: string;
  email: string;
  displayName: string;
  /** Argon2id's encoded hash, or null. */
  passwordHash: string | null;
  /** When they were disabled, or null while active. */
  disabledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** When the grants last changed (0: never). */
  grantsChangedAt: number;
}

export type AddResult = { ok: true; person: Person } | { ok: false; reason: 'email-taken' };

/** The key an e-mail address is unique by: one address is one person, whatever its case or spacing. */
export function emailKey(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

function personOf(row: PersonRow): Person {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    grantsChangedAt: row.grants_changed_at,
  };
}

/** A unique constraint refused the row: SQLite's and PostgreSQL's codes for it. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

export function createPeopleStore(db: Kysely<Database>) {
  return {
    /** Adds an active person; refused when another person has the same address in any case. */
    async add(input: { email: string; displayName: string; passwordHash?: string | null; now: number }): Promise<AddResult> {
      const row: PersonRow = {
        id: randomUUID(),
        email: input.email.trim(),
        email_key: emailKey(input.email),
        display_name: input.displayName.trim(),
        password_hash: input.passwordHash ?? null,
        disabled_at: null,
        created_at: input.now,
        updated_at: input.now,
        grants_changed_at: 0,
      };
      try {
        await db.insertInto('people').values(row).execute();
      } catch (error) {
        // The unique index decides, so two instances adding the same address at once cannot both succeed.
        if (isUniqueViolation(error)) return { ok: false, reason: 'email-taken' };
        throw error;
      }
      return { ok: true, person: personOf(row) };
    },

    async get(id: string): Promise<Person | undefined> {
      const row = await db.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst();
      return row && personOf(row);
    },

    /** The person signing in as `email`, in whatever case they type it. */
    async getByEmail(email: string): Promise<Person | undefined> {
      const row = await db.selectFrom('people').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
      return row && personOf(row);
    },

    /** Everyone, by e-mail address. */
    async list(): Promise<Person[]> {
      const rows = await db.selectFrom('people').selectAll().orderBy('email_key').execute();
      return rows.map(personOf);
    },

    /** How many people there are; `active` counts only those not disabled (who could sign in). */
    async count(options: { active?: boolean } = {}): Promise<number> {
      let query = db.selectFrom('people').select((eb) => eb.fn.countAll<number>().as('n'));
      if (options.active) query = query.where('disabled_at', 'is', null);
      const { n } = await query.executeTakeFirstOrThrow();
      return n;
    },

    /**
     * Disables (at `now`) or enables a person; false when there is no such person. Disabling ends their
     * sessions in the same transaction (ASVS 5 V7.4.2), so enabling them again later brings none back.
     */
    async setDisabled(id: string, disabled: boolean, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('people')
          .set({ disabled_at: disabled ? now : null, updated_at: now })
          .where('id', '=', id)
          .executeTakeFirst();
        if (disabled) await trx.deleteFrom('sessions').where('person_id', '=', id).execute();
        return result.numUpdatedRows > 0n;
      });
    },

    async setDisplayName(id: string, displayName: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('people')
        .set({ display_name: displayName.trim(), updated_at: now })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async setPasswordHash(id: string, passwordHash: string | null, now: number): Promise<boolean> {
      const result = await db
        .updateTable('people')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A person's grants, by site id. */
    async grantsOf(personId: string): Promise<Grant[]> {
      const rows = await db.selectFrom('grants').select(['site_id', 'role']).where('person_id', '=', personId).orderBy('site_id').execute();
      return rows.map((row) => ({ siteId: row.site_id, role: row.role }));
    },

    /**
     * Replaces a person's grants with `grants` (one role per site: the last given wins), in one transaction,
     * so a request never sees half of the change. Marks the person updated.
     */
    async setGrants(personId: string, grants: readonly Grant[], now: number): Promise<void> {
      const bySite = new Map(grants.map((grant) => [grant.siteId, grant.role]));
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('grants').where('person_id', '=', personId).execute();
        if (bySite.size > 0) {
          await trx
            .insertInto('grants')
            .values([...bySite].map(([site_id, role]) => ({ person_id: personId, site_id, role })))
            .execute();
        }
        // Sessions issued before this get a new id at their next request (session-store's `rotate`).
        await trx.updateTable('people').set({ updated_at: now, grants_changed_at: now }).where('id', '=', personId).execute();
      });
    },
  };
}

export type PeopleStore = ReturnType<typeof createPeopleStore>;
