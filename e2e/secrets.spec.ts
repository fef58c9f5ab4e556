import { expect, test, type Page } from '@playwright/test';

// The key the server sends to the sandbox in the end-to-end runs (the sandbox's default).
const KEY = 'sandbox-local-key';

/**
 * Records every request and response the page sees. Reading a response's body is asynchronous, so the
 * returned `settled()` waits for every body read so far: a check made before it could miss the last one.
 */
function recordTraffic(page: Page) {
  const seen: string[] = [];
  const reads: Promise<void>[] = [];
  page.on('request', (request) => {
    seen.push(request.url(), JSON.stringify(request.headers()), request.postData() ?? '');
  });
  page.on('response', (response) => {
    reads.push(
      (async () => {
        seen.push(JSON.stringify(await response.allHeaders()));
        // A body the browser has already dropped (the page moved on) cannot be read: nothing to check.
        seen.push(await response.text().catch(() => ''));
      })(),
    );
  });
  return {
    seen,
    settled: async () => {
      await Promise.all(reads);
      return seen;
    },
  };
}

test('no request or response the browser sees carries the API key: the first page, a lookup and a create', async ({ page }) => {
  const traffic = recordTraffic(page);

  // The first page: the app, the site it works on, and a case.
  await page.goto('/cases/3/48217');
  await expect(page.getByText('Sandbox · site 1001')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /case 48217/ })).toBeVisible();
  await page.goto('/products/new');
  await page.getByLabel('Name').fill(`Secret-free ${Date.now()}`);
  for (let step = 0; step < 4; step += 1) await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();

  const seen = await traffic.settled();
  // The site the page works on came from the server (without a key).
  expect(seen.some((entry) => entry.includes('/api/sites'))).toBe(true);
  expect(seen.some((entry) => entry.includes('/api/site/v2/ecommerce/products/create'))).toBe(true);
  // The create's own answer (the sandbox answers the record, with its id) was read before checking.
  expect(seen.some((entry) => entry.startsWith('{"id":') && entry.includes('"name":"Secret-free'))).toBe(true);
  for (const entry of seen) expect(entry).not.toContain(KEY);
  // And nothing the page keeps knows it either.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.documentElement.outerHTML);
  expect(stored).not.toContain(KEY);
});
