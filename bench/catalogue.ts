/**
 * The Catalogue at size (`--only catalogue`): a sandbox of its own (a standalone `npm run sandbox` on a
 * fresh data folder) whose first site gets 5,000 generated products beside its demo catalogue
 * (`POST /__sandbox/products/generate`), never at a normal start; a local demo of the build in front of
 * it; headless Chromium (1280 × 800, 1× CPU), each round in a new browser context:
 *
 * - from the navigation: on Cases, the Catalogue's entry is clicked (its chunk loads then) → its first
 *   screen of rows painted (the rows fill the list's box, each a link to its product);
 * - a shared link: `/catalogue` entered as an address (navigation start: the page, the app's scripts, the
 *   sign-in check, the chunk and the first page of 500) → the same;
 * - a search by a slug: the input event → "Searched all N products" on screen (every page read, 500 a
 *   page, one after another).
 * With each, the first list request's answer (Resource Timing's `responseEnd`) → rows painted, and the
 * longest main-thread task (Long Tasks API) meanwhile. Medians of the rounds, after one not counted.
 * Nothing is asserted: a figure that could not be taken says why.
 */
import type { Browser, Page } from '@playwright/test';
import { launchBrowser, newBenchContext, withRetry } from './browser';
import { onSandbox, SANDBOX_AUTH, startServer, startStandaloneSandbox, type RunningProcess } from './server-process';
import { median, round } from './stats';

export const CATALOGUE_PRODUCTS = 5_000;
/** A product of the demo catalogue, found by its slug among the 5,000 generated. */
const SEARCHED_SLUG = 'gift-card-charcoal';
/** The list's name begins so (the site's name follows: here the platform's host, as SITE_API_BASE_URL names it). */
const LIST_LABEL = 'Products of ';

interface CatalogueRound {
  /** Rows the list said it holds (aria-setsize). */
  listRows: number;
  clickToRowsMs: number;
  clickAnswerToRowsMs: number;
  clickLongestTaskMs: number;
  loadToRowsMs: number;
  loadAnswerToRowsMs: number;
  searchAllMs: number;
  searchLongestTaskMs: number;
}

export interface CatalogueFigures {
  products: number;
  seedMs: number;
  rounds: number;
  screen: ({ [K in keyof CatalogueRound]: number } & { clickToRowsRunsMs: number[]; loadToRowsRunsMs: number[] }) | { notMeasured: string };
}

interface CatalogueProbe {
  /** From now: watches every frame for the list's rows filling its box; `rowsAt` once they do. */
  arm(): void;
  armedAt: number;
  rowsAt: number | null;
  longestTask(from: number, to: number): number;
  /** The first list request since `from`: its responseEnd. */
  answerAfter(from: number): number | null;
  /** Resolves with (input event → "Searched all" on screen, ms) once the search box's next input has been searched through. */
  searched(): Promise<{ inputAt: number; doneAt: number }>;
}

declare global {
  interface Window {
    __catalogue?: CatalogueProbe;
  }
}

/** Installed before the app loads (self-contained: Playwright sends its source, not its scope). */
function installCatalogueProbe(label: string) {
  const tasks: { start: number; duration: number }[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const afterThisPaint = (callback: () => void) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(null);
  };
  let generation = 0;
  const probe: CatalogueProbe = {
    armedAt: 0,
    rowsAt: null,
    arm() {
      generation += 1;
      const mine = generation;
      probe.armedAt = performance.now();
      probe.rowsAt = null;
      const frame = () => {
        if (mine !== generation) return;
        const list = document.querySelector<HTMLElement>(`[role="list"][aria-label^="${label}"]`);
        const box = list?.parentElement;
        if (list && box) {
          const rows = [...list.querySelectorAll('[role="listitem"]')].filter((row) => row.querySelector('a[href]'));
          const last = rows[rows.length - 1];
          if (last && last.getBoundingClientRect().bottom >= Math.min(box.getBoundingClientRect().bottom, window.innerHeight) - 1) {
            afterThisPaint(() => {
              if (mine === generation) probe.rowsAt = performance.now();
            });
            return;
          }
        }
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    },
    longestTask: (from, to) => Math.max(0, ...tasks.filter((task) => task.start >= from && task.start <= to).map((task) => task.duration)),
    answerAfter(from) {
      const entry = performance
        .getEntriesByType('resource')
        .find((e): e is PerformanceResourceTiming => e.name.includes('/ecommerce/products?') && e.startTime >= from);
      return entry ? entry.responseEnd : null;
    },
    searched() {
      return new Promise((resolve) => {
        let inputAt: number | null = null;
        document.addEventListener('input', (event) => (inputAt ??= event.timeStamp), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (inputAt === null) return;
          const done = [...document.querySelectorAll('[role="status"]')].some((e) => e.textContent?.startsWith('Searched all'));
          if (!done) return;
          observer.disconnect();
          const at = inputAt;
          afterThisPaint(() => resolve({ inputAt: at, doneAt: performance.now() }));
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
    },
  };
  window.__catalogue = probe;
  // A page load is measured from navigation start: armed at once.
  probe.arm();
  probe.armedAt = 0;
}

async function rowsPainted(page: Page): Promise<{ armedAt: number; rowsAt: number; answerAt: number | null }> {
  await page.waitForFunction(() => window.__catalogue?.rowsAt !== null, undefined, { timeout: 60_000, polling: 50 });
  return page.evaluate(() => {
    const probe = window.__catalogue;
    if (!probe || probe.rowsAt === null) throw new Error('The catalogue probe saw no rows');
    return { armedAt: probe.armedAt, rowsAt: probe.rowsAt, answerAt: probe.answerAfter(probe.armedAt) };
  });
}

async function catalogueRound(browser: Browser, origin: string): Promise<CatalogueRound> {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installCatalogueProbe, LIST_LABEL);
  try {
    // From the navigation: Cases first (the first page), then the Catalogue's entry.
    const page = await context.newPage();
    await page.goto('/cases');
    await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
    await page.evaluate(() => window.__catalogue?.arm());
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Catalogue/ })
      .click();
    const click = await rowsPainted(page);
    const clickLongestTaskMs = await page.evaluate(([from, to]) => window.__catalogue?.longestTask(from, to + 500) ?? Number.NaN, [
      click.armedAt,
      click.rowsAt,
    ] as const);
    const listRows = Number(
      (await page.locator(`[role="list"][aria-label^="${LIST_LABEL}"]`).getByRole('listitem').first().getAttribute('aria-setsize')) ??
        Number.NaN,
    );

    // A search by slug: every page read.
    const searched = page.evaluate(() => window.__catalogue?.searched() ?? Promise.reject(new Error('no probe')));
    await page.getByRole('searchbox', { name: 'Search by name or slug' }).fill(SEARCHED_SLUG);
    const search = await searched;
    const searchLongestTaskMs = await page.evaluate(([from, to]) => window.__catalogue?.longestTask(from, to) ?? Number.NaN, [
      search.inputAt,
      search.doneAt,
    ] as const);

    // A shared link: the address entered in a page of its own.
    const shared = await context.newPage();
    await shared.goto('/catalogue', { waitUntil: 'commit' });
    const load = await rowsPainted(shared);
    return {
      listRows,
      clickToRowsMs: click.rowsAt - click.armedAt,
      clickAnswerToRowsMs: click.answerAt === null ? Number.NaN : click.rowsAt - click.answerAt,
      clickLongestTaskMs,
      loadToRowsMs: load.rowsAt,
      loadAnswerToRowsMs: load.answerAt === null ? Number.NaN : load.rowsAt - load.answerAt,
      searchAllMs: search.doneAt - search.inputAt,
      searchLongestTaskMs,
    };
  } finally {
    await context.close();
  }
}

/** Seeds the products on the sandbox at `origin`; answers the ms it took. */
async function seedCatalogue(origin: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${origin}/__sandbox/products/generate`, {
    method: 'POST',
    headers: { ...SANDBOX_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ count: CATALOGUE_PRODUCTS }),
  });
  if (res.status !== 200) throw new Error(`Seeding ${CATALOGUE_PRODUCTS} products answered ${res.status}: ${await res.text()}`);
  return performance.now() - started;
}

async function measureScreen(distDir: string, sandbox: RunningProcess, rounds: number, log: (line: string) => void) {
  const server = await startServer(onSandbox(distDir, sandbox));
  const browser = await launchBrowser();
  try {
    await withRetry('catalogue warm-up', () => catalogueRound(browser, server.origin), log); // Unmeasured.
    const runs: CatalogueRound[] = [];
    for (let r = 0; r < rounds; r += 1) {
      const run = await withRetry('catalogue', () => catalogueRound(browser, server.origin), log);
      runs.push(run);
      log(
        `  catalogue, round ${r + 1}/${rounds}: click → rows ${round(run.clickToRowsMs)} ms, address → rows ${round(run.loadToRowsMs)} ms, search of all ${round(run.searchAllMs)} ms`,
      );
    }
    const med = (key: keyof CatalogueRound) => round(median(runs.map((run) => run[key])));
    return {
      listRows: med('listRows'),
      clickToRowsMs: med('clickToRowsMs'),
      clickAnswerToRowsMs: med('clickAnswerToRowsMs'),
      clickLongestTaskMs: med('clickLongestTaskMs'),
      loadToRowsMs: med('loadToRowsMs'),
      loadAnswerToRowsMs: med('loadAnswerToRowsMs'),
      searchAllMs: med('searchAllMs'),
      searchLongestTaskMs: med('searchLongestTaskMs'),
      clickToRowsRunsMs: runs.map((run) => round(run.clickToRowsMs)),
      loadToRowsRunsMs: runs.map((run) => round(run.loadToRowsMs)),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** `withBrowser`: whether the app was built (the screen's figures need it); without it they say so. */
export async function runCatalogueBenchmark(
  distDir: string,
  withBrowser: boolean,
  rounds: number,
  log: (line: string) => void,
): Promise<CatalogueFigures> {
  const sandbox = await startStandaloneSandbox();
  try {
    const seedMs = await seedCatalogue(sandbox.origin);
    log(`  ${CATALOGUE_PRODUCTS.toLocaleString('en')} products generated in ${round(seedMs, 0)} ms`);
    const screen = withBrowser ? await measureScreen(distDir, sandbox, rounds, log) : { notMeasured: 'the app was not built in this run' };
    return { products: CATALOGUE_PRODUCTS, seedMs: round(seedMs, 0), rounds, screen };
  } finally {
    await sandbox.stop();
  }
}

/** The section's rows of the bench's table. */
export function catalogueRows(figures: CatalogueFigures): [string, string, string, string][] {
  const area = `Catalogue, ${figures.products.toLocaleString('en')} products generated`;
  const screen = figures.screen;
  if ('notMeasured' in screen) return [[area, 'In Chromium', `not measured: ${screen.notMeasured}`, '']];
  const task = (ms: number) => (ms === 0 ? 'no task over 50 ms' : `longest task ${ms} ms`);
  return [
    [
      area,
      `From Cases, the Catalogue's entry clicked → its first screen of rows painted (of ${screen.listRows.toLocaleString('en')}; the first page of 500's answer → rows)`,
      `${screen.clickToRowsMs} ms (runs: ${screen.clickToRowsRunsMs.join(', ')}); answer → rows ${screen.clickAnswerToRowsMs} ms; ${task(screen.clickLongestTaskMs)}`,
      '≤ 1,000 ms',
    ],
    [
      area,
      'A shared link: /catalogue entered (navigation start) → its first screen of rows painted',
      `${screen.loadToRowsMs} ms (runs: ${screen.loadToRowsRunsMs.join(', ')}); answer → rows ${screen.loadAnswerToRowsMs} ms`,
      '≤ 1,000 ms',
    ],
    [
      area,
      `A search by slug: input → "Searched all" on screen (every page of 500 read, one after another)`,
      `${screen.searchAllMs} ms; ${task(screen.searchLongestTaskMs)}`,
      '',
    ],
  ];
}
