/**
 * What tells every instance that who may do what has changed, so that each can keep the sessions it has
 * checked in memory (db/session-changes.ts) and still turn a person away at their next request. Fired by
 * the database itself, whoever writes (an instance, the people command, an operator's SQL):
 * - a person added (the local demo ends), changed or removed (disabled, renamed, new grants time, a new
 *   password);
 * - grants added, changed or removed;
 * - a session ended (signed out, disabled, cleared away) or given other ends or grants (a new id issued).
 * Not fired by a session started (nothing kept can be stale for an id never seen) nor by a session's "last
 * seen" and idle end moving on (an instance holding the older idle end reads the session again when it
 * passes, and finds it moved).
 *
 * SQLite: a counter in a one-row table, read on every request (one prepared statement). PostgreSQL: a
 * notification on the channel `session_changes`, which every instance listens on. Stands alone, like
 * every migration.
 */
import { sql, SqliteAdapter, type Migration } from 'kysely';

export const sessionChanges: Migration = {
  async up(db) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await sql`create table session_changes (id integer primary key check (id = 1), n integer not null)`.execute(db);
      await sql`insert into session_changes (id, n) values (1, 0)`.execute(db);
      const bump = sql.raw('begin update session_changes set n = n + 1 where id = 1; end');
      const triggers: [string, string][] = [
        ['people_added', 'after insert on people'],
        ['people_updated', 'after update on people'],
        ['people_deleted', 'after delete on people'],
        ['grants_added', 'after insert on grants'],
        ['grants_updated', 'after update on grants'],
        ['grants_deleted', 'after delete on grants'],
        ['sessions_updated', 'after update of person_id, expires_at, grants_at on sessions'],
        ['sessions_deleted', 'after delete on sessions'],
      ];
      for (const [name, when] of triggers) {
        await sql`create trigger ${sql.raw(`session_changes_${name}`)} ${sql.raw(when)} for each row ${bump}`.execute(db);
      }
      return;
    }
    await sql`create function session_changes_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('session_changes', '');
        return null;
      end $$`.execute(db);
    const triggers: [string, string][] = [
      ['people', 'after insert or update or delete on people'],
      ['grants', 'after insert or update or delete on grants'],
      ['sessions', 'after update of person_id, expires_at, grants_at or delete on sessions'],
    ];
    for (const [name, when] of triggers) {
      await sql`create trigger ${sql.raw(`session_changes_${name}`)} ${sql.raw(when)} for each statement execute function session_changes_notify()`.execute(
        db,
      );
    }
  },
};
