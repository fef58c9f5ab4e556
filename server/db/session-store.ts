/**
 * Sign-in sessions in site-admin's database. A session id is 256 random bits that only the person's cookie
 * holds: the store keeps its SHA-256 and looks sessions up by it, so a copy of the database signs nobody in.
 * Knows nothing of HTTP or cookies; times are milliseconds since the epoch, passed in by the caller.
 */
import { CompiledQuery, type Kysely } from 'kysely';
import { isRole, type CapabilityOverride, type Grant } from '../../src/contract/access';
import type { AppDatabase } from './open';
import { createRoleCapabilityStore } from './role-capability-store';
import type { Database, PersonRow, SessionRow } from './schema';
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

    /** The sessions that have ended by `now` and are still kept, each with its person's name, for the record. */
    async endedBy(now: number): Promise<{ personId: string; displayName: string; method: string }[]> {
      const rows = await db
        .selectFrom('sessions')
        .innerJoin('people', 'people.id', 'sessions.person_id')
        .select(['sessions.person_id', 'people.display_name', 'sessions.method'])
        .where((eb) => eb.or([eb('sessions.idle_expires_at', '<=', now), eb('sessions.expires_at', '<=', now)]))
        .execute();
      return rows.map((row) => ({ personId: row.person_id, displayName: row.display_name, method: row.method }));
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

/**
 * Who a session id belongs to, with the person and all their grants, in one statement: the work of every
 * request (a row per grant; one row with no grant when they have none).
 */
const IDENTIFY_COLUMNS = `s.id_hash, s.person_id, s.created_at, s.last_seen_at, s.idle_expires_at, s.expires_at, s.user_agent,
  s.address, s.grants_at, s.method, p.email, p.display_name, p.grants_changed_at, g.site_id as grant_site, g.role as grant_role`;
const identifySql = (placeholder: (n: number) => string) =>
  `select ${IDENTIFY_COLUMNS} from sessions s join people p on p.id = s.person_id left join grants g on g.person_id = s.person_id
   where s.id_hash = ${placeholder(1)} and s.idle_expires_at > ${placeholder(2)} and s.expires_at > ${placeholder(2)}
   and p.disabled_at is null`;

/** A session's row with its person's name, address and last change of grants, and one grant (or none). */
type IdentifyRow = SessionRow &
  Pick<PersonRow, 'email' | 'display_name' | 'grants_changed_at'> & { grant_site: string | null; grant_role: string | null };

/**
 * The identify statement, ready to run: on SQLite prepared once on the server's connection (better-sqlite3
 * runs it synchronously, in microseconds); on PostgreSQL one round trip instead of two, its text built once.
 * The bench's sessions section measured the two Kysely queries it replaces, built, compiled and (on
 * SQLite) prepared anew on every request, at most of the check's cost.
 */
function identifyStatement(database: AppDatabase): (idHash: string, now: number) => Promise<IdentifyRow[]> {
  const { sqlite } = database;
  if (sqlite) {
    const statement = sqlite.prepare<[string, number, number], IdentifyRow>(identifySql(() => '?'));
    return (idHash, now) => Promise.resolve(statement.all(idHash, now, now));
  }
  const text = identifySql((n) => `$${n}`);
  return async (idHash, now) => {
    const result = await database.db.executeQuery<IdentifyRow>(CompiledQuery.raw(text, [idHash, now]));
    return result.rows;
  };
}

/** A session in use with its person's grants, and the owners' overrides of what roles may do: who a request is from. */
export interface FoundSession {
  session: ActiveSession;
  grants: Grant[];
  /** Every override of role_capabilities (a handful of rows), read once per change marked, not per request. */
  overrides: readonly CapabilityOverride[];
}

export interface SessionLookup {
  /**
   * The session of `id` in use at `now`, with its person and all their grants: what every request is
   * checked against (auth/accounts.ts `identify`); undefined when it has ended, or its person is disabled.
   */
  find(id: string, now: number): Promise<FoundSession | undefined>;
  /**
   * Notes in memory that `id` is being marked used at `now` (its idle end moved on as `touch` moves it), before
   * the touch is written: requests arriving meanwhile do not touch it again. A touch marks no change
   * (session-changes.ts), so without this what is kept would still say "last seen" long ago.
   */
  touching(id: string, now: number, idleMs: number): void;
  /** Forgets what is kept of `id` (a touch that found the session ended). */
  forget(id: string): void;
}

/** How many sessions an instance keeps in memory at most; past it, it starts again from none. */
const KEPT_MOST = 10_000;

function foundOf(rows: IdentifyRow[]): FoundSession | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const session: ActiveSession = {
    idHash: first.id_hash,
    personId: first.person_id,
    createdAt: Number(first.created_at),
    lastSeenAt: Number(first.last_seen_at),
    idleExpiresAt: Number(first.idle_expires_at),
    expiresAt: Number(first.expires_at),
    userAgent: first.user_agent,
    address: first.address,
    grantsAt: Number(first.grants_at),
    method: first.method,
    email: first.email,
    displayName: first.display_name,
    grantsChangedAt: Number(first.grants_changed_at),
  };
  const grants: Grant[] = rows.flatMap((row) =>
    row.grant_site !== null && isRole(row.grant_role) ? [{ siteId: row.grant_site, role: row.grant_role }] : [],
  );
  return { session, grants, overrides: [] };
}

/**
 * Sessions found, kept in memory by their hash until the database marks a change that may concern them
 * (session-changes.ts says how each engine hears of it, on every request and before answering from
 * memory): a person disabled, changed or given other grants, or a session ended or given a new id, on any
 * instance or by the people command, is seen at the next request as before. Time-outs are checked here
 * against the kept ends: a session past its kept idle end is read again (another instance may have moved
 * that end on without marking a change). Only sessions found are kept: an unknown id is read every time.
 */
export function createSessionLookup(database: AppDatabase): SessionLookup {
  const identifyRows = identifyStatement(database);
  const roleCapabilities = createRoleCapabilityStore(database.db);
  const changes = database.sessionChanges;
  const kept = new Map<string, FoundSession>();
  let keptGeneration: number | undefined;
  /**
   * The owners' overrides as read under keptGeneration: they mark a change as grants do (migration
   * 0008-role-capability-changes), so they are read again only after one, once for all the requests that follow it.
   */
  let keptOverrides: { generation: number; read: Promise<readonly CapabilityOverride[]> } | undefined;
  // PostgreSQL starts listening now, rather than at the first request.
  void changes.settle();

  const copy = (found: FoundSession): FoundSession => ({
    session: { ...found.session },
    grants: found.grants.map((grant) => ({ ...grant })),
    overrides: found.overrides,
  });

  function overridesAt(generation: number | undefined): Promise<readonly CapabilityOverride[]> {
    if (generation !== undefined && keptOverrides?.generation === generation) return keptOverrides.read;
    const read = roleCapabilities
      .list()
      .then((rows) =>
        Object.freeze(rows.map(({ siteId, role, capability, allowed }) => Object.freeze({ siteId, role, capability, allowed }))),
      );
    if (generation === undefined) return read;
    const entry = { generation, read };
    keptOverrides = entry;
    read.then(
      // Kept only if no change was heard while they were read (the read may predate that change).
      () => {
        if (changes.current() !== generation && keptOverrides === entry) keptOverrides = undefined;
      },
      () => {
        if (keptOverrides === entry) keptOverrides = undefined;
      },
    );
    return read;
  }

  return {
    async find(id, now) {
      const idHash = secretTokenHash(id);
      const generation = await changes.settle();
      if (generation !== keptGeneration) {
        kept.clear();
        keptGeneration = generation;
      }
      if (generation !== undefined) {
        // Its overrides were read under this same generation: nothing more to read.
        const found = kept.get(idHash);
        if (found && found.session.idleExpiresAt > now && found.session.expiresAt > now) return copy(found);
      }
      const [rows, read] = await Promise.all([identifyRows(idHash, now), overridesAt(generation)]);
      const found = foundOf(rows);
      if (found) found.overrides = read;
      // Kept only if no change was heard while it was read (the read may predate that change).
      if (found && generation !== undefined && changes.current() === generation && keptGeneration === generation) {
        if (kept.size >= KEPT_MOST) kept.clear();
        kept.set(idHash, copy(found));
      }
      return found;
    },
    touching(id, now, idleMs) {
      const found = kept.get(secretTokenHash(id));
      if (!found) return;
      found.session.lastSeenAt = now;
      found.session.idleExpiresAt = Math.min(now + idleMs, found.session.expiresAt);
    },
    forget(id) {
      kept.delete(secretTokenHash(id));
    },
  };
}
