/**
 * One pass through the product editor with an N × M product, in a fresh browser context: restore the
 * draft (which opens the Attributes step), expand the last attribute and its last option, type into
 * the option's name and into one of its price cells, then open Review.
 */
import type { Browser, Page } from '@playwright/test';
import { heapAfterGc, newBenchContext, timeToPaint, typeAndMeasure } from './browser';
import { KEY_DELAY_MS, type KeystrokeFigures } from './keystrokes';
import { IMPORTS_PATHS, importPath } from '../src/contract/imports';
import { DRAFT_KEY, draftJson, type ProductSize } from './product-fixture';

const NAME_KEYS = [...'extra large, gift wrapped, with a handwritten card 1'];
const PRICE_KEYS = [...'12.5012.5012.5012.5012.5012.5012.5012.5012.5012.5012'];

/**
 * Slows the page's CPU by `rate` (Chromium's own throttling, DevTools' "4× slowdown": a mid-range laptop
 * beside this machine). 1 leaves it as it is.
 */
export async function throttleCpu(page: Page, rate: number): Promise<void> {
  if (rate === 1) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/**
 * Typing measured as `typeAndMeasure` does, plus the main thread's busy time per key (Chromium's
 * TaskDuration, from its own counters over the session): what a keystroke costs the page, far steadier
 * than any latency, which is rounded to frames.
 */
export async function typeAndMeasureCpu(page: Page, keys: readonly string[]): Promise<KeystrokeFigures> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Performance.enable');
    const taskSeconds = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'TaskDuration')?.value ?? Number.NaN;
    };
    const before = await taskSeconds();
    const figures = await typeAndMeasure(page, keys, KEY_DELAY_MS);
    const after = await taskSeconds();
    return { ...figures, taskMsPerKey: ((after - before) * 1000) / Math.max(keys.length, 1) };
  } finally {
    await cdp.detach();
  }
}

export interface EditorRun {
  /** Click on "Resume draft" → the last attribute summary painted. */
  attributesPaintMs: number;
  /** JS heap in use after GC, with the product on screen. */
  heapMB: number;
  /** Click → the attribute's name field and option summaries painted. */
  expandAttributeMs: number;
  /** Click → the option's fields and price grid painted. */
  expandOptionMs: number;
  optionName: KeystrokeFigures;
  priceCell: KeystrokeFigures;
  /** Click on "Next: Review" → the review's last card (the JSON) painted. */
  reviewMs: number;
}

/**
 * The floor: the same keys typed into a bare <input> on an empty page (no app, no framework) in the same
 * browser. No page can beat it: it is the browser's own input and frame cost on this machine. `keys` are
 * the keys of the session it stands beside (the editor's by default).
 */
export async function controlSession(
  browser: Browser,
  origin: string,
  keys: readonly string[] = NAME_KEYS,
  cpuRate = 1,
): Promise<KeystrokeFigures> {
  const context = await newBenchContext(browser, origin);
  try {
    await context.route('**/__bench-control', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>control</title><input aria-label="Control">' }),
    );
    const page = await context.newPage();
    await page.goto('/__bench-control');
    await page.getByLabel('Control').click();
    await throttleCpu(page, cpuRate);
    return await typeAndMeasureCpu(page, keys);
  } finally {
    await context.close();
  }
}

export async function editorSession(browser: Browser, origin: string, size: ProductSize, cpuRate = 1): Promise<EditorRun> {
  const context = await newBenchContext(browser, origin);
  try {
    await context.addInitScript(
      ({ key, value }) => {
        try {
          localStorage.setItem(key, value);
        } catch {
          // about:blank and other opaque origins have no storage.
        }
      },
      { key: DRAFT_KEY, value: draftJson(size) },
    );
    const page = await context.newPage();
    await throttleCpu(page, cpuRate);
    await page.goto('/products/new');
    const restore = page.getByRole('button', { name: /^Resume draft/ });
    await restore.waitFor();

    const a = size.attributes - 1;
    const o = size.options - 1;
    const section = page.locator(`section[aria-label="Attribute ${size.attributes}"]`);
    const attributesPaintMs = await timeToPaint(page, 'click', `section[aria-label="Attribute ${size.attributes}"]`, () => restore.click());
    const heapMB = (await heapAfterGc(page)) / 2 ** 20;

    const expandAttributeMs = await timeToPaint(page, 'click', `input[name="attributes.${a}.name"]`, () =>
      section.getByRole('button', { name: `Expand attribute ${size.attributes}:` }).click(),
    );
    const option = `attributes.${a}.options.${o}`;
    const expandOptionMs = await timeToPaint(page, 'click', `input[name="${option}.prices.usd.1"]`, () =>
      section.getByRole('button', { name: `Expand option ${size.options}:` }).click(),
    );

    const name = page.locator(`input[name="${option}.name"]`);
    await name.click();
    await name.press('End');
    const optionName = await typeAndMeasureCpu(page, NAME_KEYS);

    const cell = page.locator(`input[name="${option}.prices.usd.0"]`);
    await cell.click();
    await cell.press('End');
    const priceCell = await typeAndMeasureCpu(page, PRICE_KEYS);
    // Back to readable values, so that Next is not stopped by the step's checks.
    await cell.fill('2.50');
    await name.fill(`Choice ${size.options}`);

    const reviewMs = await timeToPaint(page, 'click', 'section[aria-label="JSON to send"]', () =>
      page.getByRole('button', { name: 'Next: Review' }).click(),
    );
    return { attributesPaintMs, heapMB, expandAttributeMs, expandOptionMs, optionName, priceCell, reviewMs };
  } finally {
    await context.close();
  }
}

/** A file of 200 products for the import grid's keystrokes: enough rows that the grid scrolls. */
function gridFile(): string {
  const rows = Array.from({ length: 200 }, (_, i) => `Product ${i},bench-keys-${i},${i}.99,Size,S,0,1`);
  return ['Name,Slug,USD Price,Attribute name,Option name,USD Added to price,Stock', ...rows].join('\n');
}

/**
 * The import grid: a file chosen, a Name cell of the grid opened for editing (a click), then the same keys
 * as the option name typed into it.
 */
export async function importGridSession(browser: Browser, origin: string, cpuRate = 1): Promise<KeystrokeFigures> {
  const context = await newBenchContext(browser, origin);
  try {
    const page = await context.newPage();
    await page.goto('/products/import');
    // An import left open by an earlier session opens instead of the file picker: discard it first.
    const listed = await page.request.get(`${origin}${IMPORTS_PATHS.list}?site=main`);
    const { imports } = (await listed.json()) as { imports: { id: string }[] };
    for (const { id } of imports) await page.request.delete(`${origin}${importPath(IMPORTS_PATHS.one, id)}`, { headers: { origin } });
    await page.goto('/products/import');
    await page.locator('input[type="file"]').setInputFiles({ name: 'keys.csv', mimeType: 'text/csv', buffer: Buffer.from(gridFile()) });
    const grid = page.getByRole('grid', { name: 'Rows of the file' });
    await grid.getByRole('button', { name: /^Row 4, Name: Product 2, edit$/ }).click();
    const input = grid.getByRole('textbox', { name: 'Row 4, Name' });
    await input.waitFor();
    await input.press('End');
    await throttleCpu(page, cpuRate);
    return await typeAndMeasureCpu(page, NAME_KEYS);
  } finally {
    await context.close();
  }
}
