/**
 * A first visit on a slow network: Chromium with DevTools' "Slow 4G" profile and a cold cache, against a
 * server where someone must sign in. Three moments, each from the page's own clock (Resource and
 * Navigation Timing, `performance.now()`):
 *
 * - the sign-in page ready: from entering the address (navigation start) to the e-mail field focused and
 *   enabled, the sign-in page's code loaded and rendered;
 * - from pressing Sign in (the click's own timestamp) to the case (form 3, case 48217 of the sandbox's
 *   seed) on screen: its heading painted;
 * - a repeat visit with a warm cache (the same browser profile, signed in): from entering the address
 *   again to the case on screen.
 *
 * Beside each, the requests it waited on, in the order they started, with their start and end: a chain of
 * requests (one starting only after another ended) costs a round trip each, and on Slow 4G a round trip is
 * 562.5 ms.
 */
import type { Browser, Page } from '@playwright/test';
import { newBenchContext } from './browser';
import { startServer } from './server-process';
import { median, round } from './stats';

/**
 * DevTools' "Slow 4G" preset, as Chromium's DevTools define it (devtools-frontend,
 * `SDK.NetworkManager.Slow4GConditions`: about 1.6 Mbit/s down and 750 kbit/s up, each × 0.9, and a
 * 150 ms round trip × 3.75), applied the way DevTools applies it: `Network.emulateNetworkConditions`.
 */
export const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
  uploadThroughput: ((750 * 1000) / 8) * 0.9,
  connectionType: 'cellular4g',
} as const;

const PERSON = { user: 'bench@example.com', password: 'the first visit signs in with this passphrase' };
const CASE_ADDRESS = '/cases/3/48217';
/** The case's heading, as the case view writes it. */
const CASE_HEADING = /case 48217/;

/** One request of a waterfall: where it went, when it started and ended (ms from the moment measured from). */
export interface WaterfallEntry {
  /** The path (and query) of the request; same-origin only, so no host. */
  path: string;
  /** `navigation`, `script`, `link` (a stylesheet or a preload), `fetch`, … (Resource Timing's initiatorType). */
  kind: string;
  startMs: number;
  endMs: number;
  /** Bytes over the network, headers included; 0 from the browser's cache. */
  transferBytes: number;
}

export interface FirstVisitRound {
  signInReadyMs: number;
  signInToCaseMs: number;
  repeatVisitMs: number;
}

export interface FirstVisitFigures {
  network: typeof SLOW_4G;
  rounds: number;
  /** Medians of the rounds. */
  signInReadyMs: number;
  signInToCaseMs: number;
  repeatVisitMs: number;
  runs: FirstVisitRound[];
  /** The waterfalls of the median round of each: the requests that ended before the moment measured. */
  waterfalls: { signIn: WaterfallEntry[]; toCase: WaterfallEntry[]; repeat: WaterfallEntry[] };
}

/**
 * The page's requests that ended between `fromMs` and `toMs` (some started before `fromMs`: a negative
 * start), times made relative to `fromMs`.
 */
async function waterfall(page: Page, fromMs: number, toMs: number): Promise<WaterfallEntry[]> {
  const entries = await page.evaluate(() =>
    [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map((entry) => {
      const timing = entry as PerformanceResourceTiming;
      const url = new URL(timing.name);
      return {
        path: url.origin === location.origin ? url.pathname + url.search : url.href,
        kind: timing.initiatorType,
        start: timing.startTime,
        end: timing.responseEnd,
        transferBytes: timing.transferSize,
      };
    }),
  );
  return entries
    .filter((entry) => entry.end >= fromMs && entry.end <= toMs + 1 && entry.end > 0)
    .sort((a, b) => a.start - b.start)
    .map((entry) => ({
      path: entry.path,
      kind: entry.kind,
      startMs: round(entry.start - fromMs, 0),
      endMs: round(entry.end - fromMs, 0),
      transferBytes: entry.transferBytes,
    }));
}

/** Waits (every frame) for `ready()` to be true in the page, and answers `performance.now()` at that frame. */
async function whenReady(page: Page, ready: () => boolean): Promise<number> {
  const handle = await page.waitForFunction(ready, undefined, { polling: 'raf', timeout: 60_000 });
  await handle.dispose();
  return page.evaluate(() => performance.now());
}

const emailReady = () => {
  const field = document.activeElement;
  return field instanceof HTMLInputElement && field.type === 'email' && !field.disabled;
};

/** The case's heading on screen; the pattern travels as text because only serialisable values reach the page. */
async function caseShown(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    (source) => {
      const pattern = new RegExp(source);
      return [...document.querySelectorAll('h2')].some((heading) => pattern.test(heading.textContent ?? ''));
    },
    CASE_HEADING.source,
    { polling: 'raf', timeout: 60_000 },
  );
  await handle.dispose();
  return page.evaluate(() => performance.now());
}

async function oneRound(
  browser: Browser,
  origin: string,
): Promise<{ round: FirstVisitRound; waterfalls: FirstVisitFigures['waterfalls'] }> {
  // A new context: an empty cache and no cookie, as on a first visit.
  const context = await newBenchContext(browser, origin);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);

    // (a) Entering the address: navigation start is the page's time 0.
    await page.goto(CASE_ADDRESS, { waitUntil: 'commit' });
    const signInReadyMs = await whenReady(page, emailReady);
    const signIn = await waterfall(page, 0, signInReadyMs);

    // (b) Pressing Sign in: the click's own timestamp, on the page's clock.
    await page.getByRole('textbox', { name: 'E-mail address' }).fill(PERSON.user);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PERSON.password);
    await page.evaluate(() => {
      document.addEventListener(
        'click',
        (event) => {
          (window as unknown as { benchClickAt: number }).benchClickAt = event.timeStamp;
        },
        { capture: true, once: true },
      );
    });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const shownAt = await caseShown(page);
    const clickAt = await page.evaluate(() => (window as unknown as { benchClickAt: number }).benchClickAt);
    const toCase = await waterfall(page, clickAt, shownAt);

    // (c) A repeat visit: the same profile (its cache and its session), a new page, the address entered again.
    await page.close();
    const again = await context.newPage();
    const againCdp = await context.newCDPSession(again);
    await againCdp.send('Network.enable');
    await againCdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await again.goto(CASE_ADDRESS, { waitUntil: 'commit' });
    const repeatVisitMs = await caseShown(again);
    const repeat = await waterfall(again, 0, repeatVisitMs);
    await again.close();

    return {
      round: {
        signInReadyMs: round(signInReadyMs, 0),
        signInToCaseMs: round(shownAt - clickAt, 0),
        repeatVisitMs: round(repeatVisitMs, 0),
      },
      waterfalls: { signIn, toCase, repeat },
    };
  } finally {
    await context.close();
  }
}

export async function runFirstVisitBenchmark(
  browser: Browser,
  distDir: string,
  rounds: number,
  log: (line: string) => void,
): Promise<FirstVisitFigures> {
  const server = await startServer({ DIST_DIR: distDir, ADMIN_USER: PERSON.user, ADMIN_PASSWORD: PERSON.password });
  try {
    const results: Awaited<ReturnType<typeof oneRound>>[] = [];
    for (let r = 0; r < rounds; r += 1) {
      const result = await oneRound(browser, server.origin);
      results.push(result);
      const { signInReadyMs, signInToCaseMs, repeatVisitMs } = result.round;
      log(
        `  round ${r + 1}/${rounds}: sign-in page ready ${signInReadyMs} ms, Sign in → case ${signInToCaseMs} ms, repeat visit ${repeatVisitMs} ms`,
      );
    }
    const runs = results.map((result) => result.round);
    const middle = <K extends keyof FirstVisitRound>(key: K) => {
      const sorted = [...results].sort((a, b) => a.round[key] - b.round[key]);
      return sorted[Math.floor(sorted.length / 2)] ?? results[0];
    };
    return {
      network: SLOW_4G,
      rounds,
      signInReadyMs: median(runs.map((run) => run.signInReadyMs)),
      signInToCaseMs: median(runs.map((run) => run.signInToCaseMs)),
      repeatVisitMs: median(runs.map((run) => run.repeatVisitMs)),
      runs,
      waterfalls: {
        signIn: middle('signInReadyMs')?.waterfalls.signIn ?? [],
        toCase: middle('signInToCaseMs')?.waterfalls.toCase ?? [],
        repeat: middle('repeatVisitMs')?.waterfalls.repeat ?? [],
      },
    };
  } finally {
    await server.stop();
  }
}

/** A waterfall as one line per request: `start–end ms  path (kind, bytes)`. */
export function waterfallLines(entries: readonly WaterfallEntry[]): string[] {
  return entries.map(
    (entry) =>
      `${String(entry.startMs).padStart(5)}–${String(entry.endMs).padEnd(5)} ms  ${entry.path} (${entry.kind}, ${entry.transferBytes === 0 ? 'cache' : `${entry.transferBytes} B`})`,
  );
}
