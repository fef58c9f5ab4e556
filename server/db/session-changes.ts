/**
 * Whether what this instance keeps in memory of sessions, people and grants (session-store.ts's lookup) is
 * still what the database holds. The database itself marks every change that could turn a request away
 * (migration 0006-session-changes: a person disabled or changed, grants, a session ended or given a new
 * id), whoever makes it: this instance, another one, the people command. Each engine hears those marks
 * its own way:
 *
 * - SQLite: a counter the marks move, read on every request (one prepared statement on the server's own
 *   connection, a few microseconds). It catches this connection's own writes and other processes' alike.
 *   SQLite's own `PRAGMA data_version` was the other candidate, but it does not move for the connection's
 *   own commits, and it moves for every commit of any other connection, so a second instance's activity
 *   record (one commit per request) would empty the memory on nearly every request.
 *
 * - PostgreSQL: a notification on the channel `session_changes`, which a dedicated connection of each
 *   instance listens on. A notification arrives after its change commits, so a request could reach this
 *   instance between the two. To leave no such window, a request that would be answered from memory first
 *   waits for a round trip on the listening connection that began after the request arrived: PostgreSQL
 *   signals every listening session before it tells the writer its commit is done (ReadyForQuery), and a
 *   signalled session sends its notifications at the latest before it next goes idle, that is before the
 *   ReadyForQuery that ends our round trip; so by then every change committed before the request is heard. Requests arriving together share one round
 *   trip (a trivial `select 1`, far cheaper than reading the session, its person and their grants). While
 *   the listening connection is down (not yet connected, lost, reconnecting, or its round trip failing),
 *   nothing is kept or used: every request reads the database, as without memory; once it listens again,
 *   everything kept before is dropped (what changed meanwhile was not heard).
 */
import type SQLite from 'better-sqlite3';
import pg from 'pg';

export interface SessionChanges {
  /**
   * Once every change committed before this call has been heard: the generation of what may be kept (what
   * was kept under another one must be dropped). Undefined while changes cannot be heard: then nothing may
   * be kept, nor used.
   */
  settle(): number | undefined | Promise<number | undefined>;
  /**
   * The generation now, without waiting: what was read from the database after `settle` gave generation
   * g may be kept only while this is still g (a change heard meanwhile may not be in what was read).
   */
  current(): number | undefined;
  close(): Promise<void>;
}

/** SQLite: the counter of migration 0006, read on every request. */
export function sqliteSessionChanges(sqlite: SQLite.Database): SessionChanges {
  // Prepared at first use: the table exists only once the database is migrated.
  let statement: SQLite.Statement<[], number> | undefined;
  let last: number | undefined;
  return {
    settle() {
      statement ??= sqlite.prepare<[], number>('select n from session_changes where id = 1').pluck();
      last = statement.get();
      return last;
    },
    current: () => last,
    close: () => Promise.resolve(),
  };
}

/** The channel migration 0006's triggers notify on. */
export const SESSION_CHANGES_CHANNEL = 'session_changes';
/** The first wait before listening again after the connection is lost; doubled on each failure, up to the most. */
const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 30_000;
/**
 * How long a round trip on the listening connection may take before the connection counts as lost (a
 * network that drops packets silently would otherwise hold requests until TCP gives up).
 */
const ROUND_TRIP_MS = 2_000;

const ignore = () => undefined;

/**
 * PostgreSQL: a dedicated connection (`config`) listening on the channel, opened at the first `settle`
 * and again after it is lost.
 */
export function postgresSessionChanges(config: pg.ClientConfig): SessionChanges {
  let generation = 0;
  /** The connection listening, once LISTEN has taken effect; undefined while down. */
  let listening: pg.Client | undefined;
  let connecting: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = RETRY_FIRST_MS;
  let closed = false;
  /** The round trip under way on `listening`, and the one that starts after it, shared by all who came since. */
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  /** Gives up the listening connection (as when it is lost). */
  let loseListening: (() => void) | undefined;

  function connect(): void {
    if (closed || connecting || listening || retry) return;
    const client = new pg.Client({ ...config, keepAlive: true, query_timeout: ROUND_TRIP_MS });
    connecting = client;
    let over = false;
    const lost = () => {
      if (over) return;
      over = true;
      if (connecting === client) connecting = undefined;
      if (listening === client) {
        listening = undefined;
        running = undefined;
        queued = undefined;
        generation += 1;
      }
      client.end().catch(ignore);
      if (closed) return;
      retry = setTimeout(() => {
        retry = undefined;
        connect();
      }, retryMs);
      retry.unref();
      retryMs = Math.min(retryMs * 2, RETRY_MOST_MS);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => {
      generation += 1;
    });
    client
      .connect()
      .then(() => client.query(`listen ${SESSION_CHANGES_CHANNEL}`))
      .then(() => {
        if (over) return;
        connecting = undefined;
        if (closed) {
          over = true;
          client.end().catch(ignore);
          return;
        }
        // Whatever was kept before now may predate a change made while nobody listened.
        generation += 1;
        retryMs = RETRY_FIRST_MS;
        listening = client;
        loseListening = lost;
      }, lost);
  }

  function roundTrip(): Promise<void> {
    const client = listening;
    if (!client) return Promise.reject(new Error('Not listening for session changes.'));
    const trip = client.query('select 1').then(ignore);
    running = trip;
    const done = () => {
      if (running === trip) running = undefined;
    };
    trip.then(done, () => {
      done();
      // A round trip that fails or takes too long: the connection is no longer to be trusted.
      if (listening === client) loseListening?.();
    });
    return trip;
  }

  /** Resolves after a round trip on the listening connection that began after this call. */
  function barrier(): Promise<void> {
    if (!running) return roundTrip();
    queued ??= running.then(ignore, ignore).then(() => {
      queued = undefined;
      return roundTrip();
    });
    return queued;
  }

  return {
    settle() {
      if (!listening) {
        connect();
        return undefined;
      }
      return barrier().then(
        () => (listening ? generation : undefined),
        () => undefined,
      );
    },
    current: () => (listening ? generation : undefined),
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = listening ?? connecting;
      listening = undefined;
      connecting = undefined;
      await client?.end().catch(ignore);
    },
  };
}
