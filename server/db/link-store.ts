/**
 * One-time links in site-admin's database: an invitation, or a reset that lets a person choose a new
 * password. A link's token is 256 random bits that only the link holds; the store keeps its SHA-256, like a
 * session's id, so a copy of the database opens nothing. Knows nothing of HTTP; times are milliseconds since
 * the epoch, passed in by the caller.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { newSecretToken, secretTokenHash } from './secret-token';

export type LinkPurpose = 'invitation' | 'reset';

export interface OneTimeLink {
  personId: string;
  purpose: LinkPurpose;
  createdBy: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

const purposeOf = (value: string): LinkPurpose => (value === 'reset' ? 'reset' : 'invitation');

export function createLinkStore(db: Kysely<Database>) {
  /** Marks every open link of a person used at `now`: only the newest one made for them may be used. */
  const voidAllOf = async (personId: string, now: number, trx: Kysely<Database> = db): Promise<void> => {
    await trx.updateTable('one_time_links').set({ used_at: now }).where('person_id', '=', personId).where('used_at', 'is', null).execute();
  };

  return {
    voidAllOf,

    /**
     * Makes a link for a person, valid for `ttlMs`; any link made for them before is void from now on.
     * Returns the token (for the link; only its hash is kept).
     */
    async create(input: { personId: string; purpose: LinkPurpose; createdBy: string | null; now: number; ttlMs: number }) {
      const token = newSecretToken();
      const expiresAt = input.now + input.ttlMs;
      await db.transaction().execute(async (trx) => {
        await voidAllOf(input.personId, input.now, trx);
        await trx
          .insertInto('one_time_links')
          .values({
            token_hash: secretTokenHash(token),
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

    /** The link of `token`, used or not, expired or not; undefined when there was never one. */
    async find(token: string): Promise<OneTimeLink | undefined> {
      const row = await db.selectFrom('one_time_links').selectAll().where('token_hash', '=', secretTokenHash(token)).executeTakeFirst();
      return (
        row && {
          personId: row.person_id,
          purpose: purposeOf(row.purpose),
          createdBy: row.created_by,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
        }
      );
    },

    /**
     * Uses the link of `token` up at `now`, if it is still open: one update, so two tabs (or two instances)
     * sending the same link at once cannot both succeed. False when it was used, has expired or never was.
     */
    async use(token: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('one_time_links')
        .set({ used_at: now })
        .where('token_hash', '=', secretTokenHash(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Every link still open at `now`, by person: what the People page shows as "invited". */
    async openLinks(now: number): Promise<Map<string, { purpose: LinkPurpose; expiresAt: number }>> {
      const rows = await db
        .selectFrom('one_time_links')
        .select(['person_id', 'purpose', 'expires_at'])
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at')
        .execute();
      return new Map(rows.map((row) => [row.person_id, { purpose: purposeOf(row.purpose), expiresAt: row.expires_at }]));
    },
  };
}

export type LinkStore = ReturnType<typeof createLinkStore>;
