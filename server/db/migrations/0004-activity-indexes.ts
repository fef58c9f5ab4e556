/**
 * The Activity list at a million entries: a product's name searched by its words through an index of its
 * own, where the list's search scanned every entry (about 0.8 s at a million). SQLite: an FTS5 table of
 * the names (FTS5 is part of the SQLite that better-sqlite3 bundles), rowid = the entry's seq, kept by
 * triggers; PostgreSQL: a GIN index over the name's words (`to_tsvector('simple', ...)`, built in: no
 * extension to install). Only entries with a name are indexed, so a lookup's append pays nothing for it.
 *
 * And every append a little cheaper: the indices of a person, a site, a slug and a case hold only the
 * entries that have one (a lookup has no slug, a create no case, the demo no person), which a query for
 * one value still uses; on SQLite the entry's number becomes the table's own row id (`integer primary
 * key`), where `bigint primary key` kept a second index of it (the table is rebuilt, its rows kept).
 * Stands alone, like every migration.
 */
import { sql, SqliteAdapter, type Migration } from 'kysely';

/** The activity table's columns, as migration 0003 made them. */
const COLUMNS = [
  'seq',
  'at',
  'actor_kind',
  'person_id',
  'person_name',
  'site_id',
  'action',
  'target_name',
  'target_slug',
  'form_id',
  'case_id',
  'refers_to',
  'request_id',
  'address',
  'user_agent',
  'outcome',
  'status',
  'duration_ms',
  'detail',
  'prev_hash',
  'hash',
];

/** The filters' indices that hold only the entries with a value. */
const PARTIAL = [
  ['activity_person', 'person_id'],
  ['activity_site', 'site_id'],
  ['activity_slug', 'target_slug'],
  ['activity_case', 'case_id'],
] as const;

export const activityIndexes: Migration = {
  async up(db) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    if (sqlite) {
      const columns = sql.raw(COLUMNS.join(', '));
      await sql`create table activity_rebuilt (
                  seq integer primary key, at bigint not null, actor_kind text not null, person_id text, person_name text,
                  site_id text, action text not null, target_name text, target_slug text, form_id text, case_id text,
                  refers_to bigint, request_id text, address text, user_agent text, outcome text not null, status integer,
                  duration_ms integer, detail text, prev_hash text not null, hash text not null)`.execute(db);
      await sql`insert into activity_rebuilt (${columns}) select ${columns} from activity`.execute(db);
      await sql`drop table activity`.execute(db);
      await sql`alter table activity_rebuilt rename to activity`.execute(db);
      await db.schema.createIndex('activity_at').on('activity').column('at').execute();
      await db.schema.createIndex('activity_action').on('activity').columns(['action', 'seq']).execute();
    } else {
      for (const name of ['activity_person', 'activity_site', 'activity_slug', 'activity_case']) {
        await db.schema.dropIndex(name).execute();
      }
    }
    for (const [name, column] of PARTIAL) {
      await db.schema.createIndex(name).on('activity').columns([column, 'seq']).where(sql.ref(column), 'is not', null).execute();
    }
    if (sqlite) {
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
