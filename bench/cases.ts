/**
 * Case viewer with an 800-field case, looked up through the proxy as in use: from the answer's arrival
 * (Resource Timing's `responseEnd` of the lookup) to the first screen of rows painted; from Enter to
 * every row available; the longest main-thread task from Enter until the page settles (Long Tasks API);
 * then keystrokes in the field filter, beside the same keys typed into a bare <input> (the Control).
 * Medians over several sessions, the Control interleaved with them round by round.
 */
import type { Browser, Page } from '@playwright/test';
import { newBenchContext, typeAndMeasure, withRetry } from './browser';
import { addBigCase, CASE_FIELDS, CASE_FORM, CASE_ROWS } from './case-fixture';
import { controlSession } from './editor-session';
import { KEY_DELAY_MS, summariseKeystrokes, type KeystrokeFigures, type KeystrokeSummary } from './keystrokes';
import { median, round } from './stats';

/** Queries typed and then deleted key by key: narrowing, then widening back to all rows. */
const FILTER_KEYS = ['field 4', 'example', 'order 2026', 'cuba'].flatMap((query) => [...query, ...Array.from(query, () => 'Backspace')]);

/** After every row is available, long tasks are still counted for this long (effects, late batches). */
const SETTLE_MS = 500;

export interface CasesFigures {
  fields: number;
  /** Rows of the table: the submitted fields and the record's own keys. */
  rows: number;
  runs: number;
  /** The lookup's answer received (its responseEnd) → the first screen of rows painted. */
  firstScreenMs: number;
  /** Enter in the lookup form → the first screen of rows painted (the lookup's round trip included). */
  enterToFirstScreenMs: number;
  /**
   * Enter → every row available, painted: all rows in the page, or, for a table that renders only the
   * rows in view, the table announcing all of them (aria-rowcount) with its first screen painted.
   */
  allRowsMs: number;
  /** Longest main-thread task from Enter until every row is available and SETTLE_MS more. */
  longestTaskMs: number;
  filter: KeystrokeSummary;
  /** Longest main-thread task while typing in the filter. */
  filterLongestTaskMs: number;
  /** The same keys in a bare <input> on an empty page: the floor on this machine. */
  control: KeystrokeSummary;
}

interface LookupTimes {
  enterAt: number;
  responseEnd: number;
  firstScreenAt: number;
  allRowsAt: number;
}

interface CaseProbe {
  /** From the next Enter: watches every frame for the first screen of rows and for all rows. */
  arm(rowSelector: string, tableSelector: string, total: number): void;
  /** The armed lookup's times (performance.now() clock), once both are painted and the answer is known. */
  result(casePath: string): Promise<LookupTimes>;
  /** Longest task that started between the two times, in ms (0 for none). */
  longestTask(from: number, to: number): number;
}

declare global {
  interface Window {
    __cases?: CaseProbe;
  }
}

/**
 * Installed before the app loads (self-contained: Playwright sends its source). Each frame, before its
 * layout, it looks at the rows: the first screen is there when the last row in the page reaches the
 * bottom of the window (or every row is in the page); the time is taken after that frame's paint (a task
 * posted from the frame), as the keystroke probe does.
 */
function installCaseProbe() {
  const tasks: { start: number; duration: number }[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const afterThisPaint = (callback: () => void) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(null);
  };
  let pending: Promise<Omit<LookupTimes, 'responseEnd'>> = Promise.reject(new Error('not armed'));
  pending.catch(() => undefined);
  window.__cases = {
    arm(rowSelector, tableSelector, total) {
      pending = new Promise((resolve) => {
        let enterAt = 0;
        let firstScreenAt: number | null = null;
        let allRowsAt: number | null = null;
        let firstSeen = false;
        let allSeen = false;
        const finish = () => {
          if (firstScreenAt !== null && allRowsAt !== null) resolve({ enterAt, firstScreenAt, allRowsAt });
        };
        const frame = () => {
          const rows = document.querySelectorAll(rowSelector);
          const last = rows[rows.length - 1];
          if (!firstSeen && last && (rows.length >= total || last.getBoundingClientRect().bottom >= window.innerHeight)) {
            firstSeen = true;
            afterThisPaint(() => {
              firstScreenAt = performance.now();
              finish();
            });
          }
          const declared = Number(document.querySelector(tableSelector)?.getAttribute('aria-rowcount') ?? 0);
          if (!allSeen && firstSeen && (rows.length >= total || declared > total)) {
            allSeen = true;
            afterThisPaint(() => {
              allRowsAt = performance.now();
              finish();
            });
          }
          if (!allSeen) requestAnimationFrame(frame);
        };
        const onKey = (event: KeyboardEvent) => {
          if (event.key !== 'Enter') return;
          window.removeEventListener('keydown', onKey, true);
          enterAt = event.timeStamp;
          requestAnimationFrame(frame);
        };
        window.addEventListener('keydown', onKey, true);
      });
    },
    async result(casePath) {
      const times = await pending;
      const lookups = performance
        .getEntriesByType('resource')
        .filter((entry): entry is PerformanceResourceTiming => entry.name.endsWith(casePath) && entry.startTime >= times.enterAt);
      const answer = lookups[lookups.length - 1];
      if (!answer) throw new Error(`No lookup of ${casePath} in Resource Timing`);
      return { ...times, responseEnd: answer.responseEnd };
    },
    longestTask: (from, to) => Math.max(0, ...tasks.filter((task) => task.start >= from && task.start <= to).map((task) => task.duration)),
  };
}

interface SessionFigures {
  firstScreenMs: number;
  enterToFirstScreenMs: number;
  allRowsMs: number;
  longestTaskMs: number;
  filter: KeystrokeFigures;
  filterLongestTaskMs: number;
}

const probe = (page: Page) =>
  page.evaluate(() => {
    if (!window.__cases) throw new Error('The case probe is not installed in this page.');
  });

async function casesSession(browser: Browser, origin: string, caseId: string): Promise<SessionFigures> {
  const context = await newBenchContext(browser, origin);
  await context.addInitScript(installCaseProbe);
  try {
    const page = await context.newPage();
    await page.goto('/cases');
    await probe(page);
    await page.getByRole('textbox', { name: 'Form identifier' }).fill(CASE_FORM);
    const idBox = page.getByRole('textbox', { name: 'Case identifier' });
    await idBox.fill(caseId);
    // Field rows: one row header each (section titles are column-group headers).
    await page.evaluate((total) => window.__cases?.arm('#main tbody th[scope="row"]', '#main table', total), CASE_ROWS);
    await idBox.press('Enter');
    const times = await page.evaluate((path) => window.__cases?.result(path), `/forms/${CASE_FORM}/cases/${caseId}`);
    if (!times) throw new Error('The case probe gave no result.');
    await page.getByRole('tab', { name: `Fields (${CASE_ROWS})` }).waitFor();
    const settledAt = await page.evaluate(
      (ms) => new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), ms)),
      SETTLE_MS,
    );
    const longestTaskMs = await page.evaluate(([from, to]) => window.__cases?.longestTask(from, to) ?? NaN, [
      times.enterAt,
      settledAt,
    ] as const);

    await page.getByLabel('Filter fields', { exact: true }).click();
    const typingFrom = await page.evaluate(() => performance.now());
    const filter = await typeAndMeasure(page, FILTER_KEYS, KEY_DELAY_MS);
    const filterLongestTaskMs = await page.evaluate((from) => window.__cases?.longestTask(from, performance.now()) ?? NaN, typingFrom);
    return {
      firstScreenMs: times.firstScreenAt - times.responseEnd,
      enterToFirstScreenMs: times.firstScreenAt - times.enterAt,
      allRowsMs: times.allRowsAt - times.enterAt,
      longestTaskMs,
      filter,
      filterLongestTaskMs,
    };
  } finally {
    await context.close();
  }
}

export async function runCasesBenchmark(
  browser: Browser,
  origin: string,
  sandboxOrigin: string,
  rounds: number,
  log: (line: string) => void,
): Promise<CasesFigures> {
  const caseId = await addBigCase(sandboxOrigin);
  await withRetry('warm-up', () => casesSession(browser, origin, caseId), log); // Unmeasured.
  const runs: SessionFigures[] = [];
  const control: KeystrokeFigures[] = [];
  for (let r = 0; r < rounds; r += 1) {
    log(`  round ${r + 1}/${rounds}`);
    runs.push(await withRetry('case viewer', () => casesSession(browser, origin, caseId), log));
    control.push(await withRetry('control', () => controlSession(browser, origin, FILTER_KEYS), log));
  }
  const med = (key: 'firstScreenMs' | 'enterToFirstScreenMs' | 'allRowsMs' | 'longestTaskMs' | 'filterLongestTaskMs') =>
    round(median(runs.map((run) => run[key])));
  return {
    fields: CASE_FIELDS,
    rows: CASE_ROWS,
    runs: runs.length,
    firstScreenMs: med('firstScreenMs'),
    enterToFirstScreenMs: med('enterToFirstScreenMs'),
    allRowsMs: med('allRowsMs'),
    longestTaskMs: med('longestTaskMs'),
    filter: summariseKeystrokes(runs.map((run) => run.filter)),
    filterLongestTaskMs: med('filterLongestTaskMs'),
    control: summariseKeystrokes(control),
  };
}
