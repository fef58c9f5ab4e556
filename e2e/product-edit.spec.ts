/**
 * Correcting a product of the catalogue (`/catalogue/:id`) against the sandbox: what the platform receives
 * is exactly the change made, and a colleague's change made meanwhile is shown, never overwritten.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API_BASE_PATH } from '../src/contract/site-api-basics';
import { SANDBOX } from './sandbox';

interface Option {
  id: string;
  name: string;
}
interface Record {
  id: string;
  name: string;
  enabled?: string;
  [key: string]: unknown;
  attributes?: { id: string; name: string; items?: Option[] }[];
}

const NZD_PRICE = 'module_field_14/product/price/nzd/1';

/** The seeded catalogue's products with an NZD price and an attribute with options, oldest first. */
async function seededProducts(request: APIRequestContext): Promise<Record[]> {
  const response = await request.get(`${SANDBOX.origin}/__sandbox/products?limit=200`, { headers: SANDBOX.headers });
  expect(response.ok()).toBe(true);
  const { products } = (await response.json()) as { products: { record: Record }[] };
  return products
    .map((p) => p.record)
    .filter((r) => typeof r[NZD_PRICE] === 'string' && (r.attributes?.[0]?.items?.length ?? 0) > 1)
    .reverse();
}

async function writesOf(request: APIRequestContext, id: string): Promise<{ body: string; status: number }[]> {
  const response = await request.get(`${SANDBOX.origin}/__sandbox/product-writes?id=${id}`, { headers: SANDBOX.headers });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { writes: { body: string; status: number }[] }).writes;
}

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

/** From Basics: a new NZD price, and a new name for the first option of the first attribute; ends on Review. */
async function fixPriceAndOptionName(page: Page, price: string, optionName: string) {
  await next(page);
  await next(page);
  const nzd = page.getByRole('textbox', { name: 'NZD Price', exact: true });
  await nzd.fill(price);
  await next(page);
  await page.getByRole('button', { name: /Expand attribute 1/ }).click();
  await page.getByRole('button', { name: /Expand option 1/ }).click();
  await page.getByRole('region', { name: 'Attribute 1' }).getByRole('textbox', { name: 'Option name' }).fill(optionName);
  await next(page);
}

test('an editor fixes a price and an option name, and the platform receives exactly that change', async ({ page, request }) => {
  const product = (await seededProducts(request))[0];
  if (!product) throw new Error('the sandbox has no seeded product with an NZD price and options');
  const attribute = product.attributes?.[0];
  const option = attribute?.items?.[0];
  if (!attribute || !option) throw new Error('no option');
  const before = await writesOf(request, product.id);

  await page.goto(`/catalogue/${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit product: ${product.name}` })).toBeVisible();
  await fixPriceAndOptionName(page, '131.50', `${option.name} (fixed)`);

  // Review lists only the two changes, before and after, and the body that will be sent.
  const changes = page.getByRole('table', { name: 'Changes to save' });
  await expect(changes.getByRole('row')).toHaveCount(1 + 2 + 2); // the header, a group row and its change, twice
  await expect(changes.getByRole('row', { name: /NZD, Price/ })).toContainText('131.50');
  await expect(changes.getByRole('row', { name: /Option name/ })).toContainText(`${option.name} (fixed)`);
  const expected = JSON.stringify({
    name: product.name,
    enabled: product.enabled ?? 'true',
    [NZD_PRICE]: '13150',
    attributes: [{ id: attribute.id, name: attribute.name, items: [{ id: option.id, name: `${option.name} (fixed)` }] }],
  });
  await expect(page.getByRole('region', { name: 'The exact request body of the update' })).toHaveText(
    JSON.stringify(JSON.parse(expected), null, 2),
  );

  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  // The editor now holds the product as saved: nothing more to send.
  await expect(page.getByText('No changes', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();

  const writes = await writesOf(request, product.id);
  expect(writes.slice(before.length)).toEqual([{ body: expected, status: 200 }]);
});

test('a colleague’s change made meanwhile is shown beside mine, nothing is overwritten, and the save after choosing sends my choice', async ({
  page,
  request,
}) => {
  const product = (await seededProducts(request))[1];
  if (!product) throw new Error('the sandbox has no second seeded product with options');
  const attribute = product.attributes?.[0];
  const option = attribute?.items?.[0];
  if (!attribute || !option) throw new Error('no option');

  await page.goto(`/catalogue/${product.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit product: ${product.name}` })).toBeVisible();
  await fixPriceAndOptionName(page, '77.70', `${option.name} (mine)`);

  // A colleague changes the name and the same price, straight on the platform.
  const theirs = JSON.stringify({ name: `${product.name} (theirs)`, enabled: 'true', [NZD_PRICE]: '9999' });
  const put = await request.put(`${SANDBOX.origin}${API_BASE_PATH}/ecommerce/products/${product.id}`, {
    headers: { ...SANDBOX.headers, 'content-type': 'application/json' },
    data: theirs,
  });
  expect(put.status()).toBe(200);
  const before = await writesOf(request, product.id);

  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This product changed on the platform since you opened it' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Their changes and yours' });
  await expect(table.getByRole('row', { name: /^Name/ })).toContainText(`${product.name} (theirs)`);
  const price = table.getByRole('row', { name: /NZD, Price/ });
  await expect(price).toContainText('changed by both');
  await expect(price).toContainText('99.99');
  await expect(price).toContainText('77.70');
  await expect(table.getByRole('row', { name: /Option/ })).toContainText(`${option.name} (mine)`);
  // Nothing was sent: the platform has only their change.
  expect(await writesOf(request, product.id)).toEqual(before);

  await expect(page.getByRole('button', { name: 'Choose for 1 more field' })).toBeDisabled();
  await price.getByRole('radio', { name: 'Mine' }).check();
  await page.getByRole('button', { name: 'Apply my choices and review' }).click();

  // Review, from their product: my price and my option's name; their name is kept and not sent as a change.
  const changes = page.getByRole('table', { name: 'Changes to save' });
  await expect(changes.getByRole('row', { name: /NZD, Price/ })).toContainText('77.70');
  await expect(changes.getByRole('row', { name: /^Name/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const writes = await writesOf(request, product.id);
  expect(writes.slice(before.length)).toEqual([
    {
      body: JSON.stringify({
        name: `${product.name} (theirs)`,
        enabled: 'true',
        [NZD_PRICE]: '7770',
        attributes: [{ id: attribute.id, name: attribute.name, items: [{ id: option.id, name: `${option.name} (mine)` }] }],
      }),
      status: 200,
    },
  ]);
});
