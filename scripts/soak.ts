/**
 * `npm run soak`: a longer run of mixed case lookups and product creates through the proxy to the sandbox,
 * with the whole server in this process on a fresh temporary sandbox database. Samples memory every few
 * seconds, then prints the samples and a summary; exits 1 if any request failed, timed out or was answered
 * other than 2xx, or if a create answered 200 is not in the database. Not part of `npm test`.
 *
 *   SOAK_SECONDS=180          how long to run (default 3 minutes)
 *   SOAK_CONNECTIONS=8        concurrent connections
 *   SOAK_SAMPLE_SECONDS=5     how often to sample memory
 *
 * The process holds the load generator too, so its memory is in the figures; "heap after GC" is measured
 * after a forced full collection at each sample, which is what to watch for growth.
 */
import { rmSync } from 'node:fs';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSiteAdminServer, type SiteAdminServer } from '../server/app';
import { loadConfig } from '../server/config';
import { seedCases } from '../server/sandbox/seed';
import {
  closeServer,
  listen,
  runAutocannon,
  tempDir,
  type AutocannonInstance,
  type AutocannonResult,
} from '../server/testing/test-helpers';
import { API_BASE_PATH } from '../src/contract/site-api';

function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(`${name} must be a whole number from ${min} to ${max}, not "${raw}".`);
    process.exit(2);
  }
  return value;
}

const SECONDS = setting('SOAK_SECONDS', 180, 5, 24 * 3600);
const CONNECTIONS = setting('SOAK_CONNECTIONS', 8, 1, 200);
const SAMPLE_SECONDS = setting('SOAK_SAMPLE_SECONDS', 5, 1, 600);

// A forced full collection before each heap reading, so growth is live data, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const MB = 1024 * 1024;

interface Sample {
  seconds: number;
  requests: number;
  /** Requests per second since the previous sample. */
  rate: number;
  non2xx: number;
  errors: number;
  rssMb: number;
  heapMb: number;
  heapAfterGcMb: number;
}

/** Starts the server on a throwaway sandbox, soaks it, and always stops it and deletes the data. */
async function main() {
  const dataDir = tempDir('site-admin-soak-');
  let site: SiteAdminServer | undefined;
  let server: http.Server | undefined;
  try {
    // An explicit environment: the soak always runs on a throwaway sandbox, whatever the shell has set.
    const running = await createSiteAdminServer(loadConfig({ SANDBOX_DATA_DIR: dataDir, LOG_REQUESTS: 'false' }));
    site = running;
    server = http.createServer((req, res) => running.handle(req, res));
    const port = await listen(server);
    return await soak(running, port, dataDir);
  } finally {
    await closeServer(server);
    await site?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Report {
  result: AutocannonResult;
  samples: Sample[];
  createsOk: number;
  stored: number;
  integrity: string;
}

async function soak(site: SiteAdminServer, port: number, dataDir: string): Promise<Report> {
  const origin = `http://127.0.0.1:${port}`;
  const store = site.sandbox!.store;
  const productsBefore = store.countProducts();

  const seeded = seedCases();
  const lookups = ['3', '7', '12'].map((form) => seeded.find((c) => c.form === form)!);
  let createSerial = 0;
  let createsOk = 0;
  const runId = Date.now().toString(36);

  console.log(
    `Soak: ${SECONDS} s, ${CONNECTIONS} connections, 3 case lookups to 1 create, through the proxy to the sandbox at ${origin} (data in ${dataDir})`,
  );

  const tally = { requests: 0, non2xx: 0, errors: 0 };
  const samples: Sample[] = [];
  const started = performance.now();
  let previous = started;
  const sample = () => {
    const now = performance.now();
    const raw = process.memoryUsage();
    collectGarbage();
    const afterGc = process.memoryUsage();
    const entry: Sample = {
      seconds: Math.round((now - started) / 1000),
      requests: tally.requests,
      rate: now > previous ? (tally.requests * 1000) / (now - previous) : 0,
      non2xx: tally.non2xx,
      errors: tally.errors,
      rssMb: raw.rss / MB,
      heapMb: raw.heapUsed / MB,
      heapAfterGcMb: afterGc.heapUsed / MB,
    };
    samples.push(entry);
    previous = now;
    tally.requests = 0;
    tally.non2xx = 0;
    tally.errors = 0;
    console.log(
      `  ${String(entry.seconds).padStart(5)} s  ${String(Math.round(entry.rate)).padStart(6)} req/s  ` +
        `non-2xx ${entry.non2xx}  errors ${entry.errors}  rss ${entry.rssMb.toFixed(1)} MB  heap ${entry.heapMb.toFixed(1)} MB  ` +
        `after GC ${entry.heapAfterGcMb.toFixed(1)} MB`,
    );
  };

  let instance: AutocannonInstance | undefined;
  const interrupt = () => instance?.stop();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  sample();
  const timer = setInterval(sample, SAMPLE_SECONDS * 1000);

  let result: AutocannonResult;
  try {
    result = await runAutocannon(
      {
        url: origin,
        connections: CONNECTIONS,
        duration: SECONDS,
        timeout: 30,
        requests: [
          ...lookups.map((c) => ({ method: 'GET', path: `${API_BASE_PATH}/forms/${c.form}/cases/${c.id}` })),
          {
            method: 'POST',
            path: `${API_BASE_PATH}/ecommerce/products/create`,
            headers: { 'content-type': 'application/json', origin },
            setupRequest: (request) => {
              createSerial += 1;
              const slug = `soak-${runId}-${createSerial}`;
              return {
                ...request,
                body: JSON.stringify({
                  name: `Soak ${createSerial}`,
                  slug,
                  enabled: 'true',
                  'module_field_14/product/price/usd/1': '1999',
                }),
              };
            },
            onResponse: (status) => {
              if (status === 200) createsOk += 1;
            },
          },
        ],
      },
      (started) => {
        instance = started;
        started.on('response', (_client: unknown, status: number) => {
          tally.requests += 1;
          if (status < 200 || status > 299) tally.non2xx += 1;
        });
        started.on('reqError', () => (tally.errors += 1));
      },
    );
  } finally {
    clearInterval(timer);
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
  }
  sample();
  return { result, samples, createsOk, stored: store.countProducts() - productsBefore, integrity: store.integrityCheck() };
}

function print({ result, samples, createsOk, stored, integrity }: Report): boolean {
  // Heap from the first minute (or the first third of a shorter run, after warm-up) to the end.
  const baselineAt = Math.min(60, SECONDS / 3);
  const baseline = samples.find((s) => s.seconds >= baselineAt) ?? samples[0]!;
  const last = samples[samples.length - 1]!;
  const growthMb = last.heapAfterGcMb - baseline.heapAfterGcMb;
  const growthPct = (growthMb / baseline.heapAfterGcMb) * 100;
  const total = result.requests.total;
  const lost = Math.max(0, createsOk - stored);

  console.log('\nSamples');
  console.log('| t (s) | req/s | non-2xx | errors | rss (MB) | heap used (MB) | heap after GC (MB) |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of samples) {
    console.log(
      `| ${s.seconds} | ${Math.round(s.rate)} | ${s.non2xx} | ${s.errors} | ${s.rssMb.toFixed(1)} | ${s.heapMb.toFixed(1)} | ${s.heapAfterGcMb.toFixed(1)} |`,
    );
  }
  console.log('\nSummary');
  console.log(`  duration            ${result.duration} s`);
  console.log(`  requests            ${total} (${result.requests.sent} sent), ${(total / result.duration).toFixed(0)} req/s`);
  console.log(`  2xx / non-2xx       ${result['2xx']} / ${result.non2xx}  ${JSON.stringify(result.statusCodeStats)}`);
  console.log(`  errors / timeouts   ${result.errors} / ${result.timeouts}`);
  console.log(`  latency             p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  // A create under way when the run stops can be stored without its answer being counted.
  const unanswered = stored > createsOk ? ` (${stored - createsOk} under way when the run stopped)` : '';
  console.log(
    `  creates             ${createsOk} answered 200, ${stored} stored${unanswered}${lost > 0 ? `, ${lost} LOST` : ''}; integrity_check: ${integrity}`,
  );
  console.log(`  rss                 ${samples[0]!.rssMb.toFixed(1)} MB at start, ${last.rssMb.toFixed(1)} MB at the end`);
  console.log(
    `  heap after GC       ${baseline.heapAfterGcMb.toFixed(1)} MB at ${baseline.seconds} s → ${last.heapAfterGcMb.toFixed(1)} MB at ${last.seconds} s ` +
      `(${growthMb >= 0 ? '+' : ''}${growthMb.toFixed(1)} MB, ${growthPct >= 0 ? '+' : ''}${growthPct.toFixed(1)} %)`,
  );

  const failed = result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || lost > 0 || integrity !== 'ok' || total === 0;
  console.log(failed ? '\nSOAK FAILED' : '\nSoak passed: no errors, no non-2xx, nothing lost.');
  return !failed;
}

main().then(
  (report) => {
    process.exitCode = print(report) ? 0 : 1;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
