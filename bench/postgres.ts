/**
 * A throwaway PostgreSQL cluster for the sections that measure both engines, started as the tests start
 * one (server/testing/postgres.ts), when PostgreSQL's programs are installed; otherwise why not.
 */
import type { DatabaseSetting } from '../server/config';

export interface BenchPostgres {
  /** A new, empty database of the cluster. */
  fresh(): Promise<DatabaseSetting>;
  stop(): Promise<void>;
}

/** The cluster, or the reason it is left out (the section then measures SQLite alone). */
export async function startBenchPostgres(): Promise<BenchPostgres | string> {
  const helpers = await import('../server/testing/postgres');
  if (!helpers.POSTGRES_BIN) return 'PostgreSQL is not installed (apt-get install postgresql)';
  const cluster = await helpers
    .startPostgres()
    .catch((error: unknown) => `a throwaway cluster could not start: ${(error as Error).message}`);
  if (typeof cluster === 'string') return cluster;
  return { fresh: () => cluster.freshDatabase(), stop: () => cluster.stop() };
}
