/**
 * The Catalogue against the real server and a fresh sandbox: reached from the navigation, its own chunk;
 * the sandbox's demo catalogue (36 products of site 1001, priced in NZD, AUD, USD and GBP) and whatever
 * the other tests of this server created; a product found by its slug, the list sorted by name, and a row
 * opened by keyboard.
 */
import { expect, test, type Page } from '@playwright/test';

const list = (page: Page) => page.getByRole('list', { name: 'Products of Sandbox' });
const rowLink = (page: Page, n: number) => list(page).locator(`[aria-posinset="${n}"]`).getByRole('link');
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search by name or slug' });

/** The names of the rows on screen, in order. */
const namesOnScreen = (page: Page) =>
  list(page)
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.firstElementChild?.textContent ?? ''));

test.describe('catalogue', () => {
  test('from the navigation, its own chunk: the seeded products, one found by its slug, sorted by name, a row opened by keyboard', async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
    await page.goto('/cases');
    await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
    // Nothing of the Catalogue loads with the first page: only opening it does.
    expect(scripts.filter((path) => path.includes('catalogue'))).toEqual([]);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Catalogue/ })
      .click();
    await expect(page).toHaveURL(/\/catalogue$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeVisible();
    expect(scripts.filter((path) => path.includes('catalogue'))).not.toEqual([]);

    // The whole catalogue counted, newest first; the demo's 36 at least.
    const summary = page.getByRole('status').filter({ hasText: /products, newest first$/ });
    await expect(summary).toBeVisible();
    expect(Number((await summary.textContent())?.replace(/\D/g, ''))).toBeGreaterThanOrEqual(36);

    // A seeded product by its slug: name, status, the site's first currency's price (AUD) in the page's locale.
    await search(page).fill('ceramic-table-lamp-charcoal');
    await expect(page).toHaveURL(/\/catalogue\?q=ceramic-table-lamp-charcoal$/);
    await expect(
      page.getByRole('status').filter({ hasText: /^Searched all \d+ products: 1 matches “ceramic-table-lamp-charcoal”$/ }),
    ).toBeVisible();
    await expect(rowLink(page, 1)).toHaveText(
      /^Ceramic table lamp, charcoal, Slug: ceramic-table-lamp-charcoal, Disabled, Price: A\$171\.99, Release: .*2026.*, Expiry: —$/,
    );
    await expect(list(page).getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await expect(page).toHaveURL(/\/catalogue$/);

    // Sorted by the platform, by name: the address says so, and the rows come A to Z.
    await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Name, A to Z' });
    await expect(page).toHaveURL(/\/catalogue\?sort=name&order=asc$/);
    await expect(page.getByRole('status').filter({ hasText: /products, by name, A to Z$/ })).toBeVisible();
    await expect(rowLink(page, 1)).toBeVisible();
    const names = await namesOnScreen(page);
    expect(names.length).toBeGreaterThan(5);
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0)));

    // The keyboard: one Tab stop for the rows, the arrow keys move, Enter opens the product.
    await rowLink(page, 1).focus();
    await page.keyboard.press('ArrowDown');
    await expect(rowLink(page, 2)).toBeFocused();
    const href = await rowLink(page, 2).getAttribute('href');
    expect(href).toMatch(/^\/catalogue\/[1-9]\d*$/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${href ?? ''}$`));
    // Back: the same sorted list, at the row opened.
    await page.goBack();
    await expect(page).toHaveURL(/\/catalogue\?sort=name&order=asc&at=1$/);
    await expect(rowLink(page, 2)).toHaveAttribute('href', href ?? '');
  });
});
