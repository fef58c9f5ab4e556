/**
 * What signing in costs. The server's CPU time per proxied case lookup with a session checked on every
 * request (the session read from the database, its person's grants, the permission step), against the same
 * lookup in the local demo (loopback, nobody in the database: no session to read), the closest there is to
 * the path without any sign-in; on SQLite, and on PostgreSQL when its programs are installed (a throwaway
 * cluster, as the tests start one). Each server proxies to one standalone sandbox, so the CPU counted is the
 * proxy's alone; the targets take turns, round by round. And what the sign-in page downloads: its JS and CSS,
 * and what the first page after signing in adds, as Chromium fetched them.
 */
import type { Browser, Page } from '@playwright/test';
import { newBenchContext } from './browser';
import { assetSet, type AssetSet } from './bundle';
import { lookupLoad, figures, type LoadFigures } from './http';
import { onSandbox, startServer, startStandaloneSandbox, type RunningProcess, type RunningServer } from './server-process';
import { median, round } from './stats';

const CASE_PATH = '/api/site/v2/forms/3/cases/48217';
const DURATION_S = 8;
const WARMUP_S = 2;
const CONNECTIONS = 50;
const ADMIN = { user: 'bench@example.com', password: 'the sessions section signs in with this passphrase' };

type TargetName = 'demoSqlite' | 'sessionSqlite' | 'demoPostgres' | 'sessionPostgres';

export interface SessionFigures {
  rounds: number;
  durationS: number;
  /** The server's CPU time (user + system) per lookup, µs, median over the rounds. */
  cpuUsPerLookup: Partial<Record<TargetName, number>>;
  load: Partial<Record<TargetName, LoadFigures>>;
  /**
   * CPU per lookup with a session / in the local demo, same engine (goal ≤ 1.10): the median of the rounds'
   * ratios, each of a pair run back to back (so not quite the ratio of the two medians above).
   */
  sessionToDemoSqlite: number;
  sessionToDemoPostgres?: number;
  /** Why PostgreSQL was left out, when it was. */
  postgresMissing?: string;
  signInPage?: { page: AssetSet; firstPageAfter: AssetSet };
}

async function signInCookie(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/sign-in/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: ADMIN.user, password: ADMIN.password }),
  });
  if (res.status !== 200) throw new Error(`Signing in for the bench answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('site_admin_session='));
  if (!cookie) throw new Error('Signing in for the bench set no session cookie.');
  return cookie.split(';')[0] ?? '';
}

/** A throwaway PostgreSQL cluster, when its programs are installed (the tests' helper). */
async function postgresDatabases(): Promise<{ urls: () => Promise<string>; stop: () => Promise<void> } | string> {
  const helpers = await import('../server/testing/postgres');
  if (!helpers.POSTGRES_BIN) return 'PostgreSQL is not installed (apt-get install postgresql)';
  const cluster = await helpers.startPostgres();
  return {
    urls: async () => {
      const setting = await cluster.freshDatabase();
      return setting.engine === 'postgres' ? setting.url.href : '';
    },
    stop: () => cluster.stop(),
  };
}

export async function runSessionsBenchmark(distDir: string, log: (line: string) => void, rounds = 3): Promise<SessionFigures> {
  const started: RunningProcess[] = [];
  let postgres: Awaited<ReturnType<typeof postgresDatabases>> | undefined;
  try {
    const sandbox = await startStandaloneSandbox();
    started.push(sandbox);
    const upstream = onSandbox(distDir, sandbox);
    const signedIn = { ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password };
    const targets: Partial<Record<TargetName, { server: RunningServer; headers: Record<string, string> }>> = {};
    const add = async (name: TargetName, env: Record<string, string>, session: boolean) => {
      const server = await startServer({ ...upstream, ...env, ...(session ? signedIn : {}) });
      started.push(server);
      targets[name] = { server, headers: session ? { cookie: await signInCookie(server.origin) } : {} };
    };
    await add('demoSqlite', {}, false);
    await add('sessionSqlite', {}, true);
    postgres = await postgresDatabases().catch((error: unknown) => `a throwaway cluster could not start: ${(error as Error).message}`);
    if (typeof postgres === 'string') {
      log(`  PostgreSQL left out: ${postgres}`);
    } else {
      await add('demoPostgres', { DATABASE_URL: await postgres.urls() }, false);
      await add('sessionPostgres', { DATABASE_URL: await postgres.urls() }, true);
    }
    const names = (Object.keys(targets) as TargetName[]).filter((name) => targets[name]);
    const run = (name: TargetName, seconds: number) => {
      const target = targets[name];
      if (!target) throw new Error(`no target ${name}`);
      return lookupLoad(`${target.server.origin}${CASE_PATH}`, seconds, target.headers, CONNECTIONS);
    };
    for (const name of names) {
      const check = figures(await run(name, WARMUP_S));
      if (check.non2xx > 0 || check.errors > 0) throw new Error(`${name}: ${check.non2xx} answers not 2xx, ${check.errors} errors`);
    }

    const cpu: Partial<Record<TargetName, number[]>> = {};
    const loads: Partial<Record<TargetName, LoadFigures[]>> = {};
    // Each engine's two targets run back to back (which goes first alternating), the engines taking turns:
    // the load of the machine, which other work shares, moves less within a pair than across a round.
    const pairs = (
      [
        ['demoSqlite', 'sessionSqlite'],
        ['demoPostgres', 'sessionPostgres'],
      ] as const
    ).filter(([demo, session]) => targets[demo] && targets[session]);
    for (let r = 0; r < rounds; r += 1) {
      const order: TargetName[] = [...pairs.slice(r % pairs.length), ...pairs.slice(0, r % pairs.length)].flatMap((pair) =>
        r % 2 === 0 ? [...pair] : [...pair].reverse(),
      );
      for (const name of order) {
        const server = targets[name]?.server;
        const before = server?.cpuMs() ?? Number.NaN;
        const result = figures(await run(name, DURATION_S));
        const after = server?.cpuMs() ?? Number.NaN;
        (cpu[name] ??= []).push(round(((after - before) * 1000) / Math.max(result.total, 1), 1));
        (loads[name] ??= []).push(result);
      }
      const pairRatio = ([demo, session]: readonly [TargetName, TargetName]) =>
        `${session}/${demo} ×${round((cpu[session]?.at(-1) ?? Number.NaN) / (cpu[demo]?.at(-1) ?? Number.NaN), 3)}`;
      log(
        `  round ${r + 1}/${rounds}: ${order.map((name) => `${name} ${cpu[name]?.at(-1) ?? '?'} µs`).join(', ')}; ${pairs.map(pairRatio).join(', ')}`,
      );
    }
    const cpuUsPerLookup = Object.fromEntries(names.map((name) => [name, median(cpu[name] ?? [])])) as SessionFigures['cpuUsPerLookup'];
    const load = Object.fromEntries(
      names.map((name) => {
        const all = loads[name] ?? [];
        const middle = [...all].sort((a, b) => a.requestsPerSec - b.requestsPerSec)[Math.floor(all.length / 2)];
        return [name, middle];
      }),
    ) as SessionFigures['load'];
    /** The median over the rounds of each round's ratio (the pair ran back to back). */
    const ratio = (session: TargetName, demo: TargetName) => {
      const a = cpu[session];
      const b = cpu[demo];
      if (!a || !b) return undefined;
      return round(median(a.map((value, r) => value / (b[r] ?? Number.NaN))), 3);
    };
    return {
      rounds,
      durationS: DURATION_S,
      cpuUsPerLookup,
      load,
      sessionToDemoSqlite: ratio('sessionSqlite', 'demoSqlite') ?? Number.NaN,
      sessionToDemoPostgres: ratio('sessionPostgres', 'demoPostgres'),
      postgresMissing: typeof postgres === 'string' ? postgres : undefined,
    };
  } finally {
    for (const process of started.reverse()) await process.stop();
    if (postgres && typeof postgres !== 'string') await postgres.stop();
  }
}

/** Collects the /assets/ files the page fetches from now on. */
function recordAssets(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/assets/')) seen.add(path.slice(1));
  });
  return seen;
}

/** The sign-in page's downloads on a server where someone must sign in, then what the first page adds. */
export async function runSignInPageBenchmark(browser: Browser, distDir: string): Promise<SessionFigures['signInPage']> {
  const server = await startServer({ DIST_DIR: distDir, ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password });
  try {
    const context = await newBenchContext(browser, server.origin);
    try {
      const page = await context.newPage();
      const fetched = recordAssets(page);
      await page.goto('/cases', { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      const signIn = new Set(fetched);
      await page.getByRole('textbox', { name: 'E-mail address' }).fill(ADMIN.user);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
      await page.waitForLoadState('networkidle');
      const after = [...fetched].filter((file) => !signIn.has(file));
      return { page: assetSet(distDir, signIn), firstPageAfter: assetSet(distDir, after) };
    } finally {
      await context.close();
    }
  } finally {
    await server.stop();
  }
}
