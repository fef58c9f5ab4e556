/**
 * What the import's end-to-end tests share: a server and a browser with no import left in them, and what
 * the sandbox stored.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { IMPORTS_PATHS, importPath, type ImportSummary } from '../src/contract/imports';
import { SANDBOX } from './sandbox';

/**
 * Discards every open import of `site` on the server of `page` (a page left running by an earlier test
 * holds its run until it lapses: waited for).
 */
export async function discardServerImports(page: Page, site = 'main') {
  await discardImportsAt(page.request, new URL(page.url()).origin, site);
}

async function discardImportsAt(request: APIRequestContext, origin: string, site: string) {
  await expect(async () => {
    const listed = await request.get(`${origin}${IMPORTS_PATHS.list}?site=${site}`);
    expect(listed.ok()).toBe(true);
    const { imports } = (await listed.json()) as { imports: ImportSummary[] };
    for (const one of imports) {
      const gone = await request.delete(`${origin}${importPath(IMPORTS_PATHS.one, one.id)}`, { headers: { origin } });
      expect(gone.status()).toBe(204);
    }
  }).toPass({ timeout: 30_000 });
}

/**
 * No import left on the server from an earlier test. The browser's own (its stored import, column
 * mapping and created list) starts empty: every test has a context of its own.
 */
export async function forgetImports(page: Page) {
  const { baseURL } = test.info().project.use;
  if (!baseURL) throw new Error('forgetImports needs the project’s baseURL');
  await discardImportsAt(page.request, new URL(baseURL).origin, 'main');
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
