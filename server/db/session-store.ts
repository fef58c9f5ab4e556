/**
 * Sign-in sessions in site-admin's database. A session id is 256 random bits that only the person's cookie
 * holds: the store keeps its SHA-256 and looks sessions up by it, so a copy of the database signs nobody in.
 * Knows nothing of HTTP or cookies; times are milliseconds since the epoch, passed in by the caller.
 */
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from './schema';
import { newSecretToken, secretTokenHash } from './secret-token';

export interface Session {
  /** The hash the session is kept by: a handle for "sign out this one", never usable as the session id. */
  idHash: string;
  personId: string;
  createdAt: number;
  lastSeenAt: number;
  idleExpiresAt: number;
  expiresAt: number;
  userAgent: string | null;
  address: string | null;
  /** The person's grants_changed_at when this id was issued. */
  grantsAt: number;
  /** How it was started: 'password', 'passkey', 'password+passkey', 'single-sign-on'. */
  method: string;
}

/** A session in use, with what a request needs of its person. */
export interface ActiveSession extends Session {
  email: string;
  displayName: string;
  /** When the person's grants last changed: after `grantsAt`, the session gets a new id (`rotate`). */
  grantsChangedAt: number;
}

function sessionOf(row: SessionRow): Session {
  return {
    idHash: row.id_hash,
    personId: row.person_id,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    idleExpiresAt: row.idle_expires_at,
    expiresAt: row.expires_at,
    userAgent: row.user_agent,
    address: row.address,
    grantsAt: row.grants_at,
    method: row.method,
  };
}

export function createSessionStore(db: Kysely<Database>) {
  return {
    /**
     * Starts a session for a person: it ends after `idleMs` without use, and after `absoluteMs` whatever
     * happens. Returns the id for the cookie; only its hash is stored.
     */
    async create(input: {
      personId: string;
      now: number;
      idleMs: number;
      absoluteMs: number;
      userAgent?: string | null;
      address?: string | null;
      /** The person's grants_changed_at now. */
      grantsAt?: number;
      method?: string;
    }): Promise<{ id: string; session: Session }> {
      const id = newSecretToken();
      const expiresAt = input.now + input.absoluteMs;
      const row: SessionRow = {
        id_hash: secretTokenHash(id),
        person_id: input.personId,
        created_at: input.now,
        last_seen_at: input.now,
        idle_expires_at: Math.min(input.now + input.idleMs, expiresAt),
        expires_at: expiresAt,
        user_agent: input.userAgent ?? null,
        address: input.address ?? null,
        grants_at: input.grantsAt ?? 0,
        method: input.method ?? 'password',
      };
      await db.insertInto('sessions').values(row).execute();
      return { id, session: sessionOf(row) };
    },

    /**
     * The session of `id` with its person, if it is still in use at `now`: neither time-out has passed and
     * the person is not disabled. One query, so a disabled person is out on their very next request.
     */
    async get(id: string, now: number): Promise<ActiveSession | undefined> {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('people', 'people.id', 'sessions.person_id')
        .selectAll('sessions')
        .select(['people.email', 'people.display_name', 'people.grants_changed_at'])
        .where('sessions.id_hash', '=', secretTokenHash(id))
        .where('sessions.idle_expires_at', '>', now)
        .where('sessions.expires_at', '>', now)
        .where('people.disabled_at', 'is', null)
        .executeTakeFirst();
      return row && { ...sessionOf(row), email: row.email, displayName: row.display_name, grantsChangedAt: row.grants_changed_at };
    },

    /**
     * Gives the session of `id` a new id (its times, device and way in kept), issued under `grantsAt`.
     * The old id keeps working for `graceMs` more (never past its own ends), marked as issued under
     * `grantsAt` too: requests the browser sent before it saw the new cookie are not turned away, and do
     * not rotate again. Undefined when the session has ended.
     */
    async rotate(id: string, now: number, grantsAt: number, graceMs: number): Promise<string | undefined> {
      const next = newSecretToken();
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('sessions').selectAll().where('id_hash', '=', secretTokenHash(id)).executeTakeFirst();
        if (!row || row.expires_at <= now || row.idle_expires_at <= now) return undefined;
        await trx
          .insertInto('sessions')
          .values({ ...row, id_hash: secretTokenHash(next), grants_at: grantsAt, last_seen_at: now })
          .execute();
        await trx
          .updateTable('sessions')
          .set({ grants_at: grantsAt, expires_at: Math.min(row.expires_at, now + graceMs) })
          .where('id_hash', '=', row.id_hash)
          .execute();
        return next;
      });
    },

    /**
     * Records use at `now`: the idle time-out starts again (never past the absolute one). The caller does
     * this at most once an interval, not on every request. False when the session has already ended.
     */
    async touch(id: string, now: number, idleMs: number): Promise<boolean> {
      const result = await db
        .updateTable('sessions')
        .set((eb) => ({
          last_seen_at: now,
          // CASE, not min() or greatest(): SQLite and PostgreSQL name the two-argument minimum differently.
          idle_expires_at: eb
            .case()
            .when('expires_at', '<', now + idleMs)
            .then(eb.ref('expires_at'))
            .else(now + idleMs)
            .end(),
        }))
        .where('id_hash', '=', secretTokenHash(id))
        .where('idle_expires_at', '>', now)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A person's sessions still in use at `now`, the most recently used first. */
    async listOf(personId: string, now: number): Promise<Session[]> {
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .where('person_id', '=', personId)
        .where('idle_expires_at', '>', now)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .execute();
      return rows.map(sessionOf);
    },

    /** Signs out the session of `id`; false when there was none. */
    async delete(id: string): Promise<boolean> {
      const result = await db.deleteFrom('sessions').where('id_hash', '=', secretTokenHash(id)).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Signs out one of a person's sessions by its handle (Session.idHash); another person's is left alone. */
    async deleteOne(personId: string, idHash: string): Promise<boolean> {
      const result = await db.deleteFrom('sessions').where('person_id', '=', personId).where('id_hash', '=', idHash).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    /** Signs a person out everywhere, but for the session of `exceptId` when given; how many ended. */
    async deleteAllOf(personId: string, options: { exceptId?: string } = {}): Promise<number> {
      let query = db.deleteFrom('sessions').where('person_id', '=', personId);
      if (options.exceptId !== undefined) query = query.where('id_hash', '!=', secretTokenHash(options.exceptId));
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Removes the sessions that have ended by `now` (they are refused anyway); how many. */
    async deleteExpired(now: number): Promise<number> {
      const result = await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('idle_expires_at', '<=', now), eb('expires_at', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;
