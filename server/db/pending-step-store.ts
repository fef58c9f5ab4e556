/**
 * Sign-ins and registrations in progress (a passkey's challenge, a password waiting for its second
 * factor), in the database so that a step begun on one instance can finish on another. Each is held by a
 * random id that only the browser's cookie carries; the store keeps its SHA-256, like a session's. A step
 * is taken once (`take` deletes it as it reads it), and one past its time is never given out.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { newSecretToken, secretTokenHash } from './secret-token';

export interface PendingStep {
  purpose: string;
  personId: string | null;
  data: Record<string, unknown>;
  expiresAt: number;
}

export function createPendingStepStore(db: Kysely<Database>) {
  return {
    /** Keeps a new step; answers its id (32 random bytes, base64url) for the cookie. Clears steps past their time. */
    async create(step: PendingStep, now: number): Promise<string> {
      const id = newSecretToken();
      await db.deleteFrom('pending_steps').where('expires_at', '<=', now).execute();
      await db
        .insertInto('pending_steps')
        .values({
          id_hash: secretTokenHash(id),
          purpose: step.purpose,
          person_id: step.personId,
          data: JSON.stringify(step.data),
          expires_at: step.expiresAt,
        })
        .execute();
      return id;
    },

    /** The step of `id` if it is of `purpose` and still in time, without using it up. */
    async peek(id: string, purpose: string, now: number): Promise<PendingStep | undefined> {
      const row = await db
        .selectFrom('pending_steps')
        .selectAll()
        .where('id_hash', '=', secretTokenHash(id))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row
        ? {
            purpose: row.purpose,
            personId: row.person_id,
            data: JSON.parse(row.data) as Record<string, unknown>,
            expiresAt: row.expires_at,
          }
        : undefined;
    },

    /** Replaces what a step in time holds (a new challenge for the same sign-in); false when it is gone. */
    async update(id: string, purpose: string, data: Record<string, unknown>, now: number): Promise<boolean> {
      const result = await db
        .updateTable('pending_steps')
        .set({ data: JSON.stringify(data) })
        .where('id_hash', '=', secretTokenHash(id))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Uses the step of `id` up: it is deleted, and answered if it was of `purpose` and in time. Of two
     * requests taking the same step at once (on any instances), only one gets it.
     */
    async take(id: string, purpose: string, now: number): Promise<PendingStep | undefined> {
      const row = await db.deleteFrom('pending_steps').where('id_hash', '=', secretTokenHash(id)).returningAll().executeTakeFirst();
      if (!row || row.purpose !== purpose || row.expires_at <= now) return undefined;
      return {
        purpose: row.purpose,
        personId: row.person_id,
        data: JSON.parse(row.data) as Record<string, unknown>,
        expiresAt: row.expires_at,
      };
    },
  };
}

export type PendingStepStore = ReturnType<typeof createPendingStepStore>;
