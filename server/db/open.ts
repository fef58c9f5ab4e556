/**
 * site-admin's own database, opened once at start and migrated to the latest layout: a SQLite file in
 * DATA_DIR by default, or PostgreSQL when DATABASE_URL is set (several instances then share people and
 * sessions). It is a database of its own, never the sandbox's, which stands in for a platform.
 */
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, NO_MIGRATIONS, PostgresDialect, SqliteDialect } from 'kysely';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { ConfigError, describeDatabase, type DatabaseSetting } from '../config';
import { MIGRATIONS } from './migrations';
import type { Database } from './schema';
import { postgresSessionChanges, sqliteSessionChanges, type SessionChanges } from './session-changes';

/**
 * SQLite's settings, on the one connection the server keeps:
 * - WAL: reads never wait for a write nor a write for reads, and a commit appends to the log instead of
 *   rewriting pages.
 * - synchronous=NORMAL: with WAL, a commit is safe once it is in the log; the log is synced to the disk
 *   at checkpoints rather than at every commit. What is committed survives the server crashing or being
 *   killed; the file is never corrupted; a power cut or a crash of the machine itself may take back the
 *   last transactions not yet on the disk (in practice the last seconds before it). For people and
 *   sessions that is acceptable: a lost session is a second sign-in, and a lost change to a person (a
 *   grant, a disabling) shows as not made on the People page, to be made again. An activity record is
 *   different: it answers "who did this" for a change that has already reached a platform and cannot be
 *   replayed, so the store that keeps it should switch this connection to FULL (one sync of the log per
 *   commit; `synchronous` holds for the connection, so for the whole file).
 * - foreign_keys=ON: SQLite enforces the schema's references only when asked, on each connection.
 * - busy_timeout: another process on the same file (a second server, an operator's command) holding the
 *   write lock is waited for, rather than failing at once.
 */
const SQLITE_PRAGMAS = ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'busy_timeout = 5000'] as const;

/** How long opening PostgreSQL waits for a connection before start gives up. */
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;
/** Connections per instance: requests take one for a query or two at a time. */
const POSTGRES_POOL_SIZE = 10;

export interface AppDatabase {
  db: Kysely<Database>;
  engine: DatabaseSetting['engine'];
  /** Where it is, for messages: the file, or PostgreSQL's host and database, never a password. */
  where: string;
  /** SQLite's own handle (for its pragmas and the migrations' lock); undefined on PostgreSQL. */
  sqlite: SQLite.Database | undefined;
  /** What tells this process that sessions, people or grants changed (session-changes.ts); nothing runs until first asked. */
  sessionChanges: SessionChanges;
  close(): Promise<void>;
}

/** PostgreSQL's bigint (the schema's times) read back as numbers, as SQLite gives them: milliseconds fit. */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    id === pg.types.builtins.INT8 && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(id, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** Connects without migrating (tests use it to build a database of an earlier version); see openDatabase. */
export function connectDatabase(setting: DatabaseSetting): AppDatabase {
  const where = describeDatabase(setting);
  if (setting.engine === 'sqlite') {
    mkdirSync(dirname(setting.file), { recursive: true });
    const sqlite = new SQLite(setting.file);
    for (const pragma of SQLITE_PRAGMAS) sqlite.pragma(pragma);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, engine: 'sqlite', where, sqlite, sessionChanges: sqliteSessionChanges(sqlite), close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: setting.url.href,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    application_name: 'site-admin',
    types: pgTypes,
  });
  // An idle connection that PostgreSQL drops (a restart, a fail-over) is an error event on the pool; without
  // a listener it would end the process. The pool replaces it, and the next query reports any real outage.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const sessionChanges = postgresSessionChanges({
    connectionString: setting.url.href,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    application_name: 'site-admin session changes',
  });
  return {
    db,
    engine: 'postgres',
    where,
    sqlite: undefined,
    sessionChanges,
    close: async () => {
      await sessionChanges.close();
      await db.destroy();
    },
  };
}

/**
 * Runs the migrations up to `target` (a migration's name, or 'none' for an empty database; default: all).
 * On PostgreSQL, Kysely's migrator holds an advisory lock in its transaction, so instances starting together
 * migrate once. On SQLite its transaction is a deferred one, in which two processes could both read the old
 * version; here the migrations run in one BEGIN IMMEDIATE instead, so a second process waits for the first
 * (busy_timeout) and then finds nothing left to do.
 */
export async function migrateDatabase(database: AppDatabase, target: string | 'none' | 'latest' = 'latest'): Promise<void> {
  const { sqlite } = database;
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
    disableTransactions: sqlite !== undefined,
  });
  sqlite?.exec('BEGIN IMMEDIATE');
  const { error, results } = await (target === 'latest'
    ? migrator.migrateToLatest()
    : migrator.migrateTo(target === 'none' ? NO_MIGRATIONS : target));
  if (sqlite) sqlite.exec(error ? 'ROLLBACK' : 'COMMIT');
  if (error === undefined) return;
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /previously executed migration (\S+) is missing/.exec(message)?.[1];
  if (unknown) {
    throw new ConfigError(
      `The database ${database.where} was brought to a newer layout by a newer site-admin (its migration ${unknown} is not one ` +
        'this version knows). Run that version, or restore a backup made before it.',
    );
  }
  const failed = results?.find((result) => result.status === 'Error')?.migrationName;
  throw new Error(`Migrating the database ${database.where}${failed ? ` (${failed})` : ''} failed: ${message}`, { cause: error });
}

/** An error's message; a refused connection to every address of a name has none, only a code. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return error.message || code || error.name;
}

/**
 * Opens site-admin's database and brings it to the latest layout; a ConfigError, naming where it is
 * (never DATABASE_URL's password), when it cannot be opened or reached.
 */
export async function openDatabase(setting: DatabaseSetting): Promise<AppDatabase> {
  let database: AppDatabase;
  try {
    database = connectDatabase(setting);
  } catch (error) {
    throw new ConfigError(
      `site-admin's database ${describeDatabase(setting)} cannot be opened (${(error as Error).message}); check DATA_DIR.`,
    );
  }
  try {
    await migrateDatabase(database);
  } catch (error) {
    await database.close();
    if (error instanceof ConfigError) throw error;
    // Migrations of a reachable database do not fail; on PostgreSQL a failure is most likely the connection.
    if (setting.engine === 'postgres') {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new ConfigError(`DATABASE_URL is set, but ${database.where} could not be used (${reasonOf(cause)}).`);
    }
    throw error;
  }
  return database;
}
