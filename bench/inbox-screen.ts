/**
 * (c) of the inbox section, in headless Chromium on the production build: the inbox of the 20,000-case
 * form (`/cases/{form}`), as a person works it.
 *
 * Each round, in a new browser context: the inbox is opened (its chunk loaded, its first page shown), then a
 * new list is asked for the way Back or a shared link does (the address changes to a received-date range
 * every case is in, so the page asks for a fresh first page of 500). Measured on the page's own clock:
 * - from that list's answer (Resource Timing's `responseEnd`) to the frame in which its rows fill the
 *   list's box (each row a link to its case), painted;
 * - the longest main-thread task (Long Tasks API, a `PerformanceObserver` of 'longtask') from the address's
 *   change until the page has settled (SETTLE_MS after the rows);
 * - the frames while the list scrolls through the page's 500 rows, half a box per frame (`scrollTop` moved
 *   in each animation frame, as a fast wheel does): frames per second, the p95 frame interval, and the
 *   longest task meanwhile.
 * Medians of the rounds; the longest task also as the longest of all rounds.
 */
import type { Browser, Page } from '@playwright/test';
import { launchBrowser, newBenchContext, withRetry } from './browser';
import { startServer, onSandbox, type RunningProcess } from './server-process';
import { median, percentile, round } from './stats';

/** After the rows are painted, long tasks are still counted for this long (effects, the team's work arriving). */
const SETTLE_MS = 500;
/** A received-date range every seeded case is in (the seed starts at 2026-01-01): a new list, the same cases. */
const ALL_RECEIVED = 'from=2025-12-31';
/** The scrolling stops before the page's last rows, so no second page is asked for meanwhile. */
const SCROLL_TO_ROW = 480;
const SCROLL_MAX_FRAMES = 240;

export interface InboxScreenFigures {
  runs: number;
  /** The page size the inbox asked the list for (per_page of its request). */
  perPage: number;
  /** Rows the list said it holds (aria-setsize of its rows). */
  listRows: number;
  /** The list's answer (responseEnd) → its rows fill the list's box, painted. */
  answerToRowsMs: number;
  answerToRowsRunsMs: number[];
  /** The address changed → the rows painted (the request's round trip included). */
  changeToRowsMs: number;
  /** Longest main-thread task from the address's change until settled: median of the rounds, and the longest of all. */
  longestTaskMs: number;
  longestTaskMaxMs: number;
  /** Each round's longest task (0: none over 50 ms, the least the Long Tasks API reports). */
  longestTaskRunsMs: number[];
  /** Scrolling through the page's rows: frames per second, p95 frame interval, longest task while scrolling (median of rounds). */
  scrollFps: number;
  scrollFrameP95Ms: number;
  scrollLongestTaskMs: number;
  scrollFrames: number;
}

interface InboxProbe {
  /** From now: watches every frame for `minRows` rows with a link filling the list named `label`. */
  arm(label: string): void;
  /** The armed measurement: when it was armed, and when the rows were painted (performance.now()). */
  result(): Promise<{ armedAt: number; rowsAt: number }>;
  longestTask(from: number, to: number): number;
  /** Scrolls the list's box half a box per frame until row `toRow` or `maxFrames`; the frame intervals. */
  scroll(label: string, toRow: number, maxFrames: number): Promise<number[]>;
}

declare global {
  interface Window {
    __inbox?: InboxProbe;
  }
}

/** Installed before the app loads (self-contained: Playwright sends its source, not its scope). */
function installInboxProbe() {
  const tasks: { start: number; duration: number }[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const afterThisPaint = (callback: () => void) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(null);
  };
  const listOf = (label: string) => document.querySelector<HTMLElement>(`[role="list"][aria-label="${label}"]`);
  let pending: Promise<{ armedAt: number; rowsAt: number }> = Promise.reject(new Error('not armed'));
  pending.catch(() => undefined);
  window.__inbox = {
    arm(label) {
      const armedAt = performance.now();
      // The list on screen before the change: its rows do not count, only a new list's.
      const before = listOf(label);
      pending = new Promise((resolve) => {
        const frame = () => {
          const list = listOf(label);
          const box = list?.parentElement;
          if (list && box && list !== before) {
            const rows = [...list.querySelectorAll('[role="listitem"]')].filter((row) => row.querySelector('a[href]'));
            const last = rows[rows.length - 1];
            // Filled: the loaded rows reach the bottom of the list's box (or the list holds no more).
            if (last && last.getBoundingClientRect().bottom >= Math.min(box.getBoundingClientRect().bottom, window.innerHeight) - 1) {
              afterThisPaint(() => resolve({ armedAt, rowsAt: performance.now() }));
              return;
            }
          }
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
    },
    result: () => pending,
    longestTask: (from, to) => Math.max(0, ...tasks.filter((task) => task.start >= from && task.start <= to).map((task) => task.duration)),
    scroll(label, toRow, maxFrames) {
      return new Promise((resolve, reject) => {
        const box = listOf(label)?.parentElement;
        if (!box) {
          reject(new Error(`No list named ${label}`));
          return;
        }
        const rowHeight = (listOf(label)?.querySelector('[role="listitem"]')?.getBoundingClientRect().height ?? 44) || 44;
        const end = toRow * rowHeight - box.clientHeight;
        const times: number[] = [];
        const step = (t: number) => {
          times.push(t);
          if (box.scrollTop >= end || times.length >= maxFrames) {
            resolve(times.slice(1).map((time, i) => time - (times[i] ?? time)));
            return;
          }
          box.scrollTop += box.clientHeight / 2;
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      });
    },
  };
}

interface RoundFigures {
  perPage: number;
  listRows: number;
  answerToRowsMs: number;
  changeToRowsMs: number;
  longestTaskMs: number;
  scrollFps: number;
  scrollFrameP95Ms: number;
  scrollLongestTaskMs: number;
  scrollFrames: number;
}

async function inboxRound(browser: Browser, origin: string, form: string): Promise<RoundFigures> {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installInboxProbe);
  try {
    const page: Page = await context.newPage();
    const label = `Cases of form ${form}`;
    await page.goto(`/cases/${form}`);
    const list = page.getByRole('list', { name: label });
    await list.getByRole('link').first().waitFor({ timeout: 60_000 });
    // A new list the way Back or a shared link brings one: the address changes, the router hears popstate.
    await page.evaluate((l) => window.__inbox?.arm(l), label);
    await page.evaluate(
      ([path, query]) => {
        window.history.pushState(null, '', `${path}?${query}`);
        window.dispatchEvent(new PopStateEvent('popstate'));
      },
      [`/cases/${form}`, ALL_RECEIVED] as const,
    );
    const times = await page.evaluate(() => window.__inbox?.result());
    if (!times) throw new Error('The inbox probe gave no result.');
    const answer = await page.evaluate(
      ([f, from]) => {
        const entries = performance
          .getEntriesByType('resource')
          .filter((e): e is PerformanceResourceTiming => e.name.includes(`/forms/${f}/cases?`) && e.startTime >= from);
        const first = entries[0];
        return first ? { responseEnd: first.responseEnd, url: first.name } : null;
      },
      [form, times.armedAt] as const,
    );
    if (!answer) throw new Error(`No request for the list of form ${form} after the address changed`);
    const settledAt = await page.evaluate(
      (ms) => new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), ms)),
      SETTLE_MS,
    );
    const longestTaskMs = await page.evaluate(([from, to]) => window.__inbox?.longestTask(from, to) ?? Number.NaN, [
      times.armedAt,
      settledAt,
    ] as const);
    const listRows = Number((await list.getByRole('listitem').first().getAttribute('aria-setsize')) ?? Number.NaN);

    const scrollFrom = await page.evaluate(() => performance.now());
    const intervals = await page.evaluate(([l, to, max]) => window.__inbox?.scroll(l, to, max) ?? Promise.resolve([]), [
      label,
      SCROLL_TO_ROW,
      SCROLL_MAX_FRAMES,
    ] as const);
    const scrollLongestTaskMs = await page.evaluate(
      (from) => window.__inbox?.longestTask(from, performance.now()) ?? Number.NaN,
      scrollFrom,
    );
    const total = intervals.reduce((sum, ms) => sum + ms, 0);
    return {
      perPage: Number(new URL(answer.url).searchParams.get('per_page') ?? Number.NaN),
      listRows,
      answerToRowsMs: times.rowsAt - answer.responseEnd,
      changeToRowsMs: times.rowsAt - times.armedAt,
      longestTaskMs,
      scrollFps: intervals.length > 0 ? (intervals.length / total) * 1000 : Number.NaN,
      scrollFrameP95Ms: percentile(intervals, 95),
      scrollLongestTaskMs,
      scrollFrames: intervals.length,
    };
  } finally {
    await context.close();
  }
}

/** The inbox screen on `form` of `sandbox`, with a server of the build in `distDir` in front of it (the local demo). */
export async function runInboxScreenBenchmark(
  distDir: string,
  sandbox: RunningProcess,
  form: string,
  rounds: number,
  log: (line: string) => void,
): Promise<InboxScreenFigures> {
  const server = await startServer(onSandbox(distDir, sandbox));
  const browser = await launchBrowser();
  try {
    await withRetry('inbox warm-up', () => inboxRound(browser, server.origin, form), log); // Unmeasured.
    const runs: RoundFigures[] = [];
    for (let r = 0; r < rounds; r += 1) {
      runs.push(await withRetry('inbox', () => inboxRound(browser, server.origin, form), log));
      const last = runs[runs.length - 1];
      log(
        `  inbox screen, round ${r + 1}/${rounds}: answer → rows ${round(last?.answerToRowsMs ?? Number.NaN)} ms, longest task ${round(last?.longestTaskMs ?? Number.NaN)} ms, ${round(last?.scrollFps ?? Number.NaN, 0)} fps`,
      );
    }
    const med = (key: keyof RoundFigures) => round(median(runs.map((run) => run[key])));
    return {
      runs: runs.length,
      perPage: med('perPage'),
      listRows: med('listRows'),
      answerToRowsMs: med('answerToRowsMs'),
      answerToRowsRunsMs: runs.map((run) => round(run.answerToRowsMs)),
      changeToRowsMs: med('changeToRowsMs'),
      longestTaskMs: med('longestTaskMs'),
      longestTaskMaxMs: round(Math.max(...runs.map((run) => run.longestTaskMs))),
      longestTaskRunsMs: runs.map((run) => round(run.longestTaskMs)),
      scrollFps: round(median(runs.map((run) => run.scrollFps)), 0),
      scrollFrameP95Ms: med('scrollFrameP95Ms'),
      scrollLongestTaskMs: med('scrollLongestTaskMs'),
      scrollFrames: med('scrollFrames'),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** The screen's rows of the bench's table. */
export function inboxScreenRows(area: string, figures: InboxScreenFigures): [string, string, string, string][] {
  const over = figures.longestTaskRunsMs.filter((ms) => ms > 0);
  const longest =
    over.length === 0
      ? `none over 50 ms in ${figures.runs} of ${figures.runs} rounds`
      : `${figures.longestTaskMs === 0 ? 'none over 50 ms' : `${figures.longestTaskMs} ms`} at the median; over 50 ms in ${over.length} of ${figures.runs} rounds (${over.join(', ')} ms)`;
  return [
    [
      area,
      `In Chromium, a new list of ${figures.perPage} per page (of ${figures.listRows.toLocaleString('en')}): its answer (responseEnd) → rows filling the list, painted`,
      `${figures.answerToRowsMs} ms (runs: ${figures.answerToRowsRunsMs.join(', ')}); from the address's change: ${figures.changeToRowsMs} ms`,
      '≤ 150 ms',
    ],
    [area, 'In Chromium, longest main-thread task, address changed → settled (Long Tasks API)', longest, '≤ 50 ms'],
    [
      area,
      `In Chromium, scrolling the page's rows half a box per frame (${figures.scrollFrames} frames): fps; p95 frame; longest task meanwhile`,
      `${figures.scrollFps} fps; ${figures.scrollFrameP95Ms} ms; ${figures.scrollLongestTaskMs === 0 ? 'none over 50 ms' : `${figures.scrollLongestTaskMs} ms`}`,
      'display rate',
    ],
  ];
}
