/**
 * One-time links in site-admin's database: an invitation (a new person chooses their password) or a reset
 * (an owner or operator voided the old one). The token is 256 random bits that only the link holds; the
 * store keeps its SHA-256, as for sessions, so a copy of the database opens no link. Times are milliseconds
 * since the epoch, passed in by the caller.
 */
import type { Kysely } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from './schema';

/** How long a link works: 72 hours, long enough to reach someone over a weekend. */
export const ONE_TIME_LINK_MS = 72 * 3_600_000;

export type OneTimeLinkPurpose = 'invitation' | 'reset';

/** The path of the page that opens a link; the token follows `#`, so it never reaches a server's log. */
export const INVITE_PATH = '/invite';

export function oneTimeTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The address to hand to the person: `${origin}/invite#<token>`. */
export function oneTimeLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}${INVITE_PATH}#${token}`;
}

export interface OneTimeLink {
  personId: string;
  purpose: OneTimeLinkPurpose;
  createdAt: number;
  expiresAt: number;
}

export function createOneTimeLinkStore(db: Kysely<Database>) {
  return {
    /**
     * A new link for a person: the links they had and did not use stop working (one link at a time, the
     * last one handed out). Returns the token for the address; only its hash is stored.
     */
    async create(input: {
      personId: string;
      purpose: OneTimeLinkPurpose;
      /** The person who made it, or null for the command line. */
      createdBy: string | null;
      now: number;
      validMs?: number;
    }): Promise<{ token: string; expiresAt: number }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = input.now + (input.validMs ?? ONE_TIME_LINK_MS);
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('one_time_links')
          .set({ used_at: input.now })
          .where('person_id', '=', input.personId)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('one_time_links')
          .values({
            token_hash: oneTimeTokenHash(token),
            person_id: input.personId,
            purpose: input.purpose,
            created_by: input.createdBy,
            created_at: input.now,
            expires_at: expiresAt,
            used_at: null,
          })
          .execute();
      });
      return { token, expiresAt };
    },

    /** The link of `token` if it still works at `now` (not used, not expired). */
    async find(token: string, now: number): Promise<OneTimeLink | undefined> {
      const row = await db
        .selectFrom('one_time_links')
        .selectAll()
        .where('token_hash', '=', oneTimeTokenHash(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return (
        row && { personId: row.person_id, purpose: row.purpose as OneTimeLinkPurpose, createdAt: row.created_at, expiresAt: row.expires_at }
      );
    },

    /** Whether a person has a link that still works at `now` (an invitation not yet taken up). */
    async pendingFor(personId: string, now: number): Promise<boolean> {
      const row = await db
        .selectFrom('one_time_links')
        .select('token_hash')
        .where('person_id', '=', personId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Voids every unused link of a person. */
    async voidAllOf(personId: string, now: number): Promise<void> {
      await db.updateTable('one_time_links').set({ used_at: now }).where('person_id', '=', personId).where('used_at', 'is', null).execute();
    },
  };
}

export type OneTimeLinkStore = ReturnType<typeof createOneTimeLinkStore>;
