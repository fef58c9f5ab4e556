/** What the import's end-to-end tests share: a browser with no import left in it, and what the sandbox stored. */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { SANDBOX } from './sandbox';

/** No import, column mapping or created list left from an earlier test (localStorage and IndexedDB). */
export async function forgetImports(page: Page) {
  await page.goto('/cases');
  await page.evaluate(async () => {
    localStorage.clear();
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase('site-admin');
      request.onsuccess = request.onerror = request.onblocked = () => resolve(null);
    });
  });
}

/** Every product the sandbox stored whose slug starts with `prefix`, by slug: how many times, and the last body. */
export async function storedProducts(request: APIRequestContext, prefix: string) {
  const response = await request.get(`${SANDBOX.origin}/__sandbox/products?limit=1000`, { headers: SANDBOX.headers });
  expect(response.ok()).toBe(true);
  const { products } = (await response.json()) as { products: { body: Record<string, unknown> & { slug?: string } }[] };
  const bySlug = new Map<string, { count: number; body: Record<string, unknown> }>();
  for (const { body } of products) {
    if (!body.slug?.startsWith(prefix)) continue;
    bySlug.set(body.slug, { count: (bySlug.get(body.slug)?.count ?? 0) + 1, body });
  }
  return bySlug;
}
