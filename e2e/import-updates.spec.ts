/**
 * An import that updates products of the site, end to end: the page reads the site's catalogue from the
 * sandbox through our server, the worker tells updates from new products by slug and shows each row's diff,
 * and the sandbox receives exactly the update bodies the dry run showed (its /__sandbox/product-writes
 * helper keeps every PUT body as received). A product changed on the platform between the dry run and the
 * send is refused by our server (412) and shown as such, never overwritten.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { expectNoA11yViolations } from './a11y';
import { forgetImports } from './imports';
import { SANDBOX } from './sandbox';

const PRICE = 'module_field_14/product/price/usd/1';
const ADDED = 'module_field_14/product_attribute_option/price/usd/1';

interface Created {
  id: string;
  attributes: { id: string; name: string; items: { id: string; name: string }[] }[];
}

/** A product created through our server, as the sandbox answers it (the record, with every id). */
async function createProduct(page: Page, body: Record<string, unknown>): Promise<Created> {
  return page.evaluate(
    (product) =>
      fetch('/api/site/v2/ecommerce/products/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(product),
      }).then(async (response) => {
        if (!response.ok) throw new Error(`create answered ${response.status}`);
        return (await response.json()) as Created;
      }),
    body,
  );
}

const summary = (page: Page) => page.getByRole('status', { name: 'Import summary' });

test.beforeEach(async ({ page }) => forgetImports(page));

test('an import of updates shows each row’s diff in the dry run, and the platform receives exactly those bodies', async ({
  page,
  request,
}) => {
  const id = `upd${Date.now().toString(36)}`;
  await page.goto('/products/import');
  await expect(page.getByRole('heading', { level: 1, name: 'Import products' })).toBeVisible();
  const sizes = (small: string, large: string) => [
    {
      name: 'Size',
      enabled: 'true',
      items: [
        { name: 'Small', enabled: 'true', [ADDED]: small },
        { name: 'Large', enabled: 'true', [ADDED]: large },
      ],
    },
  ];
  const throw_ = await createProduct(page, {
    name: 'Linen throw',
    slug: `${id}-throw`,
    enabled: 'true',
    [PRICE]: '1999',
    attributes: sizes('0', '500'),
  });
  const mug = await createProduct(page, {
    name: 'Mug',
    slug: `${id}-mug`,
    enabled: 'true',
    [PRICE]: '1200',
    attributes: sizes('0', '100'),
  });
  const tray = await createProduct(page, { name: 'Tray', slug: `${id}-tray`, enabled: 'true', [PRICE]: '3000' });
  const cushion = await createProduct(page, { name: 'Cushion', slug: `${id}-cushion`, enabled: 'true', [PRICE]: '2500' });
  const mugLarge = mug.attributes[0]?.items.find((item) => item.name === 'Large')?.id ?? '';
  expect(mugLarge).not.toBe('');

  const file = [
    'Slug,Name,"USD, Price",Attribute name,Option id,Option name,"USD, Added to price"',
    // The throw: its price, and Small found by name within Size.
    `${id}-throw,,24.50,Size,,Small,1.50`,
    // The mug: Large found by its id, renamed.
    `${id}-mug,,,Size,${mugLarge},Extra large,`,
    // The tray as it is: unchanged, never sent.
    `${id}-tray,,30.00,,,,`,
    // The cushion: changed on the platform after the dry run.
    `${id}-cushion,,27.00,,,,`,
    // Not on the site: a new product.
    `${id}-new,Bowl,9.00,,,,`,
  ].join('\r\n');
  await page.locator('input[type="file"]').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(file, 'utf8') });
  await expect(page.getByText(/prices\.csv: 5 rows/)).toBeVisible();
  await expect(page.getByText(/Checked against the site’s \d+ products/)).toBeVisible();
  await expect(summary(page)).toContainText('5 products');
  await expect(summary(page)).toContainText('4 ready (1 new, 3 updates)');
  await expect(summary(page)).toContainText('1 unchanged');

  // Each row says what it is, and what changes.
  const diffs = page.getByTestId('update-diff');
  const throwDiff = diffs.filter({ hasText: `product ${throw_.id}:` });
  await expect(throwDiff).toContainText('2 fields change');
  await expect(throwDiff).toContainText('USD, Price: $19.99 → $24.50');
  await expect(throwDiff).toContainText('Attribute “Size” › Option “Small” › USD, Added to price: $0.00 → $1.50');
  await expect(throwDiff).toContainText('2 matched by name');
  const mugDiff = diffs.filter({ hasText: `product ${mug.id}:` });
  await expect(mugDiff).toContainText('Attribute “Size” › Option “Large” › Option name: Large → Extra large');
  await expect(mugDiff).toContainText('1 by id, 1 matched by name');
  await expect(diffs.filter({ hasText: `Product ${tray.id} of the site: nothing changes` })).toBeVisible();
  await expect(page.getByText('New', { exact: true })).toBeVisible();
  await expectNoA11yViolations(page);

  // A colleague changes the cushion in the platform's own admin after the dry run read it.
  const meanwhile = await request.put(`${SANDBOX.origin}/api/site/v2/ecommerce/products/${cushion.id}`, {
    headers: { ...SANDBOX.headers, 'content-type': 'application/json' },
    data: { name: 'Cushion', enabled: 'true', [PRICE]: '2600' },
  });
  expect(meanwhile.ok()).toBe(true);

  await page.getByRole('button', { name: 'Send 4: 1 new, 3 updates' }).click();
  await expect(page.getByText(/^Finished/)).toBeVisible();
  await expect(summary(page)).toContainText('1 created');
  await expect(summary(page)).toContainText('2 updated');
  await expect(summary(page)).toContainText('1 changed on the platform since the dry run');
  await expect(page.getByText('Changed on the platform since the dry run: this update was not sent.').first()).toBeVisible();

  const writes = async (productId: string) => {
    const response = await request.get(`${SANDBOX.origin}/__sandbox/product-writes?id=${productId}`, { headers: SANDBOX.headers });
    expect(response.ok()).toBe(true);
    return ((await response.json()) as { writes: { body: string; status: number }[] }).writes;
  };
  const smallOf = throw_.attributes[0]?.items.find((item) => item.name === 'Small')?.id;
  expect((await writes(throw_.id)).map((w) => [JSON.parse(w.body) as unknown, w.status])).toEqual([
    [
      {
        name: 'Linen throw',
        enabled: 'true',
        [PRICE]: '2450',
        attributes: [{ id: throw_.attributes[0]?.id, name: 'Size', items: [{ id: smallOf, name: 'Small', [ADDED]: '150' }] }],
      },
      200,
    ],
  ]);
  expect((await writes(mug.id)).map((w) => [JSON.parse(w.body) as unknown, w.status])).toEqual([
    [
      {
        name: 'Mug',
        enabled: 'true',
        attributes: [{ id: mug.attributes[0]?.id, name: 'Size', items: [{ id: mugLarge, name: 'Extra large' }] }],
      },
      200,
    ],
  ]);
  // Nothing for the unchanged tray; the cushion has only the colleague's change, never the import's.
  expect(await writes(tray.id)).toEqual([]);
  expect((await writes(cushion.id)).map((w) => JSON.parse(w.body) as unknown)).toEqual([
    { name: 'Cushion', enabled: 'true', [PRICE]: '2600' },
  ]);

  // A reload opens the same import: what was updated is never sent again.
  await page.reload();
  await expect(summary(page)).toContainText('2 updated');
  await expect(summary(page)).toContainText('1 changed on the platform since the dry run');
  await expect(page.getByRole('button', { name: 'Resume: create the 0 ready' })).toBeDisabled();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Report (CSV)' }).click();
  const report = (await readFile(await (await download).path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
  expect(report[1]).toMatch(/^updated,"Update sent: \{.*""module_field_14\/product\/price\/usd\/1"":""2450"".*\}",/);
  expect(report[2]).toMatch(/^updated,/);
  expect(report[3]).toMatch(/^unchanged,/);
  expect(report[4]).toMatch(/^conflict,Changed on the platform since the dry run/);
  expect(report[5]).toMatch(/^created,/);
});
