/**
 * One pass through the product editor with an N × M product, in a fresh browser context: restore the
 * draft (which opens the Attributes step), expand the last attribute and its last option, type into
 * the option's name and into one of its price cells, then open Review.
 */
import type { Browser } from '@playwright/test';
import { heapAfterGc, newBenchContext, timeToPaint, typeAndMeasure } from './browser';
import { KEY_DELAY_MS, type KeystrokeFigures } from './keystrokes';
import { DRAFT_KEY, draftJson, type ProductSize } from './product-fixture';

const NAME_KEYS = [...'extra large, gift wrapped, with a handwritten card 1'];
const PRICE_KEYS = [...'12.5012.5012.5012.5012.5012.5012.5012.5012.5012.5012'];

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
export async function controlSession(browser: Browser, origin: string, keys: readonly string[] = NAME_KEYS): Promise<KeystrokeFigures> {
  const context = await newBenchContext(browser, origin);
  try {
    await context.route('**/__bench-control', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>control</title><input aria-label="Control">' }),
    );
    const page = await context.newPage();
    await page.goto('/__bench-control');
    await page.getByLabel('Control').click();
    return await typeAndMeasure(page, keys, KEY_DELAY_MS);
  } finally {
    await context.close();
  }
}

export async function editorSession(browser: Browser, origin: string, size: ProductSize): Promise<EditorRun> {
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
    const optionName = await typeAndMeasure(page, NAME_KEYS, KEY_DELAY_MS);

    const cell = page.locator(`input[name="${option}.prices.usd.0"]`);
    await cell.click();
    await cell.press('End');
    const priceCell = await typeAndMeasure(page, PRICE_KEYS, KEY_DELAY_MS);
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
