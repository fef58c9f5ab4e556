/**
 * Import from a spreadsheet, end to end: the worker parses and checks in the real browser, creates go
 * through our server's proxy to the sandbox, and `page.route` plays a platform that asks to slow down
 * (429 with Retry-After) or drops the connection after the product arrived.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { expectNoA11yViolations } from './a11y';
import { forgetImports, storedProducts } from './imports';

const CREATE = '**/ecommerce/products/create';

const slugOf = (route: Route) => (JSON.parse(route.request().postData() ?? '{}') as { slug?: string }).slug ?? '';

async function openImport(page: Page) {
  await page.goto('/products/import');
  await expect(page.getByRole('heading', { level: 1, name: 'Import products' })).toBeVisible();
}

async function loadFile(page: Page, name: string, text: string) {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  await expect(page.getByText(new RegExp(`${name.replace('.', '\\.')}: \\d+ rows?`))).toBeVisible();
}

const summary = (page: Page) => page.getByRole('status', { name: 'Import summary' });

test.beforeEach(async ({ page }) => forgetImports(page));

test.describe('in de-DE', () => {
  test.use({ locale: 'de-DE' });

  test('a semicolon file is checked before sending, fixed in place, created without the rows our rules or the platform refuse, and reported', async ({
    page,
    request,
  }) => {
    const id = `imp${Date.now().toString(36)}`;
    await openImport(page);

    const file = [
      '\uFEFFName;Slug;USD, Price;Attribute name;Option name;USD, Added to price;Stock;Notiz',
      `Leinendecke;${id}-decke;49,95;Größe;Klein;0;12;intern`,
      `;;;;Groß;10,50;4;`,
      `Becher;${id}-becher;12,5;;;;;`,
      `Kissen;${id}-kissen;1,299;;;;;`,
      `Schon da;${id}-taken;5;;;;;`,
    ].join('\r\n');
    await loadFile(page, 'produkte.csv', file);

    // The column nobody mapped is shown, and ignored until someone maps it.
    await expect(page.getByText('1 column of the file matches no field')).toBeVisible();
    await expect(summary(page)).toContainText('4 products');
    await expect(summary(page)).toContainText('3 ready');
    await expect(summary(page)).toContainText('1 with problems');
    // A product put on the site after the dry run read the site's products (so the file's row is checked as
    // new): the sandbox refuses its slug with a 422.
    const taken = await page.evaluate(
      (slug) =>
        fetch('/api/site/v2/ecommerce/products/create', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Taken', slug, enabled: 'true' }),
        }).then((r) => r.status),
      `${id}-taken`,
    );
    expect(taken).toBe(200);
    // The problem is on its cell, with the editor's own message: three decimals in German notation.
    await page.getByRole('radiogroup', { name: 'Rows shown' }).getByText('Problems only').click();
    const kissenPrice = page.getByRole('button', { name: /^Row 5, USD, Price: 1,299/ });
    await expect(kissenPrice.locator('xpath=..')).toContainText('At most 2 decimal places');
    await expect(page.getByRole('button', { name: /^Row 2, / })).toHaveCount(0);
    await expectNoA11yViolations(page);

    await kissenPrice.click();
    await page.getByRole('textbox', { name: 'Row 5, USD, Price' }).fill('1.299');
    await page.getByRole('textbox', { name: 'Row 5, USD, Price' }).press('Enter');
    await expect(summary(page)).toContainText('4 ready');
    await page.getByRole('radiogroup', { name: 'Rows shown' }).getByText('All rows').click();

    await page.getByRole('button', { name: 'Create 4 products' }).click();
    await expect(page.getByText('Finished: 4 of 4 answered')).toBeVisible();
    await expect(summary(page)).toContainText('3 created');
    await expect(summary(page)).toContainText('1 rejected');
    // The platform's details land on the cell they name.
    await expect(page.getByRole('button', { name: new RegExp(`^Row 6, Slug: ${id}-taken`) }).locator('xpath=..')).toContainText(
      'is already used by another product on this site',
    );

    const products = await storedProducts(request, id);
    expect([...products.entries()].map(([slug, p]) => [slug, p.count]).sort()).toEqual([
      [`${id}-becher`, 1],
      [`${id}-decke`, 1],
      [`${id}-kissen`, 1],
      [`${id}-taken`, 1],
    ]);
    expect(products.get(`${id}-decke`)?.body).toEqual({
      name: 'Leinendecke',
      slug: `${id}-decke`,
      enabled: 'true',
      'module_field_14/product/price/usd/1': '4995',
      attributes: [
        {
          name: 'Größe',
          enabled: 'true',
          items: [
            {
              name: 'Klein',
              enabled: 'true',
              'module_field_14/product_attribute_option/price/usd/1': '0',
              'module_field_14/product_attribute_option/inventory/1': '12',
            },
            {
              name: 'Groß',
              enabled: 'true',
              'module_field_14/product_attribute_option/price/usd/1': '1050',
              'module_field_14/product_attribute_option/inventory/1': '4',
            },
          ],
        },
      ],
    });
    expect(products.get(`${id}-kissen`)?.body['module_field_14/product/price/usd/1']).toBe('129900');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Report (CSV)' }).click();
    const report = await readFile(await (await download).path(), 'utf8');
    const lines = report.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Import status;Import message;Platform answer;Name;Slug;USD, Price;Attribute name;Option name;USD, Added to price;Stock;Notiz',
    );
    expect(lines[1]).toMatch(new RegExp(`^created;;"\\{.*""slug"":""${id}-decke"".*\\}";Leinendecke;`));
    expect(lines[2]).toMatch(/^created;;;;;;;Groß;/);
    expect(lines[5]).toMatch(/^rejected;The platform answered 422 .*is already used by another product on this site/);

    // Created products join the site's created list.
    await page.getByRole('link', { name: /Created products/ }).click();
    await expect(page.getByRole('link', { name: 'Becher' })).toBeVisible();
  });
});

test('429 with Retry-After waits and sends again; a connection dropped after the product arrived is known created by the server, and never sent again', async ({
  page,
  request,
}) => {
  const id = `imq${Date.now().toString(36)}`;
  const seen: { slug: string; at: number }[] = [];
  let refused = false;
  await page.route(CREATE, async (route) => {
    const slug = slugOf(route);
    seen.push({ slug, at: Date.now() });
    if (slug === `${id}-slow` && !refused) {
      refused = true;
      await route.fulfill({
        status: 429,
        headers: { 'retry-after': '2', 'content-type': 'application/json', 'x-platform-status': '429' },
        body: JSON.stringify({ error: 'Too Many Requests', code: 429, message: 'Slow down' }),
      });
      return;
    }
    if (slug === `${id}-lost`) {
      // The product reaches the platform; its answer never reaches the browser.
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue();
  });
  await openImport(page);
  // A block copied from a spreadsheet: tabs between cells.
  await page
    .getByLabel('Or paste rows from a spreadsheet')
    .fill(`Name\tSlug\tUSD, Price\nSlow\t${id}-slow\t1\nLost\t${id}-lost\t2\nFine\t${id}-fine\t3\n`);
  await page.getByRole('button', { name: 'Read the pasted rows' }).click();
  await expect(summary(page)).toContainText('3 ready');
  await page.getByLabel('At a time').fill('1');
  await page.getByRole('button', { name: 'Create 3 products' }).click();
  await expect(page.getByText('The platform asked us to slow down')).toBeVisible();
  await expect(page.getByText('Finished: 3 of 3 answered')).toBeVisible();
  // The page lost the answer, but our server heard the platform's 200 and kept it: the import knows the product
  // was created (a page alone could only say "outcome unknown"), and nobody sends it again.
  await expect(summary(page)).toContainText('3 created');
  await expect(summary(page)).toContainText('0 outcome unknown');

  const slow = seen.filter((s) => s.slug === `${id}-slow`);
  expect(slow).toHaveLength(2);
  expect((slow[1]?.at ?? 0) - (slow[0]?.at ?? 0)).toBeGreaterThanOrEqual(1900);
  // Nothing else was sent while the platform asked to wait.
  expect(seen.map((s) => s.slug)).toEqual([`${id}-slow`, `${id}-slow`, `${id}-lost`, `${id}-fine`]);
  const products = await storedProducts(request, id);
  expect([...products.entries()].map(([slug, p]) => [slug, p.count]).sort()).toEqual([
    [`${id}-fine`, 1],
    [`${id}-lost`, 1],
    [`${id}-slow`, 1],
  ]);
  await expect(summary(page)).toContainText('0 ready');
  expect(seen).toHaveLength(4);
});

for (const concurrency of [4, 16]) {
  test(`at ${concurrency} at a time, no create leaves while the platform’s Retry-After runs, and each product is created once`, async ({
    page,
    request,
  }) => {
    const id = `imb${concurrency}${Date.now().toString(36)}`;
    // The platform stand-in: every create that reaches it, with the time it arrived.
    const arrivals: { slug: string; at: number }[] = [];
    let refused: { slug: string; at: number } | null = null;
    await page.route(CREATE, async (route) => {
      const slug = slugOf(route);
      arrivals.push({ slug, at: Date.now() });
      if (refused === null) {
        refused = { slug, at: Date.now() };
        await route.fulfill({
          status: 429,
          headers: { 'retry-after': '2', 'content-type': 'application/json', 'x-platform-status': '429' },
          body: JSON.stringify({ error: 'Too Many Requests', code: 429, message: 'Slow down' }),
        });
        return;
      }
      await route.continue();
    });
    const count = 40;
    const rows = Array.from({ length: count }, (_, i) => `Product ${i + 1},${id}-${i + 1},${i + 1}`);
    await openImport(page);
    await loadFile(page, 'many.csv', ['Name,Slug,USD Price', ...rows].join('\n'));
    await page.getByLabel('At a time').fill(String(concurrency));
    await page.getByRole('button', { name: `Create ${count} products` }).click();
    await expect(page.getByText('The platform asked us to slow down')).toBeVisible();
    // From here the page knows it must wait: nothing may arrive until Retry-After has passed.
    const knownAt = Date.now();
    await expect(page.getByText(`Finished: ${count} of ${count} answered`)).toBeVisible({ timeout: 30_000 });
    const first = refused as { slug: string; at: number } | null;
    if (!first) throw new Error('No create was refused');
    const inWindow = arrivals.filter((a) => a.at > knownAt && a.at < first.at + 2000);
    expect(inWindow).toEqual([]);
    // The refused product was sent again after the wait; every product is stored once.
    const again = arrivals.filter((a) => a.slug === first.slug);
    expect(again).toHaveLength(2);
    expect((again[1]?.at ?? 0) - first.at).toBeGreaterThanOrEqual(2000);
    expect(arrivals).toHaveLength(count + 1);
    const products = await storedProducts(request, id);
    expect(products.size).toBe(count);
    expect([...products.values()].every((p) => p.count === 1)).toBe(true);
    await expect(summary(page)).toContainText(`${count} created`);
  });
}

test('a reload in the middle of an import resumes paused; what never reached the server is sent then, and no product is created twice', async ({
  page,
  request,
}) => {
  const id = `imr${Date.now().toString(36)}`;
  const sent: string[] = [];
  const held: Route[] = [];
  let hold = true;
  await page.route(CREATE, async (route) => {
    const slug = slugOf(route);
    sent.push(slug);
    // After three products, the next requests never leave the browser: the page dies with them on their way.
    if (hold && sent.length > 3) {
      held.push(route);
      return;
    }
    await route.continue();
  });
  const rows = Array.from({ length: 8 }, (_, i) => `Product ${i + 1},${id}-${i + 1},${i + 1}`);
  await openImport(page);
  await loadFile(page, 'eight.csv', ['Name,Slug,USD Price', ...rows].join('\n'));
  await page.getByLabel('At a time').fill('2');
  await page.getByRole('button', { name: 'Create 8 products' }).click();
  await expect.poll(() => held.length).toBe(2);

  hold = false;
  await page.reload();
  await expect(page.getByText('This import was interrupted')).toBeVisible();
  // The server keeps each product's status: the two the page was sending never reached it, so they are not
  // "outcome unknown" (as a page alone would have to say) but simply not sent yet.
  await expect(summary(page)).toContainText('3 created');
  await expect(summary(page)).toContainText('0 outcome unknown');
  await expect(summary(page)).toContainText('5 ready');
  // The import goes on as it was started: 2 at a time.
  await expect(page.getByLabel('At a time')).toHaveValue('2');
  await page.getByRole('button', { name: 'Resume: create the 5 ready' }).click();
  await expect(page.getByText('Finished: 5 of 5 answered')).toBeVisible();
  await expect(summary(page)).toContainText('8 created');

  // Every product created exactly once; the two held in the dead page were sent once more from the new one.
  const products = await storedProducts(request, id);
  expect([...products.values()].every((p) => p.count === 1)).toBe(true);
  expect([...products.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${id}-${n}`));
  expect(sent.filter((slug) => slug === `${id}-4` || slug === `${id}-5`)).toHaveLength(4);
  expect(sent).toHaveLength(10);
});

test('a column is mapped by hand and remembered; a product opened in the full editor comes back in place of its rows', async ({ page }) => {
  const id = `ims${Date.now().toString(36)}`;
  const file = `Name,Slug,Supplier,USD Price\nThrow,${id}-throw,Hemp & Co,abc\nMug,${id}-mug,,2\n`;
  await openImport(page);
  await loadFile(page, 'by-hand.csv', file);
  await expect(page.getByText('1 column of the file matches no field')).toBeVisible();
  await page
    .getByRole('combobox', { name: 'Field for column Supplier' })
    .selectOption({ label: 'Product field 5 (module_field_14/product_5)' });
  await expect(page.getByRole('button', { name: 'Row 2, Product field 5: Hemp & Co, edit' })).toBeVisible();
  await expect(summary(page)).toContainText('1 with problems');

  await page.getByRole('button', { name: 'Open in editor: Throw' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Edit a product of the import' })).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('Throw');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await expect(page.getByLabel('Product field 5')).toHaveValue('Hemp & Co');
  await page.getByRole('button', { name: /^Next:/ }).click();
  const price = page.getByRole('textbox', { name: 'USD Price', exact: true });
  await expect(price).toHaveValue('abc');
  await price.fill('19.99');
  await expect(page).toHaveURL(/\/products\/import\/edit\/2$/);

  // Leaving with changes asks first; the changes wait in a draft for the next opening of the product.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Import products/ })
    .click();
  await page.getByRole('dialog', { name: 'Leave the editor?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import products' })).toBeVisible();
  await page.getByRole('button', { name: 'Open in editor: Throw' }).click();
  await expect(page.getByText('Your earlier changes to this product are restored')).toBeVisible();
  await expect(price).toHaveValue('19.99');
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('button', { name: 'Bring back to the import' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Import products' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Row 2, USD, Price: 19.99, edit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Row 3, Name: Mug, edit' })).toBeVisible();
  await expect(summary(page)).toContainText('2 ready');

  // The next file with that header is mapped the same way on this site.
  await page.getByRole('button', { name: 'Start over' }).click();
  await loadFile(page, 'again.csv', file);
  await expect(page.getByText('1 column of the file matches no field')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Field for column Supplier' })).toHaveValue('module_field_14/product_5');
});
