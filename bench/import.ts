/**
 * Import from a spreadsheet: 10,000 option rows (1,000 products × 10 options) read and checked in the
 * worker, the longest task on the page meanwhile, the grid's frames while it scrolls, the JS heap after;
 * then products created through the proxy on the sandbox at 1, 4 and 16 at a time, and how the time
 * splits between the browser (site-admin's own work between requests) and the requests on their way.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { Browser, Page } from '@playwright/test';
import { IMPORTS_PATHS, importPath } from '../src/contract/imports';
import { heapAfterGc, newBenchContext, withRetry } from './browser';
import { runImportUpdateCheck, type ImportUpdateFigures } from './import-updates';
import { freePort, onSandbox, startServer, startStandaloneSandbox } from './server-process';
import { median, percentile, round } from './stats';

/** A stand-in platform's latency per create: about what a hosted platform takes to create a product. */
export const PLATFORM_LATENCY_MS = 100;

export interface ImportShareFigures {
  concurrency: number;
  products: number;
  perSecond: number;
  /** The most a platform of this latency allows at this concurrency: concurrency / latency. */
  ceilingPerSecond: number;
  /** The platform's own handling of each create, as the stand-in timed it (arrival → answer sent), median. */
  platformMs: number;
  /** Pick → answer, as the page's Resource Timing saw each create, median; and time queued in the browser. */
  requestMs: number;
  stalledMs: number;
  /**
   * Site-admin's share: 1 − (Σ the platform's handling) / (concurrency × elapsed). Of the time the
   * concurrency's lanes were open, the part no create was at the platform: the browser, our server and the
   * browser's own queue for a connection. 0 would be a platform working on `concurrency` creates the
   * whole time.
   */
  siteAdminShare: number;
}

export interface ImportCreateFigures {
  concurrency: number;
  products: number;
  perSecond: number;
  /** Share of the elapsed time with at least one create on its way (waiting on our server and the platform). */
  waitingShare: number;
  /** The rest: the browser's own work between answers (building bodies, storing statuses, rendering). */
  siteAdminShare: number;
}

export interface ImportFigures {
  rows: number;
  products: number;
  runs: number;
  /** In the worker: the file's encoding decided and papaparse reading it, then every product checked. */
  parseMs: number;
  checkMs: number;
  /**
   * Longest task on the page's main thread from choosing the file (its change event) to the grid painted:
   * the median of the rounds, and the longest of any round. 0 is no task over 50 ms, the least the
   * browser reports as a long task.
   */
  longestTaskMs: number;
  longestTaskMaxMs: number;
  /** The same rows as an Excel workbook: read in the worker (SheetJS), and the longest task meanwhile. */
  workbookParseMs: number;
  workbookLongestTaskMs: number;
  workbookLongestTaskMaxMs: number;
  workbookKB: number;
  /** While scrolling the grid a screenful per frame: frames per second and the p95 frame interval. */
  scrollFps: number;
  scrollFrameP95Ms: number;
  heapMB: number;
  creates: ImportCreateFigures[];
  /** The same creates through site-admin to a stand-in platform of fixed latency (PLATFORM_LATENCY_MS). */
  share?: ImportShareFigures[];
  /** 1,000 updates of products of the site checked, each row's diff included (import-updates.ts). */
  updates: ImportUpdateFigures;
}

const PRODUCTS = 1000;
const OPTIONS = 10;
const CREATES = 120;

/** 1,000 products of 10 options each, in the layout of the template: product columns on the first row. */
export function bigImportFile(): string {
  const lines = ['Name,Slug,Product field 1,USD Price,EUR Price,Attribute name,Option name,USD Added to price,Stock'];
  for (let p = 0; p < PRODUCTS; p += 1) {
    for (let o = 0; o < OPTIONS; o += 1) {
      const own = o === 0 ? [`Product ${p}`, `bench-big-${p}`, `"Line one\nline two of ${p}"`, `${p}.99`, `${p}.49`] : ['', '', '', '', ''];
      lines.push([...own, o === 0 ? 'Size' : '', `Option ${o}`, `${o}.00`, String(o * 3)].join(','));
    }
  }
  return lines.join('\r\n');
}

/** The same rows as a workbook, as Excel saves it: prices as numbers, the rest as text. */
export async function bigImportWorkbook(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Products');
  const [header = '', ...lines] = bigImportFile()
    .replace(/"Line one\r?\nline two of (\d+)"/g, 'Line one line two of $1')
    .split('\r\n');
  sheet.addRow(header.split(','));
  for (const line of lines)
    sheet.addRow(line.split(',').map((cell, i) => (cell !== '' && (i === 3 || i === 4 || i === 7 || i === 8) ? Number(cell) : cell)));
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * The main thread's long tasks from the moment a file is chosen (the file input's change event) until the
 * grid is shown. The task that dispatches the event is Playwright's own and starts earlier (it builds the
 * File from the bytes it was sent, ~100 ms for this file, which a person choosing a file does not have):
 * of that task only the part after the event counts, which is the page's own handling of the choice.
 */
function installLongTaskProbe() {
  const w = window as unknown as { __longTasks: number[]; __changeAt: number };
  w.__longTasks = [];
  w.__changeAt = Infinity;
  document.addEventListener('change', () => (w.__changeAt = performance.now()), true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const end = entry.startTime + entry.duration;
      if (end > w.__changeAt) w.__longTasks.push(end - Math.max(entry.startTime, w.__changeAt));
    }
  }).observe({ type: 'longtask', buffered: true });
  performance.setResourceTimingBufferSize(10_000);
}

/**
 * No import left open on the server: the site's open imports are kept there (and a page opens them rather
 * than offering a new file), so each session starts from none, as a person's first import does.
 */
async function discardOpenImports(page: Page) {
  const origin = new URL(page.url()).origin;
  const listed = await page.request.get(`${origin}${IMPORTS_PATHS.list}?site=main`);
  if (!listed.ok()) throw new Error(`The open imports could not be listed: ${listed.status()}`);
  const { imports } = (await listed.json()) as { imports: { id: string }[] };
  for (const { id } of imports) {
    const gone = await page.request.delete(`${origin}${importPath(IMPORTS_PATHS.one, id)}`, { headers: { origin } });
    if (gone.status() !== 204) throw new Error(`Import ${id} could not be discarded: ${gone.status()}`);
  }
}

async function loadFile(page: Page, name: string, content: string | Buffer) {
  await page.goto('/products/import');
  await discardOpenImports(page);
  await page.goto('/products/import');
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __changeAt: number };
    w.__longTasks.length = 0;
    w.__changeAt = Infinity;
  });
  const buffer = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const mimeType = typeof content === 'string' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
  const line = page.getByText(/read in \d+ ms · checked in \d+ ms/);
  await line.waitFor({ timeout: 60_000 });
  await page.getByRole('grid', { name: 'Rows of the file' }).getByRole('row').nth(3).waitFor();
  const text2 = (await line.textContent()) ?? '';
  return {
    parseMs: Number(/read in (\d+) ms/.exec(text2)?.[1] ?? NaN),
    checkMs: Number(/checked in (\d+) ms/.exec(text2)?.[1] ?? NaN),
  };
}

async function scrollFrames(page: Page): Promise<{ fps: number; p95: number }> {
  const intervals = await page.evaluate(
    () =>
      new Promise<number[]>((resolve) => {
        const scroller = document.querySelector('[aria-label="Rows of the file"]');
        if (!(scroller instanceof HTMLElement)) throw new Error('No grid');
        const times: number[] = [];
        const step = (t: number) => {
          times.push(t);
          scroller.scrollTop += scroller.clientHeight;
          if (times.length < 180) requestAnimationFrame(step);
          else resolve(times.slice(1).map((time, i) => time - (times[i] ?? time)));
        };
        requestAnimationFrame(step);
      }),
  );
  const total = intervals.reduce((a, b) => a + b, 0);
  return { fps: round((intervals.length / total) * 1000, 0), p95: round(percentile(intervals, 95)) };
}

const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));

async function workbookSession(browser: Browser, origin: string, workbook: Buffer) {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installLongTaskProbe);
  try {
    const page = await context.newPage();
    const { parseMs } = await loadFile(page, 'big.xlsx', workbook);
    return { parseMs, longestTaskMs: await longestTask(page) };
  } finally {
    await context.close();
  }
}

async function bigFileSession(browser: Browser, origin: string) {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installLongTaskProbe);
  try {
    const page = await context.newPage();
    const { parseMs, checkMs } = await loadFile(page, 'big.csv', bigImportFile());
    const longest = await longestTask(page);
    const heap = await heapAfterGc(page);
    const scroll = await scrollFrames(page);
    return { parseMs, checkMs, longestTaskMs: longest, heapMB: heap / 2 ** 20, scrollFps: scroll.fps, scrollFrameP95Ms: scroll.p95 };
  } finally {
    await context.close();
  }
}

async function createSession(browser: Browser, origin: string, concurrency: number): Promise<ImportCreateFigures> {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installLongTaskProbe);
  try {
    const page = await context.newPage();
    const run = `bench-c${concurrency}-${Date.now().toString(36)}`;
    const rows = Array.from({ length: CREATES }, (_, i) => `Product ${i},${run}-${i},${i}.99,Size,S,0,1`);
    await loadFile(page, 'creates.csv', ['Name,Slug,USD Price,Attribute name,Option name,USD Added to price,Stock', ...rows].join('\n'));
    await page.getByLabel('At a time').fill(String(concurrency));
    await page.getByRole('button', { name: `Create ${CREATES} products` }).click();
    await page.getByText(`Finished: ${CREATES} of ${CREATES} answered`).waitFor({ timeout: 180_000 });
    const timing = await page.evaluate(() => {
      const entries = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('/ecommerce/products/create'))
        .map((e) => [e.startTime, (e as PerformanceResourceTiming).responseEnd] as const)
        .sort((a, b) => a[0] - b[0]);
      let busy = 0;
      let end = -Infinity;
      for (const [s, e] of entries) {
        if (s >= end) busy += e - s;
        else if (e > end) busy += e - end;
        end = Math.max(end, e);
      }
      const first = entries[0]?.[0] ?? 0;
      return { count: entries.length, elapsed: end - first, busy };
    });
    return {
      concurrency,
      products: timing.count,
      perSecond: round((timing.count / timing.elapsed) * 1000),
      waitingShare: round(timing.busy / timing.elapsed, 2),
      siteAdminShare: round(1 - timing.busy / timing.elapsed, 2),
    };
  } finally {
    await context.close();
  }
}

interface StandIn {
  origin: string;
  /** [arrival, answer sent] of every create, in ms of performance.now(). */
  creates: [number, number][];
  close(): Promise<void>;
}

/**
 * A platform of fixed latency: every request goes on to the real sandbox at `target`, and a create's answer
 * is held until `latencyMs` after it arrived. Its own timing of each create is the platform's handling time.
 */
export async function startStandIn(target: string, latencyMs: number): Promise<StandIn> {
  const creates: [number, number][] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const arrived = performance.now();
    const isCreate = req.method === 'POST' && (req.url ?? '').endsWith('/products/create');
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const send = () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(chunks));
            if (isCreate) creates.push([arrived, performance.now()]);
          };
          const left = isCreate ? arrived + latencyMs - performance.now() : 0;
          if (left > 0) setTimeout(send, left);
          else send();
        });
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    creates,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Creates at `concurrency` through a server whose platform is the stand-in; the share of the time that was site-admin's. */
export async function shareSession(browser: Browser, origin: string, standIn: StandIn, concurrency: number): Promise<ImportShareFigures> {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installLongTaskProbe);
  try {
    const page = await context.newPage();
    const run = `bench-share-c${concurrency}-${Date.now().toString(36)}`;
    const rows = Array.from({ length: CREATES }, (_, i) => `Product ${i},${run}-${i},${i}.99,Size,S,0,1`);
    await loadFile(page, 'creates.csv', ['Name,Slug,USD Price,Attribute name,Option name,USD Added to price,Stock', ...rows].join('\n'));
    await page.getByLabel('At a time').fill(String(concurrency));
    standIn.creates.length = 0;
    const started = performance.now();
    await page.getByRole('button', { name: `Create ${CREATES} products` }).click();
    await page.getByText(`Finished: ${CREATES} of ${CREATES} answered`).waitFor({ timeout: 180_000 });
    const elapsed = performance.now() - started;
    const requests = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => e.name.endsWith('/ecommerce/products/create'))
        .map((e) => ({ total: e.responseEnd - e.startTime, stalled: Math.max(0, e.requestStart - e.startTime) })),
    );
    const platform = standIn.creates.map(([from, to]) => to - from);
    const held = platform.reduce((a, b) => a + b, 0);
    return {
      concurrency,
      products: platform.length,
      perSecond: round((platform.length / elapsed) * 1000),
      ceilingPerSecond: round((concurrency / PLATFORM_LATENCY_MS) * 1000),
      platformMs: round(median(platform)),
      requestMs: round(median(requests.map((r) => r.total))),
      stalledMs: round(median(requests.map((r) => r.stalled))),
      siteAdminShare: round(1 - held / (concurrency * elapsed), 2),
    };
  } finally {
    await context.close();
  }
}

/**
 * The import's own share: site-admin (its build in `distDir`) in front of a stand-in platform of fixed
 * latency, itself in front of a standalone sandbox; 1, 4 and 16 at a time.
 */
async function runShareBenchmark(browser: Browser, distDir: string, log: (line: string) => void): Promise<ImportShareFigures[]> {
  const sandbox = await startStandaloneSandbox();
  const standIn = await startStandIn(sandbox.origin, PLATFORM_LATENCY_MS);
  const server = await startServer(onSandbox(distDir, { ...sandbox, origin: standIn.origin }));
  try {
    const figures: ImportShareFigures[] = [];
    for (const concurrency of [1, 4, 16]) {
      log(`  creating ${CREATES} products, ${concurrency} at a time, platform of ${PLATFORM_LATENCY_MS} ms`);
      figures.push(await withRetry(`import share ×${concurrency}`, () => shareSession(browser, server.origin, standIn, concurrency), log));
    }
    return figures;
  } finally {
    await server.stop();
    await standIn.close();
    await sandbox.stop();
  }
}

export async function runImportBenchmark(
  browser: Browser,
  origin: string,
  rounds: number,
  log: (line: string) => void,
  /** The app's build: with it, the import's own share is measured too (a second server, on a stand-in platform). */
  distDir?: string,
): Promise<ImportFigures> {
  await withRetry('warm-up', () => bigFileSession(browser, origin), log); // Unmeasured.
  const runs: Awaited<ReturnType<typeof bigFileSession>>[] = [];
  for (let r = 0; r < rounds; r += 1) {
    log(`  round ${r + 1}/${rounds}`);
    runs.push(await withRetry('import, 10,000 rows', () => bigFileSession(browser, origin), log));
  }
  const workbook = await bigImportWorkbook();
  await withRetry('warm-up', () => workbookSession(browser, origin, workbook), log); // Unmeasured.
  const books: Awaited<ReturnType<typeof workbookSession>>[] = [];
  for (let r = 0; r < rounds; r += 1) {
    log(`  workbook round ${r + 1}/${rounds}`);
    books.push(await withRetry('import, 10,000-row workbook', () => workbookSession(browser, origin, workbook), log));
  }
  const creates: ImportCreateFigures[] = [];
  for (const concurrency of [1, 4, 16]) {
    log(`  creating ${CREATES} products, ${concurrency} at a time`);
    creates.push(await withRetry(`import creates ×${concurrency}`, () => createSession(browser, origin, concurrency), log));
  }
  const share = distDir ? await runShareBenchmark(browser, distDir, log) : undefined;
  log(`  checking ${PRODUCTS.toLocaleString('en')} updates (diff included)`);
  const updates = await runImportUpdateCheck(rounds, log);
  const med = (key: keyof (typeof runs)[number]) => round(median(runs.map((r) => r[key])));
  return {
    rows: PRODUCTS * OPTIONS,
    products: PRODUCTS,
    runs: runs.length,
    parseMs: med('parseMs'),
    checkMs: med('checkMs'),
    longestTaskMs: med('longestTaskMs'),
    longestTaskMaxMs: round(Math.max(...runs.map((r) => r.longestTaskMs))),
    scrollFps: med('scrollFps'),
    scrollFrameP95Ms: med('scrollFrameP95Ms'),
    heapMB: med('heapMB'),
    workbookParseMs: round(median(books.map((b) => b.parseMs))),
    workbookLongestTaskMs: round(median(books.map((b) => b.longestTaskMs))),
    workbookLongestTaskMaxMs: round(Math.max(...books.map((b) => b.longestTaskMs))),
    workbookKB: round(workbook.length / 1024, 0),
    creates,
    ...(share ? { share } : {}),
    updates,
  };
}
