/**
 * How the activity record holds at a million entries; on SQLite, and on PostgreSQL when its programs are
 * installed (a throwaway cluster, as the tests start one). What the record costs a lookup and a create is
 * measured in the deployed comparison (bench/deployed.ts: deployed with the record against without it).
 *
 * A million entries are seeded straight into the database (bench/activity-seed.ts), then the own API's
 * filtered first pages and deep keyset pages are read, many requests each (p50, p95), the chain's check the
 * Activity page asks for, and both exports with the server's resident memory sampled from /proc.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSetting } from '../server/config';
import { DATABASE_FILE } from '../server/config';
import { seedActivity, PEOPLE, type SeedSamples } from './activity-seed';
import { startBenchPostgres } from './postgres';
import { startServer, trackTempDir, type RunningServer } from './server-process';
import { median, percentile, round, sleep } from './stats';

const CASE_PATH = '/api/site/v2/forms/3/cases/48217';
const MILLION = 1_000_000;
/** Requests per query of the list; the first few warm the caches and are not counted. */
const LIST_REQUESTS = 60;
const LIST_WARMUP = 5;

type Engine = DatabaseSetting['engine'];
export interface ListFigures {
  query: string;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  entries: number;
}

export interface ExportFigures {
  format: 'csv' | 'jsonl';
  seconds: number;
  megabytes: number;
  lines: number;
  rssBeforeMB: number;
  rssPeakMB: number;
  rssAfterMB: number;
}

export interface MillionFigures {
  entries: number;
  seedS: number;
  lists: ListFigures[];
  /** GET /api/activity/verify, the first after the server's start (it reads the whole chain). */
  firstCheckMs: number;
  /** Then as the Activity page asks for it, three times, each after one more entry. */
  verifyMs: number[];
  exports: ExportFigures[];
}

export interface ActivityFigures {
  million: Partial<Record<Engine, MillionFigures>>;
  postgresMissing?: string;
}

const envOf = (setting: DatabaseSetting): Record<string, string> =>
  setting.engine === 'postgres' ? { DATABASE_URL: setting.url.href } : { DATA_DIR: join(setting.file, '..') };

function freshSqlite(): DatabaseSetting {
  const dir = mkdtempSync(join(tmpdir(), 'site-admin-bench-activity-'));
  trackTempDir(dir);
  return { engine: 'sqlite', file: join(dir, DATABASE_FILE) };
}

/** The Activity list's queries: a first page and a deep keyset page for each kind of filter. */
function listQueries(samples: SeedSamples): [string, Record<string, string | number>][] {
  const person = PEOPLE[6]?.id ?? '';
  const day = 86_400_000;
  const midYear = samples.start + 200 * day;
  const deep = Math.round(MILLION / 10);
  return [
    ['no filter', {}],
    ['person', { person }],
    ['site', { site: 'outlet' }],
    ['action (creates)', { action: 'product.create' }],
    ['outcome (rejected, 1 %)', { outcome: 'rejected' }],
    ['outcome (failed lookups, 1 %)', { outcome: 'failed' }],
    ['time range (a day, 200 days ago)', { from: midYear, to: midYear + day }],
    ['time range (the last 30 days)', { from: samples.end - 30 * day }],
    ['person + action', { person, action: 'product.create' }],
    ['site + outcome + a week', { site: 'eu', outcome: 'not-found', from: midYear, to: midYear + 7 * day }],
    ['search: slug', { q: samples.slug }],
    ['search: case id', { q: samples.caseId }],
    ['search: name word (common)', { q: samples.commonName }],
    ['search: name words (rare)', { q: samples.rareName }],
    ['search: nothing matches', { q: 'no such product anywhere' }],
    ['deep page, no filter', { before: deep }],
    ['deep page, person', { person, before: deep }],
    ['deep page, action (lookups)', { action: 'case.lookup', before: deep }],
    ['deep page, outcome (rejected)', { outcome: 'rejected', before: deep }],
    ['deep page, name word (common)', { q: samples.commonName, before: deep }],
  ];
}

async function timedGet(url: string): Promise<{ ms: number; body: unknown }> {
  const started = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as unknown;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
}

async function measureExport(server: RunningServer, format: 'csv' | 'jsonl'): Promise<ExportFigures> {
  const mb = (kb: number | undefined) => round((kb ?? Number.NaN) / 1024, 1);
  const rssBefore = server.rssKB();
  let peak = rssBefore ?? 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.rssKB() ?? 0);
  }, 20);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const res = await fetch(`${server.origin}/api/activity/export?format=${format}`);
    if (res.status !== 200 || !res.body) throw new Error(`export as ${format} answered ${res.status}`);
    for await (const chunk of res.body) {
      const data = chunk as Uint8Array;
      bytes += data.byteLength;
      for (const byte of data) if (byte === 10) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = round((performance.now() - started) / 1000, 1);
  // A moment for the server to let go of what the export held.
  await sleep(500);
  return {
    format,
    seconds,
    megabytes: round(bytes / 2 ** 20, 1),
    lines,
    rssBeforeMB: mb(rssBefore),
    rssPeakMB: mb(peak),
    rssAfterMB: mb(server.rssKB()),
  };
}

async function runMillion(distDir: string, setting: DatabaseSetting, log: (line: string) => void): Promise<MillionFigures> {
  log(`  seeding ${MILLION.toLocaleString('en')} entries on ${setting.engine}…`);
  const seeded = await seedActivity(setting, { count: MILLION, end: Date.now() });
  log(`  seeded in ${round(seeded.ms / 1000, 1)} s`);
  const server = await startServer({ DIST_DIR: distDir, ...envOf(setting) });
  try {
    // The Activity page's first check after a start reads the whole chain (and waits for the one the start began).
    const firstCheck = await timedGet(`${server.origin}/api/activity/verify`);
    if (!(firstCheck.body as { ok: boolean }).ok) throw new Error(`the seeded chain does not verify: ${JSON.stringify(firstCheck.body)}`);
    log(`    the first check after the start: ${round(firstCheck.ms, 0)} ms`);
    const lists: ListFigures[] = [];
    for (const [query, params] of listQueries(seeded.samples)) {
      const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
      const url = `${server.origin}/api/activity?${search}`;
      const times: number[] = [];
      let entries = 0;
      for (let i = 0; i < LIST_REQUESTS; i += 1) {
        const { ms, body } = await timedGet(url);
        if (i >= LIST_WARMUP) times.push(ms);
        entries = (body as { entries: unknown[] }).entries.length;
      }
      const row = {
        query,
        p50Ms: round(median(times), 1),
        p95Ms: round(percentile(times, 95), 1),
        maxMs: round(Math.max(...times), 1),
        entries,
      };
      lists.push(row);
      log(`    ${query}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms (${entries} entries)`);
    }
    const verifyMs: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { ms, body } = await timedGet(`${server.origin}/api/activity/verify`);
      if (!(body as { ok: boolean }).ok) throw new Error(`the seeded chain does not verify: ${JSON.stringify(body)}`);
      verifyMs.push(round(ms, 0));
      // One more entry (a lookup through the proxy on the in-process sandbox), so the second check has news.
      await fetch(`${server.origin}${CASE_PATH}`).then((res) => res.arrayBuffer());
    }
    log(`    verify: ${verifyMs.join(' ms, ')} ms`);
    const exports: ExportFigures[] = [];
    for (const format of ['csv', 'jsonl'] as const) {
      const figures = await measureExport(server, format);
      exports.push(figures);
      log(
        `    export ${format}: ${figures.seconds} s, ${figures.megabytes} MB, ${figures.lines} lines; RSS ${figures.rssBeforeMB} → peak ${figures.rssPeakMB} → ${figures.rssAfterMB} MB`,
      );
    }
    return { entries: MILLION, seedS: round(seeded.ms / 1000, 1), firstCheckMs: round(firstCheck.ms, 0), lists, verifyMs, exports };
  } finally {
    await server.stop();
  }
}

export async function runActivityBenchmark(distDir: string, log: (line: string) => void): Promise<ActivityFigures> {
  const postgres = await startBenchPostgres();
  try {
    const engines: { engine: Engine; fresh: () => Promise<DatabaseSetting> }[] = [
      { engine: 'sqlite', fresh: () => Promise.resolve(freshSqlite()) },
    ];
    if (typeof postgres === 'string') log(`  PostgreSQL left out: ${postgres}`);
    else engines.push({ engine: 'postgres', fresh: () => postgres.fresh() });
    const million: ActivityFigures['million'] = {};
    for (const { engine, fresh } of engines) million[engine] = await runMillion(distDir, await fresh(), log);
    return { million, postgresMissing: typeof postgres === 'string' ? postgres : undefined };
  } finally {
    if (typeof postgres !== 'string') await postgres.stop();
  }
}
