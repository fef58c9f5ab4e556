/**
 * The case inbox at size (`--only inbox`): a sandbox form of 20,000 cases, seeded by the bench into its own
 * sandbox's data folder (`POST /__sandbox/cases/generate`), never at a normal start.
 *
 * (a) The list's answer for pages of 500: the first, a middle and the last page, newest first, and with a
 *     `contains` filter, through the whole server (signed in, the record on, as deployed) against the
 *     sandbox direct, interleaved round by round; p50 / p95 of each and the CPU per request (user + system
 *     from /proc) of the server's process and of the sandbox's.
 * (b) The navigation's counts: people asking for their counts every few seconds, with the platform a
 *     recording stand-in, and how many list requests it receives per site and form in each poll interval
 *     (the goal: one, however many people ask).
 * (c) In Chromium, the inbox screen on the 20,000-case form: a page of 500 on screen after its answer,
 *     the longest main-thread task, and the frame rate while its rows scroll (bench/inbox-screen.ts).
 *
 * Nothing here passes or fails on a budget: a figure that could not be taken says why instead.
 */
import http from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingPlatform, type RecordingPlatform } from '../server/testing/recording-platform';
import { inboxCountsPath, INBOX_POLL_MS, readInboxCounts } from '../src/contract/inbox-counts';
import { PATHS } from '../src/lib/paths';
import { runInboxScreenBenchmark, type InboxScreenFigures } from './inbox-screen';
import { signInCookie, SIGNED_IN } from './sessions';
import {
  onSandbox,
  SANDBOX_AUTH,
  startServer,
  startStandaloneSandbox,
  trackTempDir,
  type RunningProcess,
  type RunningServer,
} from './server-process';
import { percentile, round, sleep } from './stats';

/** The bench's form and its size: the 20,000 cases, 40 pages of 500. */
export const INBOX_FORM = '90';
export const INBOX_CASES = 20_000;
export const PER_PAGE = 500;
const ROUNDS = 3;
/** Requests of each kind, per target and round (the first WARMUP of the first round are not counted). */
const PER_ROUND = 40;
const WARMUP = 5;

const LIST_PATH = `/api/site/v2/forms/${INBOX_FORM}/cases`;
const CONTAINS = { email: { contains: 'example.org' } };
/** The kinds of page asked for, each as its query string. */
export const LIST_KINDS = [
  { kind: 'first page', query: `per_page=${PER_PAGE}&page=1` },
  { kind: 'middle page (20 of 40)', query: `per_page=${PER_PAGE}&page=20` },
  { kind: 'last page (40 of 40)', query: `per_page=${PER_PAGE}&page=40` },
  { kind: 'newest first', query: `per_page=${PER_PAGE}&page=1&sort_type=created_at&sort_order=desc` },
  {
    kind: '"contains" filter on e-mail (about a third match)',
    query: `per_page=${PER_PAGE}&page=1&filter=${encodeURIComponent(JSON.stringify(CONTAINS))}`,
  },
] as const;

export interface ListTiming {
  p50Ms: number;
  p95Ms: number;
  /** CPU µs per request over every round: the server's (none for the sandbox direct) and the sandbox's. */
  cpuUs: { server?: number; sandbox: number };
}

export interface ListKindFigures {
  kind: string;
  query: string;
  /** The answer's size (the sandbox's own text, the same through the server). */
  bytes: number;
  requests: number;
  direct: ListTiming;
  server: ListTiming;
  /** Server p50 / direct p50. */
  p50Ratio: number;
}

export type CountsFigures =
  | {
      people: number;
      askEveryMs: number;
      intervalMs: number;
      seconds: number;
      /** Counts answered 200 / asked. */
      countsAnswered: number;
      countsAsked: number;
      /**
       * List requests the platform received per site and form while people asked: how many, that per poll
       * interval, and the shortest time between two of them (at least the interval when the reading is shared).
       */
      perSiteForm: { site: string; form: string; requests: number; perInterval: number; shortestGapMs: number | null }[];
      /** Requests the platform received that were not a list. */
      otherRequests: number;
    }
  | { notMeasured: string };

export interface InboxFigures {
  cases: number;
  seedMs: number;
  perPage: number;
  rounds: number;
  lists: ListKindFigures[];
  counts: CountsFigures;
  screen: InboxScreenFigures | { notMeasured: string };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive connection: its status, size and time to the last byte. */
function timedGet(url: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, bytes: body.length, ms: performance.now() - started, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Seeds the form on the sandbox at `origin`; answers the ms it took. */
export async function seedInboxForm(origin: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${origin}/__sandbox/cases/generate`, {
    method: 'POST',
    headers: { ...SANDBOX_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ form: INBOX_FORM, count: INBOX_CASES }),
  });
  if (res.status !== 200) throw new Error(`Seeding ${INBOX_CASES} cases answered ${res.status}: ${await res.text()}`);
  return performance.now() - started;
}

interface Target {
  name: 'direct' | 'server';
  origin: string;
  path: string;
  headers: Record<string, string>;
  process?: RunningProcess;
}

async function measureLists(sandbox: RunningProcess, server: RunningServer, cookie: string, log: (line: string) => void) {
  const targets: Target[] = [
    { name: 'direct', origin: sandbox.origin, path: `/api/site/v2/forms/${INBOX_FORM}/cases`, headers: { ...SANDBOX_AUTH } },
    { name: 'server', origin: server.origin, path: LIST_PATH, headers: { cookie }, process: server },
  ];
  const times = new Map<string, number[]>();
  const cpu = new Map<string, { server: number; sandbox: number }[]>();
  const bytes = new Map<string, number>();
  for (let r = 0; r < ROUNDS; r += 1) {
    // The order turns each round, so a change in the machine's load falls on both alike.
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    for (const { kind, query } of LIST_KINDS) {
      for (const target of order) {
        const url = `${target.origin}${target.path}?${query}`;
        if (r === 0) for (let i = 0; i < WARMUP; i += 1) await timedGet(url, target.headers);
        const before = { server: target.process?.cpuMs() ?? Number.NaN, sandbox: sandbox.cpuMs() ?? Number.NaN };
        const key = `${target.name}/${kind}`;
        for (let i = 0; i < PER_ROUND; i += 1) {
          const answer = await timedGet(url, target.headers);
          if (answer.status !== 200) throw new Error(`${target.name}, ${kind}: answered ${answer.status}: ${answer.text.slice(0, 300)}`);
          times.set(key, [...(times.get(key) ?? []), answer.ms]);
          if (target.name === 'direct') bytes.set(kind, answer.bytes);
        }
        const after = { server: target.process?.cpuMs() ?? Number.NaN, sandbox: sandbox.cpuMs() ?? Number.NaN };
        cpu.set(key, [...(cpu.get(key) ?? []), { server: after.server - before.server, sandbox: after.sandbox - before.sandbox }]);
      }
    }
    log(`  lists, round ${r + 1}/${ROUNDS}`);
  }
  return LIST_KINDS.map(({ kind, query }): ListKindFigures => {
    const timing = (name: Target['name']): ListTiming => {
      const all = times.get(`${name}/${kind}`) ?? [];
      const cpus = cpu.get(`${name}/${kind}`) ?? [];
      // The CPU of every round together over every request: /proc counts in 10 ms ticks, too coarse for one round.
      const perRequest = (ms: number) => round((ms * 1000) / Math.max(all.length, 1), 0);
      const sum = (part: 'server' | 'sandbox') => cpus.reduce((total, c) => total + c[part], 0);
      return {
        p50Ms: round(percentile(all, 50)),
        p95Ms: round(percentile(all, 95)),
        cpuUs: { ...(name === 'server' ? { server: perRequest(sum('server')) } : {}), sandbox: perRequest(sum('sandbox')) },
      };
    };
    const direct = timing('direct');
    const server = timing('server');
    return {
      kind,
      query,
      bytes: bytes.get(kind) ?? 0,
      requests: ROUNDS * PER_ROUND,
      direct,
      server,
      p50Ratio: round(server.p50Ms / direct.p50Ms, 2),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// (b) The navigation's counts

/** Sites and forms of the counts' profile: two sites of two forms each, all on the recording stand-in. */
const COUNT_SITES = [
  { id: 'north', siteId: '501', forms: ['21', '22'] },
  { id: 'south', siteId: '502', forms: ['31', '32'] },
] as const;
const COUNT_PEOPLE = 20;
const ASK_EVERY_MS = 5_000;
/** Poll intervals measured, and a little more for the first reading. */
const COUNT_INTERVALS = 3;

/** A request for a list of a form's cases, its form captured. */
const LIST_REQUEST = /\/forms\/([^/?]+)\/cases(\?|$)/;

/** Page one of the default envelope with a few new cases, for the page and size asked (as the platform answers). */
function listAnswer(url: string, form: string): string {
  const query = new URLSearchParams(url.slice(url.indexOf('?') + 1));
  const perPage = Number(query.get('per_page') ?? 20);
  const page = Number(query.get('page') ?? 1);
  const now = Date.now();
  const cases = Array.from({ length: 3 }, (_, i) => ({
    id: String(1000 + i),
    name: `form_${form}`,
    created_at: Math.floor((now - i * 60_000) / 1000),
    properties: { email: `person${i}@example.com` },
  }));
  const shown = page === 1 ? cases : [];
  return JSON.stringify({ results: shown, total_entries: cases.length, total_pages: 1, current_page: page, per_page: perPage });
}

async function measureCounts(distDir: string, log: (line: string) => void): Promise<CountsFigures> {
  const started = performance.now();
  const arrivals: { at: number; site: string; url: string }[] = [];
  // The stand-in answers each request once it has arrived whole: its time is taken then.
  const platform: RecordingPlatform = await recordingPlatform((request) => {
    arrivals.push({ at: performance.now(), site: String(request.headers['x-site-id'] ?? ''), url: request.url });
    const match = LIST_REQUEST.exec(request.url);
    return match
      ? { status: 200, body: listAnswer(request.url, match[1] ?? '') }
      : { status: 404, body: '{"error":"Not Found","message":"Not found","code":404}' };
  });
  const dir = mkdtempSync(join(tmpdir(), 'site-admin-bench-inbox-profile-'));
  trackTempDir(dir);
  const profile = join(dir, 'site-profile.json');
  writeFileSync(
    profile,
    JSON.stringify({
      sites: COUNT_SITES.map((site) => ({
        id: site.id,
        name: `Bench ${site.id}`,
        platform: { baseUrl: `http://127.0.0.1:${platform.port}/api/site/v2`, siteId: site.siteId, apiKeyEnv: 'BENCH_INBOX_KEY' },
        forms: Object.fromEntries(site.forms.map((form) => [form, { name: `Form ${form}` }])),
      })),
    }),
  );
  let server: RunningServer | undefined;
  try {
    server = await startServer({ DIST_DIR: distDir, SITE_PROFILE: profile, BENCH_INBOX_KEY: 'bench-inbox-key', ...SIGNED_IN });
    const origin = server.origin;
    // One session per person asking (the same owner signed in again: what is polled does not depend on who asks).
    const cookies: string[] = [];
    for (let i = 0; i < COUNT_PEOPLE; i += 1) cookies.push(await signInCookie(origin));
    const probe = await timedGet(`${origin}${inboxCountsPath(COUNT_SITES[0].id)}`, { cookie: cookies[0] ?? '' });
    if (probe.status !== 200) {
      return {
        notMeasured: `GET ${inboxCountsPath(COUNT_SITES[0].id)} answered ${probe.status}: this build has no counts endpoint to measure`,
      };
    }
    // The server says how often it reads (its INBOX_POLL_SECONDS) where it can; the contract's default otherwise.
    const said = readInboxCounts(JSON.parse(probe.text) as unknown) as { pollMs?: number } | undefined;
    const intervalMs = said?.pollMs ?? INBOX_POLL_MS;
    const seconds = Math.round((COUNT_INTERVALS * intervalMs + 5_000) / 1000);
    arrivals.length = 0;
    const t0 = performance.now();
    let asked = 0;
    let answered = 0;
    const person = async (index: number) => {
      // Spread over the interval, as people open the console at different moments.
      await sleep((index * ASK_EVERY_MS) / COUNT_PEOPLE);
      const askAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (performance.now() - t0 < seconds * 1000) {
        for (const site of COUNT_SITES) {
          asked += 1;
          const status = await new Promise<number>((resolve) => {
            const req = http.get(
              `${origin}${inboxCountsPath(site.id)}`,
              { agent: askAgent, headers: { cookie: cookies[index] ?? '' } },
              (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              },
            );
            req.on('error', () => resolve(0));
          });
          if (status === 200) answered += 1;
        }
        await sleep(ASK_EVERY_MS);
      }
      askAgent.destroy();
    };
    await Promise.all(Array.from({ length: COUNT_PEOPLE }, (_, i) => person(i)));
    const measuredMs = performance.now() - t0;
    const perSiteForm = COUNT_SITES.flatMap((site) =>
      site.forms.map((form) => {
        const times = arrivals.filter((a) => a.site === site.siteId && a.url.includes(`/forms/${form}/cases`)).map((a) => a.at);
        const gaps = times.slice(1).map((at, i) => at - (times[i] ?? at));
        return {
          site: site.id,
          form,
          requests: times.length,
          perInterval: round(times.length / (measuredMs / intervalMs), 2),
          shortestGapMs: gaps.length > 0 ? round(Math.min(...gaps), 0) : null,
        };
      }),
    );
    log(`  counts: ${COUNT_PEOPLE} people for ${seconds} s, ${round((performance.now() - started) / 1000, 0)} s in all`);
    return {
      people: COUNT_PEOPLE,
      askEveryMs: ASK_EVERY_MS,
      intervalMs,
      seconds,
      countsAnswered: answered,
      countsAsked: asked,
      perSiteForm,
      otherRequests: arrivals.filter((a) => !LIST_REQUEST.test(a.url)).length,
    };
  } finally {
    await server?.stop();
    await platform.close();
  }
}

/**
 * `withBrowser`: whether the app was built (the screen's figures need it); without it they say so.
 */
export async function runInboxBenchmark(
  distDir: string,
  withBrowser: boolean,
  rounds: number,
  log: (line: string) => void,
): Promise<InboxFigures> {
  const sandbox = await startStandaloneSandbox();
  let server: RunningServer | undefined;
  try {
    const seedMs = await seedInboxForm(sandbox.origin);
    log(`  ${INBOX_CASES.toLocaleString('en')} cases seeded in form ${INBOX_FORM} in ${round(seedMs, 0)} ms`);
    server = await startServer({ ...onSandbox(distDir, sandbox), ...SIGNED_IN });
    const cookie = await signInCookie(server.origin);
    const lists = await measureLists(sandbox, server, cookie, log);
    await server.stop();
    server = undefined;
    const counts = await measureCounts(distDir, log);
    const screen = !withBrowser
      ? { notMeasured: 'the app was not built in this run' }
      : !('inbox' in PATHS)
        ? { notMeasured: 'this build has no inbox page (no "inbox" among the paths of src/lib/paths.ts)' }
        : await runInboxScreenBenchmark(distDir, sandbox, INBOX_FORM, rounds, log);
    return { cases: INBOX_CASES, seedMs: round(seedMs, 0), perPage: PER_PAGE, rounds: ROUNDS, lists, counts, screen };
  } finally {
    await server?.stop();
    await sandbox.stop();
    agent.destroy();
  }
}
