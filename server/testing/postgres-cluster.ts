/**
 * The server tests' one PostgreSQL cluster, started once per run of the `server` project (Vitest's global
 * setup) rather than once per test file: each start is an `initdb` and a `pg_ctl` of about 2 s, and a dozen
 * files test both engines. Every test still gets a database of its own (`describeEachEngine`'s
 * `freshDatabase`), so files running side by side never see each other's rows. Where PostgreSQL is not
 * installed nothing is started, and the PostgreSQL halves skip, saying so.
 */
import type { TestProject } from 'vitest/node';
import { POSTGRES_BIN, startPostgres } from './postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The loopback port of the run's cluster (user `app`, trust), or 0 when none was started. */
    postgresPort: number;
  }
}

export async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  if (POSTGRES_BIN === undefined) {
    provide('postgresPort', 0);
    return async () => undefined;
  }
  const cluster = await startPostgres();
  provide('postgresPort', cluster.port);
  return () => cluster.stop();
}
