/**
 * Headless Chromium as the end-to-end tests run it, with the probes of page-probes.ts in every page.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import playwrightConfig from '../playwright.config';
import { findChromium } from '../scripts/find-chromium.mjs';
import { keystrokeFigures, type KeystrokeFigures } from './keystrokes';
import { installProbes, NAME_SHIM } from './page-probes';

export function launchBrowser(): Promise<Browser> {
  // The same flags as the end-to-end tests.
  const args = playwrightConfig.use?.launchOptions?.args ?? [];
  return chromium.launch({ executablePath: findChromium(), args, headless: true });
}

export async function newBenchContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await context.addInitScript(NAME_SHIM);
  await context.addInitScript(installProbes);
  // A page that breaks shows only an error screen: say why in the log, not just that a wait timed out.
  context.on('weberror', (error) => console.error(`  page error: ${error.error().message}`));
  return context;
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('The bench probes are not installed in this page.');
  return value;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs `action` (a click or a key press) and returns the ms from that input event to the next paint
 * after `selector` matches `count` elements.
 */
export async function timeToPaint(
  page: Page,
  trigger: 'click' | 'keydown',
  selector: string,
  action: () => Promise<void>,
  count = 1,
): Promise<number> {
  await page.evaluate(([t, s, c]) => window.__bench?.arm(t, s, c), [trigger, selector, count] as const);
  await action();
  return required(
    await withTimeout(
      page.evaluate(() => window.__bench?.result()),
      60_000,
      selector,
    ),
  );
}

/**
 * Presses `keys` one by one (keydown, `delayMs`, keyup) in the focused element and measures each: a
 * character ("a", " ") or a key name ("Backspace").
 */
export async function typeAndMeasure(page: Page, keys: readonly string[], delayMs: number): Promise<KeystrokeFigures> {
  await page.evaluate(() => window.__bench?.startTyping());
  for (const key of keys) await page.keyboard.press(key, { delay: delayMs });
  return keystrokeFigures(required(await page.evaluate(() => window.__bench?.stopTyping())));
}

/** JS heap in use after a full garbage collection, in bytes. */
export async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    return usedSize;
  } finally {
    await cdp.detach();
  }
}

let retried = 0;
/** Sessions that failed once and passed on a second try in this run (reported with the figures). */
export const retriedSessions = () => retried;

/**
 * One retry for a browser session: on a shared, loaded machine a page can time out once; a second
 * failure is a real problem and ends the run.
 */
export async function withRetry<T>(label: string, session: () => Promise<T>, log: (line: string) => void): Promise<T> {
  try {
    return await session();
  } catch (error) {
    retried += 1;
    log(`  ${label} failed, trying once more: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return session();
  }
}
