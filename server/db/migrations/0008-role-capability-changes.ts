/**
 * The owners' overrides of what a role may do (role_capabilities, migration 0007) mark a change as grants
 * do (migration 0006-session-changes): what a person may do is kept in memory with their session until the
 * database marks a change, so an export allowed or withheld for a role takes effect at that person's next
 * request on every instance, whoever wrote it (an instance, an operator's SQL). Stands alone, like every
 * migration.
 */
import { sql, SqliteAdapter, type Migration } from 'kysely';

export const roleCapabilityChanges: Migration = {
  async up(db) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      const bump = sql.raw('begin update session_changes set n = n + 1 where id = 1; end');
      for (const [name, when] of [
        ['added', 'after insert on role_capabilities'],
        ['updated', 'after update on role_capabilities'],
        ['deleted', 'after delete on role_capabilities'],
      ] as const) {
        await sql`create trigger ${sql.raw(`session_changes_role_capabilities_${name}`)} ${sql.raw(when)} for each row ${bump}`.execute(db);
      }
      return;
    }
    // session_changes_notify() is migration 0006's.
    await sql`create trigger session_changes_role_capabilities after insert or update or delete on role_capabilities for each statement execute function session_changes_notify()`.execute(
      db,
    );
  },
};
