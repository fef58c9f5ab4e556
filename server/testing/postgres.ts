/**
 * Tests of site-admin's database run against both engines with the same test file: SQLite in a temporary
 * folder, and a throwaway PostgreSQL cluster (Debian's `postgresql`): `initdb` in a temporary folder and
 * `pg_ctl` on a free loopback port, as the `postgres` user when the tests run as root (PostgreSQL refuses to
 * run as root), directly otherwise. The server tests share one cluster, started once per run
 * (server/testing/postgres-cluster.ts), each test in a database of its own. Where PostgreSQL is not
 * installed, its half is skipped, saying so; in CI (.ci/run installs it) a missing PostgreSQL fails instead.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseSetting } from '../config';
import { freePort, tempDir } from './test-helpers';

const run = promisify(execFile);

/** The folder of PostgreSQL's server programs (initdb, pg_ctl), or undefined when it is not installed. */
export const POSTGRES_BIN: string | undefined = (() => {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // No pg_config (or only the client's): look where Debian puts each version.
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
})();

const AS_ROOT = process.getuid?.() === 0;

/** Runs one of PostgreSQL's programs, as the `postgres` user when we are root. */
async function postgresProgram(program: string, args: readonly string[]): Promise<void> {
  const path = join(POSTGRES_BIN ?? '', program);
  await (AS_ROOT ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, [...args]));
}

export interface ThrowawayPostgres {
  /** Its loopback port (user `app`, no password). */
  port: number;
  /** A new, empty database of the cluster, for one test. */
  freshDatabase(): Promise<DatabaseSetting>;
  stop(): Promise<void>;
}

/** Starts a cluster of its own on a free loopback port (about 2 s); `stop` ends it and removes its folder. */
export async function startPostgres(): Promise<ThrowawayPostgres> {
  const dir = tempDir('site-admin-postgres-');
  if (AS_ROOT) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
    chownSync(dir, uid ?? 0, gid ?? 0);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  let started = false;
  const stop = async () => {
    if (started) await postgresProgram('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await postgresProgram('initdb', ['-D', data, '-U', 'app', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    // Durability is of no use to a cluster that is thrown away after the tests: no syncing, for speed.
    const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    await postgresProgram('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    started = true;
  } catch (error) {
    await stop();
    throw error;
  }
  const fresh = databasesOf(port);
  return {
    port,
    freshDatabase: fresh.create,
    async stop() {
      await fresh.end();
      await stop();
    },
  };
}

/**
 * New, empty databases in the cluster at `port`, each named at random: several test files (each in its own
 * worker) create them in one cluster at once.
 */
function databasesOf(port: number): { create(): Promise<DatabaseSetting>; end(): Promise<void> } {
  let admin: pg.Pool | undefined;
  return {
    async create() {
      if (!admin) {
        admin = new pg.Pool({ host: '127.0.0.1', port, user: 'app', database: 'postgres', max: 1 });
        admin.on('error', () => undefined);
      }
      const name = `test_${randomBytes(8).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      return { engine: 'postgres', url: new URL(`postgres://app@127.0.0.1:${port}/${name}`) };
    },
    async end() {
      await admin?.end();
    },
  };
}

export type Engine = DatabaseSetting['engine'];
export const ENGINES: readonly Engine[] = ['sqlite', 'postgres'];
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * `describe(title)` once per engine. `body` gets `freshDatabase`, which gives each call a new, empty
 * database of that engine (a file in a temporary folder, or a database of the file's own cluster).
 */
export function describeEachEngine(title: string, body: (engine: Engine, freshDatabase: () => Promise<DatabaseSetting>) => void) {
  it(`${title}: has PostgreSQL where CI runs (.ci/run installs it)`, () => {
    if (process.env.CI) expect(POSTGRES_BIN, 'PostgreSQL (initdb, pg_ctl) is missing in CI').toBeDefined();
  });
  for (const engine of ENGINES) {
    const missing = engine === 'postgres' && POSTGRES_BIN === undefined;
    const skipped = missing ? ' (skipped: no PostgreSQL here; apt-get install postgresql)' : '';
    describe.skipIf(missing)(`${title} on ${ENGINE_NAMES[engine]}${skipped}`, () => {
      let dir: string;
      // The run's cluster (server/testing/postgres-cluster.ts).
      const databases = engine === 'postgres' ? databasesOf(inject('postgresPort')) : undefined;
      let files = 0;
      beforeAll(() => {
        dir = tempDir('site-admin-db-');
        if (databases && inject('postgresPort') === 0) throw new Error('No PostgreSQL cluster was started for this run');
      });
      afterAll(async () => {
        await databases?.end();
        rmSync(dir, { recursive: true, force: true });
      }, 60_000);
      body(engine, async () => {
        if (databases) return databases.create();
        files += 1;
        return { engine: 'sqlite', file: join(dir, `${files}`, 'site-admin.sqlite') };
      });
    });
  }
}
