/**
 * A throwaway PostgreSQL cluster for the sections that measure both engines, started as the tests start
 * one (server/testing/postgres.ts), when PostgreSQL's programs are installed; otherwise why not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { DatabaseSetting } from '../server/config';

export interface BenchPostgres {
  /** A new, empty database of the cluster. */
  fresh(): Promise<DatabaseSetting>;
  /**
   * CPU time (user + system) the cluster's processes used so far, in ms: the postmaster, the backends
   * alive now, and those that ended (counted into the postmaster's children's time); undefined off Linux.
   */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after "pid (name) ", or undefined once it is gone. */
function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The postmaster listening on `port`: the postgres process started with `-p <port>`. */
function postmasterOf(port: number): string | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!(args[0] ?? '').endsWith('postgres')) continue;
    if (args.some((arg, i) => (arg === '-p' && args[i + 1] === String(port)) || arg === `-p${port}`)) return entry;
  }
  return undefined;
}

function clusterCpuMs(port: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  const postmaster = postmasterOf(port);
  const own = postmaster ? statFields(postmaster) : undefined;
  if (!postmaster || !own) return undefined;
  // utime, stime, cutime, cstime: the 14th to 17th fields of stat (11 to 14 after the name).
  let ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(own[i]), 0);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields?.[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / CLOCK_TICKS_PER_SECOND) * 1000;
}

/** The cluster, or the reason it is left out (the section then measures SQLite alone). */
export async function startBenchPostgres(): Promise<BenchPostgres | string> {
  const testing = await import('../server/testing/postgres');
  if (!testing.POSTGRES_BIN) return 'PostgreSQL is not installed (apt-get install postgresql)';
  const cluster = await testing
    .startPostgres()
    .catch((error: unknown) => `a throwaway cluster could not start: ${(error as Error).message}`);
  if (typeof cluster === 'string') return cluster;
  return { fresh: () => cluster.freshDatabase(), cpuMs: () => clusterCpuMs(cluster.port), stop: () => cluster.stop() };
}
