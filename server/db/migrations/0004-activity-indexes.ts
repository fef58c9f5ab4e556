/**
 * The Activity list at a million entries: a product's name searched by its words through an index of its
 * own, where the list's search scanned every entry (about 0.8 s at a million). SQLite: an FTS5 table of
 * the names (FTS5 is part of the SQLite that better-sqlite3 bundles), rowid = the entry's seq, kept by
 * triggers; PostgreSQL: a GIN index over the name's words (`to_tsvector('simple', ...)`, built in: no
 * extension to install). Only entries with a name are indexed, so a lookup's append pays nothing for it.
 * Stands alone, like every migration.
 */
import { sql, SqliteAdapter, type Migration } from 'kysely';

export const activityIndexes: Migration = {
  async up(db) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      // Contentless: the names stay in the activity table; contentless_delete lets pruning remove them.
      await sql`create virtual table activity_names using fts5(name, content='', contentless_delete=1)`.execute(db);
      await sql`create trigger activity_names_insert after insert on activity when new.target_name is not null
                begin insert into activity_names (rowid, name) values (new.seq, new.target_name); end`.execute(db);
      await sql`create trigger activity_names_delete after delete on activity when old.target_name is not null
                begin delete from activity_names where rowid = old.seq; end`.execute(db);
      await sql`insert into activity_names (rowid, name) select seq, target_name from activity where target_name is not null`.execute(db);
    } else {
      await sql`create index activity_name_words on activity using gin (to_tsvector('simple', target_name)) where target_name is not null`.execute(
        db,
      );
    }
  },
};
