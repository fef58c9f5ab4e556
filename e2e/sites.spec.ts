/**
 * The server of several sites (the `sites` project: SITE_PROFILE=server/site-profile.example.json, see
 * playwright.config.ts, whose E2E.sitesURL is this project's baseURL).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';

const sandboxOf = (siteId: string) => ({ 'x-api-key': 'sandbox-local-key', 'x-site-id': siteId });

async function storedOn(request: APIRequestContext, siteId: string, slug: string) {
  const res = await request.get(`${E2E.sitesSandboxOrigin}/__sandbox/products?limit=50`, { headers: sandboxOf(siteId) });
  expect(res.ok()).toBe(true);
  const { products } = (await res.json()) as { products: { body: Record<string, unknown> & { slug?: string } }[] };
  return products.find((p) => p.body.slug === slug)?.body;
}

test('an address without a site opens the first; the switcher names each site and moves to the other', async ({ page }) => {
  await page.goto('/cases');
  await expect(page).toHaveURL(/\/s\/harbour-linen\/cases$/);
  const switcher = page.getByRole('button', { name: /^Harbour Linen Sandbox, the current site/ });
  await expect(switcher).toBeVisible();
  await switcher.click();
  await page.getByRole('menuitem', { name: /Summit Outfitters/ }).click();
  await expect(page).toHaveURL(/\/s\/summit-outfitters\/cases$/);
  await expect(page.getByRole('button', { name: /^Summit Outfitters Sandbox, the current site/ })).toBeVisible();
});

/** Holds the switcher's menu (a chunk of its own) until the test lets it through. */
async function holdSwitcherMenu(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/site-switcher-*.js', async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

test('the switcher’s menu loads after the header; pressed before it is there, it opens once it is', async ({ page }) => {
  const release = await holdSwitcherMenu(page);
  await page.goto('/s/harbour-linen/cases');
  const switcher = page.getByRole('button', { name: /^Harbour Linen Sandbox, the current site/ });
  await switcher.click();
  await expect(page.getByRole('menuitem')).toHaveCount(0);
  release();
  await expect(page.getByRole('menuitem', { name: /Summit Outfitters/ })).toBeVisible();
});

test('focused before its menu is there, the switcher keeps the keyboard’s focus when the menu arrives, and Enter opens it', async ({
  page,
}) => {
  const release = await holdSwitcherMenu(page);
  await page.goto('/s/harbour-linen/cases');
  const switcher = page.getByRole('button', { name: /^Harbour Linen Sandbox, the current site/ });
  await switcher.focus();
  release();
  // The menu's button takes the place of the first one: the focus moves with it.
  await expect(switcher).toHaveAttribute('aria-haspopup', 'menu');
  await expect(switcher).toBeFocused();
  await page.waitForLoadState('networkidle');
  await expect(switcher).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem').first()).toBeFocused();
});

test('a deep link opens a case on its own site; the same case on the other site is not there', async ({ page }) => {
  await page.goto('/s/summit-outfitters/cases/12/61001');
  await expect(page.getByRole('heading', { level: 2, name: /case 61001/ })).toBeVisible();
  await page.goto('/s/harbour-linen/cases/12/61001');
  await expect(page.getByText(/No case 61001 in form 12/)).toBeVisible();
});

test('a link to a site the server does not have says so, and lists the sites it has', async ({ page }) => {
  await page.goto('/s/no-such-site/cases/3/48217');
  await expect(page.getByRole('heading', { level: 1, name: 'No site called “no-such-site”' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Harbour Linen' })).toHaveAttribute('href', '/s/harbour-linen/cases');
});

test('the case viewer names the form and its fields as the site profile does', async ({ page }) => {
  await page.goto('/s/harbour-linen/cases/3/48217');
  await expect(page.getByRole('heading', { level: 2, name: /case 48217/ })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: /^Phone/ })).toBeVisible();
});

test('a product on an AUD/NZD site with 4 decimals: labels from the profile, categories by name, and only its currencies sent', async ({
  page,
  request,
}) => {
  const slug = `harbour-throw-${Date.now()}`;
  await page.goto('/s/harbour-linen/products/new');
  await page.getByLabel('Name').fill('Harbour throw');
  await page.getByLabel('Slug').fill(slug);
  // The profile's default weighting is already there.
  await expect(page.getByLabel('Weighting')).toHaveValue('10');
  await page.getByRole('button', { name: /^Next:/ }).click();

  // Categories are picked by name; the profile's default (Bedding) is already chosen.
  const categories = page.getByRole('combobox', { name: 'Categories' });
  await categories.click();
  await categories.fill('thro');
  await page.getByRole('option', { name: 'Bedding › Throws' }).click();
  await page.keyboard.press('Escape');
  await page.getByLabel('Description').fill('Stonewashed linen.');
  await page.getByRole('button', { name: /^Next:/ }).click();

  // Only the site's currencies, only its tiers; prices with four decimals.
  await expect(page.getByRole('textbox', { name: /^USD / })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'AUD Price tier 3' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'AUD Price', exact: true }).fill('49.9950');
  await page.getByRole('textbox', { name: 'NZD Price', exact: true }).fill('54');
  await page.getByRole('textbox', { name: 'NZD Price', exact: true }).press('Tab');
  await expect(page.getByRole('textbox', { name: 'NZD Price', exact: true })).toHaveValue('54.0000');
  await page.getByRole('combobox', { name: 'Inventory type' }).click();
  await page.getByRole('option', { name: 'Stock per option' }).click();
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: /^Next:/ }).click();

  await expect(page.getByText('Ready to create')).toBeVisible();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();

  const body = await storedOn(request, '1001', slug);
  expect(body).toEqual({
    name: 'Harbour throw',
    slug,
    enabled: 'true',
    weighting: '10',
    // The profile's encoding: ids, as the platform stores them.
    category_array: ['158198', '158199'],
    'module_field_14/product_1': 'Stonewashed linen.',
    'module_field_14/product/inventory/1': 'attribute',
    'module_field_14/product/price/aud/1': '499950',
    'module_field_14/product/price/nzd/1': '540000',
  });
  // Nothing reached the other site.
  expect(await storedOn(request, '1002', slug)).toBeUndefined();
});

test('a draft stays on its site', async ({ page }) => {
  await page.goto('/s/harbour-linen/products/new');
  await page.getByLabel('Name').fill('Harbour draft');
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).join(' '))).toContain('site-admin:product-drafts:v2@harbour-linen');
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto('/s/summit-outfitters/products/new');
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByText('You have an unfinished product')).toHaveCount(0);
  await page.goto('/s/harbour-linen/products/new');
  await expect(page.getByText('You have an unfinished product')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Drafts' }).getByRole('listitem').filter({ hasText: 'Harbour draft' })).toBeVisible();
});
