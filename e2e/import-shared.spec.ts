/**
 * An import is the team's, not one browser's: started in one browser and paused, it opens in another (a
 * colleague, or the same person elsewhere) with what was created; it cannot be run from there while the
 * first runs it (told who); once let go it resumes there, and the products the first created are never
 * sent again: the sandbox stores each product once.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { IMPORT_PRODUCT_HEADER, IMPORT_RUNNER_HEADER, IMPORTS_PATHS, type ImportSummary } from '../src/contract/imports';
import { forgetImports, storedProducts } from './imports';

const CREATE = '**/ecommerce/products/create';
const slugOf = (route: Route) => (JSON.parse(route.request().postData() ?? '{}') as { slug?: string }).slug ?? '';
const summary = (page: Page) => page.getByRole('status', { name: 'Import summary' });

test('an import started and paused in one browser resumes in another, and nothing the first created is sent again', async ({
  page,
  browser,
  request,
}) => {
  await forgetImports(page);
  const id = `ims${Date.now().toString(36)}`;
  const first: string[] = [];
  const held: Route[] = [];
  await page.route(CREATE, async (route) => {
    first.push(slugOf(route));
    // The third product waits in the first browser: it is running, with a product on its way.
    if (first.length === 3) {
      held.push(route);
      return;
    }
    await route.continue();
  });
  await page.goto('/products/import');
  const rows = Array.from({ length: 6 }, (_, i) => `Product ${i + 1},${id}-${i + 1},${i + 1}`);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'six.csv', mimeType: 'text/csv', buffer: Buffer.from(['Name,Slug,USD Price', ...rows].join('\n'), 'utf8') });
  await expect(summary(page)).toContainText('6 ready');
  await page.getByLabel('At a time').fill('1');
  await page.getByRole('button', { name: 'Create 6 products' }).click();
  await expect.poll(() => held.length).toBe(1);

  // A second browser opens the same import, with what was created, and is told who runs it.
  const other = await browser.newContext();
  const second = await other.newPage();
  const sent: string[] = [];
  await second.route(CREATE, async (route) => {
    sent.push(slugOf(route));
    await route.continue();
  });
  await second.goto('/products/import');
  await expect(second.getByText('six.csv')).toBeVisible();
  await expect(second.getByText(/Local demo is running this import since \d{1,2}:\d{2}/)).toBeVisible();
  await expect(summary(second)).toContainText('2 created');
  await expect(second.getByRole('button', { name: /^Resume: create the/ })).toBeDisabled();
  // The server itself refuses a run while the first holds it.
  const origin = new URL(second.url()).origin;
  const { imports } = (await (await second.request.get(`${origin}${IMPORTS_PATHS.list}?site=main`)).json()) as { imports: ImportSummary[] };
  const importId = imports[0]?.id ?? '';
  const refused = await second.request.post(`${origin}${IMPORTS_PATHS.run.replace(':id', importId)}`, {
    headers: { origin, 'content-type': 'application/json' },
    data: {},
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toMatch(/^Local demo is running this import since/);

  // The first pauses; the product on its way is answered; the run is let go.
  await page.getByRole('button', { name: 'Pause' }).click();
  await held[0]?.continue();
  await expect(summary(page)).toContainText('3 created');

  // The second sees it, takes the run, and sends only what is left.
  await expect(second.getByText(/is running this import/)).toHaveCount(0);
  await expect(summary(second)).toContainText('3 created');
  await second.getByRole('button', { name: 'Resume: create the 3 ready' }).click();
  await expect(second.getByText('Finished: 3 of 3 answered')).toBeVisible();
  await expect(summary(second)).toContainText('6 created');
  expect(sent.sort()).toEqual([4, 5, 6].map((n) => `${id}-${n}`));

  // A product the first created, sent again by hand with the import's header: refused, and never stored twice.
  const again = await second.request.post(`${origin}/api/site/v2/ecommerce/products/create`, {
    headers: { origin, 'content-type': 'application/json', [IMPORT_PRODUCT_HEADER]: `${importId}/0`, [IMPORT_RUNNER_HEADER]: 'none' },
    data: { name: 'Product 1', slug: `${id}-1`, enabled: 'true' },
  });
  expect(again.status()).toBe(409);
  const products = await storedProducts(request, id);
  expect([...products.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `${id}-${n}`));
  expect([...products.values()].every((p) => p.count === 1)).toBe(true);

  // The first browser follows: the same import, everything created.
  await expect(summary(page)).toContainText('6 created');
  await other.close();

  // The run is in the activity record: started, paused (the first), resumed (the second), finished.
  for (const action of ['import.started', 'import.paused', 'import.resumed', 'import.finished']) {
    const listed = await page.request.get(`${origin}/api/activity?action=${action}`);
    const { entries } = (await listed.json()) as { entries: { target: { name: string | null } }[] };
    expect(
      entries.some((entry) => entry.target.name === 'six.csv'),
      action,
    ).toBe(true);
  }
});

test('without the server, the page shows this browser’s copy and says so; sending waits until it is back', async ({ page }) => {
  await forgetImports(page);
  await page.goto('/products/import');
  const id = `off${Date.now().toString(36)}`;
  const rows = Array.from({ length: 3 }, (_, i) => `Product ${i + 1},${id}-${i + 1},${i + 1}`);
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'offline.csv', mimeType: 'text/csv', buffer: Buffer.from(['Name,Slug,USD Price', ...rows].join('\n'), 'utf8') });
  await expect(summary(page)).toContainText('3 ready');
  // The server has it (and so does this browser) before it goes away.
  const origin = new URL(page.url()).origin;
  await expect(async () => {
    const { imports } = (await (await page.request.get(`${origin}${IMPORTS_PATHS.list}?site=main`)).json()) as { imports: ImportSummary[] };
    expect(imports.map((one) => one.fileName)).toEqual(['offline.csv']);
  }).toPass();

  // The imports on the server cannot be reached (the rest of the app can).
  await page.route('**/api/imports**', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByText('The server cannot be reached')).toBeVisible();
  await expect(page.getByText(/This is this browser’s copy of the import/)).toBeVisible();
  await expect(page.getByText('offline.csv')).toBeVisible();
  await expect(summary(page)).toContainText('3 ready');
  await expect(page.getByRole('button', { name: 'Create 3 products' })).toBeDisabled();

  // Back: the same import, from the server, and it can be sent.
  await page.unroute('**/api/imports**');
  await page.reload();
  await expect(page.getByText('offline.csv')).toBeVisible();
  await expect(page.getByText('The server cannot be reached')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create 3 products' }).click();
  await expect(summary(page)).toContainText('3 created');
});
