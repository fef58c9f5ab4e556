/**
 * `npm run bench`: builds the app, starts it on a fresh sandbox, measures what users feel (editor at
 * scale, case viewer, bundle, sandbox and proxy under load, start-up), prints one table and writes the
 * figures to bench/results/. Figures are medians over several runs; nothing here passes or fails on a
 * budget, because the machine is shared and noisy.
 *
 *   npm run bench [-- --rounds 5] [-- --only deployed,http]
 *
 * `--only` runs some sections: `deployed` (the headline: site-admin as deployed, signed in with the record
 * on, beside the local demo and nginx in front of the same sandbox, lookups and creates, on SQLite and
 * PostgreSQL; `peer` is its old name), `browser` (bundle, editor, case viewer; needs the build), `bundle`
 * (the bundle alone, part of `browser`), `cases` (the case viewer alone, with its own Control; part of
 * `browser`), `import` (the spreadsheet import in Chromium; needs the build), `http` (the sandbox and the
 * proxy of `npm start` under load), `sessions` (the sign-in page's size; needs the build), `activity` (the
 * Activity list, its check and its export at a million entries, on SQLite and PostgreSQL), `firstvisit` (a
 * first visit on DevTools' Slow 4G: the sign-in page, Sign in → a case, a repeat visit; needs the build); start-up is
 * measured whenever the server is started. `inbox` (the case inbox at 20,000
 * cases: the list's pages of 500 through the server and direct, the navigation's counts against a recording
 * platform, and the inbox screen in Chromium; needs the build). `catalogue` (the Catalogue with 5,000
 * generated products: its first screen of rows from the navigation and from a link, and a search that reads
 * every page; needs the build). `edit` (correcting a 20 × 25 product: answer → editor, Review's diff; needs
 * the build). Without `browser`, `bundle`, `cases`, `import`, `inbox`, `catalogue` or `edit` the server
 * serves a stub page.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, retriedSessions } from './browser';
import { checkBudgets } from './budgets';
import { runActivityBenchmark } from './activity';
import { runBundleBenchmark } from './bundle';
import { runCasesBenchmark } from './cases';
import { runEditBenchmark } from './edit';
import { runEditorBenchmark } from './editor';
import { runFirstVisitBenchmark, waterfallLines } from './first-visit';
import { runHttpBenchmarks } from './http';
import { runImportBenchmark } from './import';
import { runCatalogueBenchmark } from './catalogue';
import { runInboxBenchmark } from './inbox';
import { runDeployedBenchmark } from './deployed';
import { runSignInPageBenchmark } from './sessions';
import { headlineTables, markdownTable, resultRows, writeResults, type BenchResults } from './report';
import { buildApp, installCleanupHooks, killAllChildren, startServer, trackTempDir, type RunningServer } from './server-process';
import { median, round } from './stats';

const STARTS = 3;
const SECTIONS = [
  'deployed',
  'browser',
  'bundle',
  'cases',
  'import',
  'http',
  'sessions',
  'activity',
  'firstvisit',
  'inbox',
  'catalogue',
  'edit',
] as const;
type Section = (typeof SECTIONS)[number];
/** Sections' old names, still taken: the peer comparison is part of the deployed one. */
const OLD_NAMES: Record<string, Section> = { peer: 'deployed' };

/** A dist folder with nothing but an index.html: enough for the server to start when nothing is rendered. */
function stubDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'site-admin-bench-stub-'));
  trackTempDir(dir);
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>bench</title>');
  return dir;
}
const log = (line: string) => console.log(line);

async function measureStartups(distDir: string): Promise<{ runsMs: number[]; server: RunningServer }> {
  const runsMs: number[] = [];
  for (let i = 0; ; i += 1) {
    const server = await startServer({ DIST_DIR: distDir });
    runsMs.push(round(server.startupMs, 0));
    // The last one stays up for the benchmarks.
    if (i === STARTS - 1) return { runsMs, server };
    await server.stop();
  }
}

async function main() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, only: { type: 'string' } } });
  const rounds = Math.max(1, Number(values.rounds) || 5);
  const only = values.only
    ?.split(',')
    .map((name) => OLD_NAMES[name.trim()] ?? name.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !SECTIONS.includes(name as Section)) ?? [];
  if (unknown.length > 0) throw new Error(`--only takes ${SECTIONS.join(', ')}, not ${unknown.join(', ')}`);
  // The case viewer is part of the browser section, and can run alone.
  const runs = (section: Section) => !only || only.includes(section) || (section === 'cases' && only.includes('browser'));
  installCleanupHooks();
  const date = new Date().toISOString();
  const loadAtStart = loadavg().map((value) => round(value, 2));
  const failures: BenchResults['failures'] = [];
  /** Runs one benchmark; a failure is recorded and the others still run (their figures stay useful). */
  const attempt = async <T>(benchmark: string, run: () => Promise<T>): Promise<T | undefined> => {
    log(`${benchmark}…`);
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      log(`  ${benchmark} failed: ${message}`);
      failures.push({ benchmark, error: message });
      return undefined;
    }
  };

  let build: { distDir: string; ms: number } | undefined;
  const inBrowser =
    runs('browser') ||
    runs('bundle') ||
    runs('cases') ||
    runs('import') ||
    runs('sessions') ||
    runs('firstvisit') ||
    runs('inbox') ||
    runs('catalogue') ||
    runs('edit');
  if (inBrowser) {
    log('Building (vite build)…');
    build = await buildApp();
  }
  const distDir = build?.distDir ?? stubDist();
  log(`Start-up, ${STARTS} starts…`);
  const { runsMs, server } = await measureStartups(distDir);

  let bundle, editor, edit, cases, importer, chromium, signInPage, firstVisit;
  if (build && inBrowser) {
    const browser = await launchBrowser();
    chromium = browser.version();
    const { distDir: builtDir } = build;
    try {
      if (runs('browser') || runs('bundle')) {
        bundle = await attempt('Bundle', () => runBundleBenchmark(browser, server.origin, builtDir));
      }
      if (runs('browser')) {
        editor = await attempt(`Editor at scale (${rounds} rounds)`, () => runEditorBenchmark(browser, server.origin, rounds, log));
      }
      if (runs('cases')) {
        cases = await attempt(`Case viewer (${rounds} rounds)`, () =>
          runCasesBenchmark(browser, server.origin, server.sandboxOrigin, rounds, log),
        );
      }
      if (runs('import')) {
        importer = await attempt(`Import from a spreadsheet (${rounds} rounds)`, () =>
          runImportBenchmark(browser, server.origin, rounds, log, builtDir),
        );
      }
      if (runs('sessions')) signInPage = await attempt('The sign-in page', () => runSignInPageBenchmark(browser, builtDir));
      if (runs('edit')) {
        edit = await attempt(`Correcting a 20 × 25 product (${rounds} rounds)`, () =>
          runEditBenchmark(browser, server.origin, rounds, log),
        );
      }
      if (runs('firstvisit')) {
        firstVisit = await attempt(`A first visit on Slow 4G (${Math.min(rounds, 3)} rounds)`, () =>
          runFirstVisitBenchmark(browser, builtDir, Math.min(rounds, 3), log),
        );
      }
    } finally {
      await browser.close();
    }
  }
  // With Chromium closed, so that it takes no CPU from the server or the load generator.
  const http = runs('http') ? await attempt('Sandbox and proxy under load', () => runHttpBenchmarks(server, log)) : undefined;
  await server.stop();
  const deployed = runs('deployed')
    ? await attempt('As deployed: site-admin signed in with the record, the local demo and nginx (3 rounds, interleaved)', () =>
        runDeployedBenchmark(distDir, log),
      )
    : undefined;
  const activity = runs('activity')
    ? await attempt('The activity record at a million entries (SQLite and PostgreSQL)', () => runActivityBenchmark(distDir, log))
    : undefined;
  const inbox = runs('inbox')
    ? await attempt('The case inbox at 20,000 cases', () => runInboxBenchmark(distDir, build !== undefined, rounds, log))
    : undefined;
  const catalogue = runs('catalogue')
    ? await attempt('The Catalogue at 5,000 products', () => runCatalogueBenchmark(distDir, build !== undefined, rounds, log))
    : undefined;

  const cpu = cpus();
  const results: BenchResults = {
    date,
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? 'unknown',
      memoryGB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
      os: `${platform()} ${release()}`,
      chromium: chromium ?? 'not run',
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg().map((value) => round(value, 2)),
    },
    sections: only ?? [...SECTIONS],
    rounds,
    retriedSessions: retriedSessions(),
    buildMs: build ? round(build.ms, 0) : undefined,
    startup: { runsMs, medianMs: median(runsMs) },
    editor,
    edit,
    cases,
    bundle,
    http,
    deployed,
    importer,
    signInPage,
    activity,
    firstVisit,
    inbox,
    catalogue,
    failures,
    budgets: checkBudgets({ editor, cases, bundle, http, deployed }),
  };
  const file = writeResults(results);
  log('');
  if (deployed) {
    log('The headline: as deployed');
    log('');
    log(headlineTables(deployed));
    log('');
  }
  log(markdownTable(resultRows(results)));
  log('');
  if (firstVisit) {
    for (const [title, entries] of [
      ['The sign-in page, the requests it waited on (ms from entering the address)', firstVisit.waterfalls.signIn],
      ['Sign in → the case, the requests it waited on (ms from the click)', firstVisit.waterfalls.toCase],
      ['A repeat visit, the requests it waited on (ms from entering the address)', firstVisit.waterfalls.repeat],
    ] as const) {
      log(`${title}:`);
      for (const line of waterfallLines(entries)) log(`  ${line}`);
    }
    log('');
  }
  log(`Figures written to ${file} and bench/results/latest.json`);
  // Not a verdict on any budget: only a benchmark that could not run makes the command fail.
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  killAllChildren();
  process.exitCode = 1;
});
