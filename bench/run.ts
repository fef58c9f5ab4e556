/**
 * `npm run bench`: builds the app, starts it on a fresh sandbox, measures what users feel (editor at
 * scale, case viewer, bundle, sandbox and proxy under load, start-up), prints one table and writes the
 * figures to bench/results/. Figures are medians over several runs; nothing here passes or fails on a
 * budget, because the machine is shared and noisy.
 *
 *   npm run bench [-- --rounds 5] [-- --only import,cases]
 *
 * `--only` runs some sections (bundle, editor, cases, import, http), e.g. while working on one of them.
 */
import { cpus, totalmem, release, platform } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser, retriedSessions } from './browser';
import { checkBudgets } from './budgets';
import { runBundleBenchmark } from './bundle';
import { runCasesBenchmark } from './cases';
import { runEditorBenchmark } from './editor';
import { runHttpBenchmarks } from './http';
import { runImportBenchmark } from './import';
import { markdownTable, resultRows, writeResults, type BenchResults } from './report';
import { buildApp, installCleanupHooks, killAllChildren, startServer, type RunningServer } from './server-process';
import { median, round } from './stats';

const STARTS = 3;
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
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, only: { type: 'string', default: '' } } });
  const rounds = Math.max(1, Number(values.rounds) || 5);
  const only = new Set(values.only ? values.only.split(',').map((s) => s.trim()) : []);
  const wanted = (section: string) => only.size === 0 || only.has(section);
  installCleanupHooks();
  const date = new Date().toISOString();
  const failures: BenchResults['failures'] = [];
  /** Runs one benchmark; a failure is recorded and the others still run (their figures stay useful). */
  const attempt = async <T>(benchmark: string, run: () => Promise<T>): Promise<T | undefined> => {
    log(`${benchmark}…`);
    try {
      return await run();
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error);
      log(`  ${benchmark} failed: ${message}`);
      failures.push({ benchmark, error: message });
      return undefined;
    }
  };

  log('Building (vite build)…');
  const build = await buildApp();
  log(`Start-up, ${STARTS} starts…`);
  const { runsMs, server } = await measureStartups(build.distDir);

  const browser = await launchBrowser();
  const chromium = browser.version();
  let bundle, editor, cases, importer;
  try {
    if (wanted('bundle')) bundle = await attempt('Bundle', () => runBundleBenchmark(browser, server.origin, build.distDir));
    if (wanted('editor')) editor = await attempt(`Editor at scale (${rounds} rounds)`, () => runEditorBenchmark(browser, server.origin, rounds, log));
    if (wanted('cases')) {
      cases = await attempt(`Case viewer (${rounds} rounds)`, () => runCasesBenchmark(browser, server.origin, server.sandboxOrigin, rounds, log));
    }
    if (wanted('import')) importer = await attempt(`Import from a spreadsheet (${rounds} rounds)`, () => runImportBenchmark(browser, server.origin, rounds, log));
  } finally {
    await browser.close();
  }
  // With Chromium closed, so that it takes no CPU from the server or the load generator.
  const http = wanted('http') ? await attempt('Sandbox and proxy under load', () => runHttpBenchmarks(server, log)) : undefined;
  await server.stop();

  const cpu = cpus();
  const results: BenchResults = {
    date,
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? 'unknown',
      memoryGB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
      os: `${platform()} ${release()}`,
      chromium,
    },
    rounds,
    retriedSessions: retriedSessions(),
    buildMs: round(build.ms, 0),
    startup: { runsMs, medianMs: median(runsMs) },
    editor,
    cases,
    bundle,
    http,
    importer,
    failures,
    budgets: checkBudgets({ editor, bundle, http }),
  };
  const file = writeResults(results);
  log('');
  log(markdownTable(resultRows(results)));
  log('');
  log(`Figures written to ${file} and bench/results/latest.json`);
  // Not a verdict on any budget: only a benchmark that could not run makes the command fail.
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  killAllChildren();
  process.exitCode = 1;
});
