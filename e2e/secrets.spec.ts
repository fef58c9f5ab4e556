import { expect, test } from '@playwright/test';

// The key the server sends to the sandbox in the end-to-end runs (the sandbox's default).
const KEY = 'sandbox-local-key';

test('no request or response the browser sees carries the API key, through a lookup and a create', async ({ page }) => {
  const seen: string[] = [];
  page.on('request', (request) => {
    seen.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? '');
  });
  page.on('response', async (response) => {
    seen.push(JSON.stringify(await response.allHeaders()));
    seen.push(await response.text().catch(() => ''));
  });

  await page.goto('/cases/3/48217');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/products/new');
  await page.getByLabel('Name').fill(`Secret-free ${Date.now()}`);
  for (let step = 0; step < 4; step += 1) await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();

  expect(seen.some((entry) => entry.includes('/api/site/v2/ecommerce/products/create'))).toBe(true);
  for (const entry of seen) expect(entry).not.toContain(KEY);
  // And nothing the page keeps knows it either.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.documentElement.outerHTML);
  expect(stored).not.toContain(KEY);
});
