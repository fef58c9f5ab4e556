/**
 * site-admin's proxy beside a peer: the same case lookup, in one run,
 *
 * - directly against a standalone sandbox (`npm run sandbox`, its own process),
 * - through nginx configured to inject x-api-key and x-site-id (where nginx is installed),
 * - through site-admin's server (compiled, as `npm start` runs it) pointed at that sandbox as its platform,
 *
 * interleaved in rounds (the order rotates each round, so a drift in the machine's load falls on every
 * target alike) and reported as medians and ratios. All three share the machine's cores with the load
 * generator in this process, the same for each.
 */
import type { RequestData } from 'autocannon';
import { findNginx, nginxVersion, startNginx } from './nginx';
import { figures, lookupLoad, type LoadFigures } from './http';
import { onSandbox, SANDBOX_AUTH, startServer, startStandaloneSandbox, type RunningProcess } from './server-process';
import { median, round } from './stats';

const CASE_PATH = '/api/site/v2/forms/3/cases/48217';
export const PEER_DURATION_S = 5;
const WARMUP_S = 2;

type TargetName = 'direct' | 'nginx' | 'siteAdmin';

export interface PeerFigures {
  /** nginx's version, or why the peer did not run. */
  nginx: { version: string } | { missing: string };
  rounds: number;
  durationS: number;
  /** Median over the rounds of each figure. */
  direct: LoadFigures;
  viaNginx?: LoadFigures;
  viaSiteAdmin: LoadFigures;
  /** Requests/s of each target in each round, in the order they ran. */
  perRound: { order: TargetName[]; requestsPerSec: Partial<Record<TargetName, number>> }[];
  /** Medians of the per-round ratios of throughput. */
  siteAdminToNginx?: number;
  siteAdminToDirect: number;
  nginxToDirect?: number;
  /**
   * CPU time per lookup (user + system, µs, median over the rounds), from /proc: of the proxy (nginx's
   * master and worker; site-admin's process) and of the sandbox behind it. Unlike throughput, barely moved
   * by other work on a shared machine. Undefined off Linux.
   */
  cpuUsPerLookup?: {
    direct: { sandbox: number };
    nginx?: { proxy: number; sandbox: number };
    siteAdmin: { proxy: number; sandbox: number };
  };
  /** Median p50 over the rounds minus the direct median p50, in ms. */
  nginxAddedP50Ms?: number;
  siteAdminAddedP50Ms: number;
}

function medianFigures(runs: readonly LoadFigures[]): LoadFigures {
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

export async function runPeerBenchmark(distDir: string, log: (line: string) => void, rounds = 3, connections = 50): Promise<PeerFigures> {
  const binary = findNginx();
  const started: RunningProcess[] = [];
  try {
    const sandbox = await startStandaloneSandbox();
    started.push(sandbox);
    const sandboxPort = Number(new URL(sandbox.origin).port);
    const nginx = binary ? await startNginx(binary, sandboxPort, CASE_PATH) : undefined;
    if (nginx) started.push(nginx);
    else log('  nginx is not installed (Debian: apt-get install nginx-light): the peer is left out, the rest runs');
    const server = await startServer(onSandbox(distDir, sandbox));
    started.push(server);

    type Target = { origin: string; headers: RequestData['headers']; proxy?: RunningProcess };
    const targets: Partial<Record<TargetName, Target>> = {
      direct: { origin: sandbox.origin, headers: { ...SANDBOX_AUTH } },
      ...(nginx ? { nginx: { origin: nginx.origin, headers: {}, proxy: nginx } } : {}),
      siteAdmin: { origin: server.origin, headers: {}, proxy: server },
    };
    const names = (Object.keys(targets) as TargetName[]).filter((name) => targets[name]);
    const run = (name: TargetName, seconds: number) => {
      const target = targets[name];
      if (!target) throw new Error(`no target ${name}`);
      return lookupLoad(`${target.origin}${CASE_PATH}`, seconds, target.headers ?? {}, connections);
    };

    // Unmeasured: JIT, SQLite's page cache, every pool's keep-alive connections.
    for (const name of names) await run(name, WARMUP_S);

    const results: Record<TargetName, LoadFigures[]> = { direct: [], nginx: [], siteAdmin: [] };
    const cpu: Record<TargetName, { proxy: number; sandbox: number }[]> = { direct: [], nginx: [], siteAdmin: [] };
    const cpuNow = (name: TargetName) => ({ proxy: targets[name]?.proxy?.cpuMs() ?? Number.NaN, sandbox: sandbox.cpuMs() ?? Number.NaN });
    const perRound: PeerFigures['perRound'] = [];
    for (let r = 0; r < rounds; r += 1) {
      const order = names.map((_, i) => names[(i + r) % names.length] as TargetName);
      const requestsPerSec: Partial<Record<TargetName, number>> = {};
      for (const name of order) {
        const before = cpuNow(name);
        const result = figures(await run(name, PEER_DURATION_S));
        const after = cpuNow(name);
        const perLookup = (ms: number) => round((ms * 1000) / Math.max(result.total, 1), 1);
        cpu[name].push({ proxy: perLookup(after.proxy - before.proxy), sandbox: perLookup(after.sandbox - before.sandbox) });
        results[name].push(result);
        requestsPerSec[name] = result.requestsPerSec;
      }
      log(`  round ${r + 1}/${rounds}: ${order.map((name) => `${name} ${requestsPerSec[name]}/s`).join(', ')}`);
      perRound.push({ order, requestsPerSec });
    }

    const ratioOf = (a: TargetName, b: TargetName) =>
      round(median(perRound.map((p) => (p.requestsPerSec[a] ?? Number.NaN) / (p.requestsPerSec[b] ?? Number.NaN))), 2);
    const direct = medianFigures(results.direct);
    const viaSiteAdmin = medianFigures(results.siteAdmin);
    const viaNginx = nginx ? medianFigures(results.nginx) : undefined;
    const cpuOf = (name: TargetName) => ({
      proxy: median(cpu[name].map((c) => c.proxy)),
      sandbox: median(cpu[name].map((c) => c.sandbox)),
    });
    const cpuUsPerLookup = Number.isFinite(cpuOf('direct').sandbox)
      ? {
          direct: { sandbox: cpuOf('direct').sandbox },
          nginx: nginx ? cpuOf('nginx') : undefined,
          siteAdmin: cpuOf('siteAdmin'),
        }
      : undefined;
    return {
      cpuUsPerLookup,
      nginx: binary ? { version: nginxVersion(binary) } : { missing: 'nginx is not installed' },
      rounds,
      durationS: PEER_DURATION_S,
      direct,
      viaNginx,
      viaSiteAdmin,
      perRound,
      siteAdminToNginx: viaNginx ? ratioOf('siteAdmin', 'nginx') : undefined,
      siteAdminToDirect: ratioOf('siteAdmin', 'direct'),
      nginxToDirect: viaNginx ? ratioOf('nginx', 'direct') : undefined,
      nginxAddedP50Ms: viaNginx ? round(viaNginx.p50Ms - direct.p50Ms, 2) : undefined,
      siteAdminAddedP50Ms: round(viaSiteAdmin.p50Ms - direct.p50Ms, 2),
    };
  } finally {
    for (const process of started.reverse()) await process.stop();
  }
}
