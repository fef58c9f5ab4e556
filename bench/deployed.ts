/**
 * The headline: site-admin as it is deployed, beside nginx, in one run, on both engines of the app's own
 * database (SQLite, and PostgreSQL in a throwaway cluster where it is installed). Every target is in front
 * of the same standalone sandbox (`npm run sandbox`, its own process):
 *
 * - the sandbox directly (its own key and site id), the floor;
 * - nginx injecting x-api-key and x-site-id, passing on the spec's two operations alone (bench/nginx.ts);
 * - site-admin as the local demo: loopback, nobody in the database, no sign-in (every call still recorded);
 * - site-admin deployed: a signed-in person's session cookie checked on every call, and the activity
 *   record on, as every deployment off loopback runs (off loopback only the cookie's name and its Secure
 *   flag differ);
 * - the same without the record's step (bench/server-without-record.ts, the bench's own entry), so the
 *   record's price is read in the deployed configuration.
 *
 * For each: a case lookup and a product create (a new slug each), 50 connections, throughput and the CPU
 * time (user + system, from /proc) per request of the proxy's process group and of the sandbox behind it.
 * The targets take turns in rounds whose order rotates, so a drift in the machine's load falls on each
 * alike; figures are medians of the rounds, every ratio the median of each round's ratio (the two figures of
 * a round were taken minutes apart at most, on the same machine's load).
 * On PostgreSQL the cluster's own processes' CPU per request is given beside them (the ratios are of the
 * proxy's CPU alone, but for one more ratio of the session's check with it).
 */
import { validateProduct } from '../src/contract/rules';
import type { DatabaseSetting } from '../server/config';
import { createLoad, figures, lookupLoad, productBody, type LoadFigures } from './http';
import { findNginx, nginxVersion, startNginx } from './nginx';
import { startBenchPostgres } from './postgres';
import { signInCookie, SIGNED_IN } from './sessions';
import { onSandbox, SANDBOX_AUTH, startServer, startStandaloneSandbox, type RunningProcess } from './server-process';
import { median, ratio, round } from './stats';

const CASE_PATH = '/api/site/v2/forms/3/cases/48217';
const CREATE_PATH = '/api/site/v2/ecommerce/products/create';
export const DEPLOYED_DURATION_S = 5;
const WARMUP_S = 2;
const CONNECTIONS = 50;

export type Kind = 'lookup' | 'create';
export type Engine = DatabaseSetting['engine'];
export type Configuration = 'demo' | 'deployed' | 'withoutRecord';
export type TargetName = 'direct' | 'nginx' | `${Configuration}-${Engine}`;
const KINDS: readonly Kind[] = ['lookup', 'create'];
export const CONFIGURATIONS: readonly Configuration[] = ['demo', 'deployed', 'withoutRecord'];

export interface TargetFigures {
  /** Median of the rounds (failures summed). */
  load: LoadFigures;
  /**
   * CPU time per request, µs, median of the rounds: the proxy's (none for the sandbox direct), the
   * sandbox's, and for a server on PostgreSQL the cluster's own processes'.
   */
  cpuUs: { proxy?: number; sandbox: number; postgres?: number };
  /** This target / nginx, median of each round's ratio: throughput, and the proxy's CPU per request. */
  toNginx?: { throughput: number; cpu?: number };
}

export interface EngineRatios {
  /** CPU per request, deployed / local demo: the session's check (both record every call). */
  sessionLookup: number;
  sessionCreate: number;
  /** CPU per request, deployed / deployed without the record's step. */
  recordLookup: number;
  recordCreate: number;
  /** On PostgreSQL: the session's check per lookup with the cluster's CPU added to the proxy's on both sides. */
  sessionLookupWithPostgres?: number;
}

export interface DeployedFigures {
  nginx: { version: string } | { missing: string };
  engines: Engine[];
  postgresMissing?: string;
  rounds: number;
  durationS: number;
  connections: number;
  lookup: Partial<Record<TargetName, TargetFigures>>;
  create: Partial<Record<TargetName, TargetFigures>>;
  ratios: Partial<Record<Engine, EngineRatios>>;
  /** The proxy's CPU µs per request of each target in each round (the rounds' order is in perRound). */
  proxyCpuUsPerRound: Record<Kind, Partial<Record<TargetName, number[]>>>;
  /** Requests/s of each target in each round, in the order they ran. */
  perRound: { order: TargetName[]; lookup: Partial<Record<TargetName, number>>; create: Partial<Record<TargetName, number>> }[];
}

interface Target {
  name: TargetName;
  engine?: Engine;
  origin: string;
  headers: Record<string, string>;
  /** Whose CPU is the proxy's; none for the sandbox direct. */
  proxy?: RunningProcess;
}

function medianLoad(runs: readonly LoadFigures[]): LoadFigures {
  const of = (key: keyof LoadFigures) => median(runs.map((run) => run[key]));
  return {
    requestsPerSec: Math.round(of('requestsPerSec')),
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
    // Failures add up: none may hide behind a median.
    non2xx: runs.reduce((n, run) => n + run.non2xx, 0),
    errors: runs.reduce((n, run) => n + run.errors, 0),
    total: runs.reduce((n, run) => n + run.total, 0),
  };
}

const load = (target: Target, kind: Kind, seconds: number) =>
  kind === 'lookup'
    ? lookupLoad(`${target.origin}${CASE_PATH}`, seconds, target.headers, CONNECTIONS)
    : createLoad(`${target.origin}${CREATE_PATH}`, seconds, target.headers, CONNECTIONS);

export async function runDeployedBenchmark(distDir: string, log: (line: string) => void, rounds = 3): Promise<DeployedFigures> {
  const check = validateProduct(productBody('bench-check'));
  if (!check.ok) throw new Error(`The benchmark's product is not valid: ${JSON.stringify(check.details)}`);
  const binary = findNginx();
  const started: RunningProcess[] = [];
  const postgres = await startBenchPostgres();
  try {
    const sandbox = await startStandaloneSandbox();
    started.push(sandbox);
    const targets: Target[] = [{ name: 'direct', origin: sandbox.origin, headers: { ...SANDBOX_AUTH } }];
    if (binary) {
      const nginx = await startNginx(binary, Number(new URL(sandbox.origin).port), CASE_PATH);
      started.push(nginx);
      targets.push({ name: 'nginx', origin: nginx.origin, headers: {}, proxy: nginx });
    } else {
      log('  nginx is not installed (Debian: apt-get install nginx-light): the peer is left out, the rest runs');
    }
    // On SQLite each server's database is a file in its own fresh folder (startServer's).
    const engines: { engine: Engine; env: () => Promise<Record<string, string>> }[] = [
      { engine: 'sqlite', env: () => Promise.resolve({}) },
    ];
    if (typeof postgres === 'string') log(`  PostgreSQL left out: ${postgres}`);
    else {
      engines.push({
        engine: 'postgres',
        env: async (): Promise<Record<string, string>> => {
          const setting = await postgres.fresh();
          return setting.engine === 'postgres' ? { DATABASE_URL: setting.url.href } : {};
        },
      });
    }
    const upstream = onSandbox(distDir, sandbox);
    for (const { engine, env } of engines) {
      for (const configuration of CONFIGURATIONS) {
        const signedIn = configuration !== 'demo';
        const server = await startServer(
          { ...upstream, ...(await env()), ...(signedIn ? SIGNED_IN : {}) },
          { withoutRecord: configuration === 'withoutRecord' },
        );
        started.push(server);
        // A create is a change: it must come from the server's own pages (same origin), as the browser sends it.
        const headers: Record<string, string> = { origin: server.origin };
        if (signedIn) headers.cookie = await signInCookie(server.origin);
        targets.push({ name: `${configuration}-${engine}`, engine, origin: server.origin, headers, proxy: server });
      }
    }

    // Unmeasured: JIT, page caches, every pool's keep-alive connections; and a check that every target answers.
    for (const target of targets) {
      for (const kind of KINDS) {
        const result = figures(await load(target, kind, WARMUP_S));
        if (result.non2xx > 0 || result.errors > 0) {
          throw new Error(`${target.name} ${kind}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
        }
      }
    }

    const runs = new Map<string, LoadFigures[]>();
    const cpu = new Map<string, { proxy: number; sandbox: number; postgres: number }[]>();
    const postgresCpuMs = () => (typeof postgres === 'string' ? undefined : postgres.cpuMs()) ?? Number.NaN;
    const perRound: DeployedFigures['perRound'] = [];
    for (let r = 0; r < rounds; r += 1) {
      const order = targets.map((_, i) => targets[(i + r) % targets.length] as Target);
      const round_: DeployedFigures['perRound'][number] = { order: order.map((t) => t.name), lookup: {}, create: {} };
      for (const target of order) {
        for (const kind of KINDS) {
          const before = { proxy: target.proxy?.cpuMs() ?? Number.NaN, sandbox: sandbox.cpuMs() ?? Number.NaN, postgres: postgresCpuMs() };
          const result = figures(await load(target, kind, DEPLOYED_DURATION_S));
          const after = { proxy: target.proxy?.cpuMs() ?? Number.NaN, sandbox: sandbox.cpuMs() ?? Number.NaN, postgres: postgresCpuMs() };
          const perRequest = (ms: number) => round((ms * 1000) / Math.max(result.total, 1), 1);
          const key = `${target.name}/${kind}`;
          runs.set(key, [...(runs.get(key) ?? []), result]);
          cpu.set(key, [
            ...(cpu.get(key) ?? []),
            {
              proxy: perRequest(after.proxy - before.proxy),
              sandbox: perRequest(after.sandbox - before.sandbox),
              postgres: perRequest(after.postgres - before.postgres),
            },
          ]);
          round_[kind][target.name] = result.requestsPerSec;
        }
      }
      perRound.push(round_);
      for (const kind of KINDS) {
        const line = order.map((t) => {
          const last = cpu.get(`${t.name}/${kind}`)?.at(-1);
          const us = t.proxy ? (last?.proxy ?? Number.NaN) : (last?.sandbox ?? Number.NaN);
          return `${t.name} ${round_[kind][t.name]}/s ${us} µs`;
        });
        log(`  round ${r + 1}/${rounds}, ${kind}: ${line.join(', ')}`);
      }
    }

    /** The median of each round's ratio of two targets' proxy CPU per request. */
    const cpuRatioOf = (kind: Kind, a: TargetName, b: TargetName) => {
      const [as, bs] = [cpu.get(`${a}/${kind}`) ?? [], cpu.get(`${b}/${kind}`) ?? []];
      return round(median(as.map((x, r) => ratio(x.proxy, bs[r]?.proxy ?? Number.NaN))), 2);
    };
    const figuresOf = (kind: Kind): Partial<Record<TargetName, TargetFigures>> => {
      const out: Partial<Record<TargetName, TargetFigures>> = {};
      for (const target of targets) {
        const key = `${target.name}/${kind}`;
        const cpus = cpu.get(key) ?? [];
        const proxyUs = median(cpus.map((c) => c.proxy));
        out[target.name] = {
          load: medianLoad(runs.get(key) ?? []),
          cpuUs: {
            ...(target.proxy && Number.isFinite(proxyUs) ? { proxy: proxyUs } : {}),
            sandbox: median(cpus.map((c) => c.sandbox)),
            ...(target.engine === 'postgres' ? { postgres: median(cpus.map((c) => c.postgres)) } : {}),
          },
        };
      }
      const nginx = out.nginx;
      if (nginx) {
        for (const target of targets) {
          const figures = out[target.name];
          if (!figures) continue;
          const throughput = round(median(perRound.map((p) => ratio(p[kind][target.name] ?? Number.NaN, p[kind].nginx ?? Number.NaN))), 2);
          const cpuRatio = target.proxy ? cpuRatioOf(kind, target.name, 'nginx') : undefined;
          figures.toNginx = { throughput, ...(cpuRatio !== undefined && Number.isFinite(cpuRatio) ? { cpu: cpuRatio } : {}) };
        }
      }
      return out;
    };
    const lookup = figuresOf('lookup');
    const create = figuresOf('create');
    const ratios: DeployedFigures['ratios'] = {};
    for (const { engine } of engines) {
      const of = (kind: Kind, a: Configuration, b: Configuration) => cpuRatioOf(kind, `${a}-${engine}`, `${b}-${engine}`);
      ratios[engine] = {
        sessionLookup: of('lookup', 'deployed', 'demo'),
        sessionCreate: of('create', 'deployed', 'demo'),
        recordLookup: of('lookup', 'deployed', 'withoutRecord'),
        recordCreate: of('create', 'deployed', 'withoutRecord'),
      };
      if (engine === 'postgres') {
        const [deployedCpu, demoCpu] = [cpu.get('deployed-postgres/lookup') ?? [], cpu.get('demo-postgres/lookup') ?? []];
        const both = (c?: { proxy: number; postgres: number }) => (c ? c.proxy + c.postgres : Number.NaN);
        const withPostgres = round(median(deployedCpu.map((c, r) => ratio(both(c), both(demoCpu[r])))), 2);
        if (Number.isFinite(withPostgres)) ratios[engine].sessionLookupWithPostgres = withPostgres;
      }
    }
    return {
      nginx: binary ? { version: nginxVersion(binary) } : { missing: 'nginx is not installed' },
      engines: engines.map((e) => e.engine),
      postgresMissing: typeof postgres === 'string' ? postgres : undefined,
      rounds,
      durationS: DEPLOYED_DURATION_S,
      connections: CONNECTIONS,
      lookup,
      create,
      ratios,
      proxyCpuUsPerRound: {
        lookup: Object.fromEntries(
          targets.filter((t) => t.proxy).map((t) => [t.name, (cpu.get(`${t.name}/lookup`) ?? []).map((c) => c.proxy)]),
        ),
        create: Object.fromEntries(
          targets.filter((t) => t.proxy).map((t) => [t.name, (cpu.get(`${t.name}/create`) ?? []).map((c) => c.proxy)]),
        ),
      },
      perRound,
    };
  } finally {
    for (const process of started.reverse()) await process.stop();
    if (typeof postgres !== 'string') await postgres.stop();
  }
}
