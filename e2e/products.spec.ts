import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { SANDBOX } from './sandbox';

const CURRENCIES = ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const;

async function storedProduct(request: APIRequestContext, slug: string) {
  const response = await request.get(`${SANDBOX.origin}/__sandbox/products?limit=50`, { headers: SANDBOX.headers });
  expect(response.ok()).toBe(true);
  const { products } = (await response.json()) as { products: { body: Record<string, unknown> & { slug?: string } }[] };
  return products.find((p) => p.body.slug === slug)?.body;
}

async function openEditor(page: Page) {
  await page.goto('/products/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();
  await expect(page.getByLabel('Name')).toBeVisible();
}

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();
// The grids' column labels (the registry's defaults): product tiers 1–4, then an option's tiers 1–2.
const PRODUCT_TIERS = ['Price', 'Display price (RRP)', 'Price tier 3', 'Price tier 4'];
const OPTION_TIERS = ['Added to price', 'Added to display price'];
const cell = (scope: Page | Locator, currency: string, tier: number, of: 'product' | 'option' = 'product') =>
  scope.getByRole('textbox', {
    name: `${currency.toUpperCase()} ${(of === 'product' ? PRODUCT_TIERS : OPTION_TIERS)[tier - 1] ?? ''}`,
    exact: true,
  });

/** Presses Tab until the locator has the focus, as a keyboard user would; fails after `max` presses. */
async function tabUntilFocused(page: Page, target: Locator, max = 15) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('creates a product with the full price grid and two attributes of three options, stored exactly as the wire format', async ({
  page,
  request,
}) => {
  const slug = `linen-throw-${Date.now()}`;
  await openEditor(page);
  await page.getByLabel('Name').fill('Linen throw');
  await expect(page.getByLabel('Slug')).toHaveValue('linen-throw');
  await page.getByLabel('Slug').fill(slug);
  await page.getByLabel('Weighting').fill('10');
  await next(page);

  await page.getByRole('combobox', { name: 'Categories' }).fill('158198');
  await page.getByRole('combobox', { name: 'Categories' }).press('Enter');
  await page.getByLabel('Product field 1').fill('Soft, stonewashed linen.\nMachine washable.');
  await next(page);

  // Every cell of the 6 × 4 grid, in major units; the wire gets minor units.
  const expectedPrices: Record<string, string> = {};
  for (const [row, currency] of CURRENCIES.entries()) {
    for (let tier = 1; tier <= 4; tier += 1) {
      const major = `${row + 1}${tier}.${tier === 4 ? '05' : '99'}`;
      await cell(page, currency, tier).fill(major);
      expectedPrices[`module_field_14/product/price/${currency}/${tier}`] = major.replace('.', '');
    }
  }
  await page.getByLabel('Inventory setting 1').fill('40');
  await next(page);

  const attributes = [
    { name: 'Size', options: ['Small', 'Medium', 'Large'] },
    { name: 'Colour', options: ['Natural', 'Charcoal', 'Sage'] },
  ];
  for (const [a, attribute] of attributes.entries()) {
    await page.getByRole('button', { name: 'Add attribute' }).click();
    const section = page.getByRole('region', { name: `Attribute ${a + 1}` });
    await section.getByLabel('Attribute name').fill(attribute.name);
    for (let o = 1; o < attribute.options.length; o += 1) await section.getByRole('button', { name: 'Add option', exact: true }).click();
    for (const [o, option] of attribute.options.entries()) {
      await section.getByLabel('Option name').nth(o).fill(option);
      await section
        .getByLabel('Stock')
        .nth(o)
        .fill(String(5 + o));
      await cell(section, 'usd', 1, 'option').nth(o).fill(`${o}.50`);
    }
  }
  await next(page);

  await expect(page.getByText('Ready to create')).toBeVisible();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Linen throw' })).toBeVisible();

  const option = (name: string, o: number) => ({
    name,
    enabled: 'true',
    'module_field_14/product_attribute_option/price/usd/1': String(o * 100 + 50),
    'module_field_14/product_attribute_option/inventory/1': String(5 + o),
  });
  expect(await storedProduct(request, slug)).toEqual({
    name: 'Linen throw',
    slug,
    enabled: 'true',
    weighting: '10',
    category_array: [{ id: '158198' }],
    'module_field_14/product_1': 'Soft, stonewashed linen.\nMachine washable.',
    'module_field_14/product/inventory/1': '40',
    ...expectedPrices,
    attributes: attributes.map((attribute) => ({
      name: attribute.name,
      enabled: 'true',
      items: attribute.options.map(option),
    })),
  });

  // The product is in this browser's list and reopens as a read-only summary.
  await page.getByRole('link', { name: 'Created products', exact: false }).first().click();
  await page.getByRole('link', { name: 'Linen throw' }).click();
  await expect(page.getByRole('region', { name: 'What was sent' })).toContainText(slug);
});

test('a duplicate slug answered 422 by the platform is listed on Review as a link to the slug, and nothing was created', async ({
  page,
}) => {
  const slug = `twice-${Date.now()}`;
  for (const attempt of [1, 2]) {
    await openEditor(page);
    await page.getByLabel('Name').fill(`Twice ${attempt}`);
    await page.getByLabel('Slug').fill(slug);
    for (let step = 0; step < 4; step += 1) await next(page);
    await page.getByRole('button', { name: 'Create product' }).click();
    if (attempt === 1) await expect(page.getByText('Product created')).toBeVisible();
  }
  await expect(page.getByText('The platform did not accept the product (422 Unprocessable Entity)')).toBeVisible();
  await expect(page.getByText(/Nothing was created/)).toBeVisible();
  // Visible without going back: the refused field is listed on Review, and the link takes the cursor there.
  const link = page.getByRole('button', { name: /^Basics › Slug: .*already used/ });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByLabel('Slug')).toBeFocused();
  await expect(page.getByText('is already used by another product on this site')).toBeVisible();
  await expect(page.getByRole('button', { name: /^1 Basics, has errors/ })).toBeVisible();
});

test('a reload mid-edit offers the draft, and restoring it brings back every field', async ({ page }) => {
  page.on('dialog', (dialog) => void dialog.accept());
  await openEditor(page);
  await page.getByLabel('Name').fill('Draft mug');
  await next(page);
  await next(page);
  await cell(page, 'eur', 2).fill('8.40');
  await cell(page, 'eur', 2).press('Tab');
  // The draft is written a moment after typing stops: wait for it rather than for a fixed time.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('site-admin:product-drafts:v2') ?? '')).toContain('8.40');
  await page.reload();
  await expect(page.getByText('You have an unfinished product')).toBeVisible();
  await page.getByRole('button', { name: /^Resume draft/ }).click();
  await expect(cell(page, 'eur', 2)).toHaveValue('8.40');
  await page.getByRole('button', { name: /^1 Basics/ }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Draft mug');
});

test('leaving the editor with changes asks first, and keeps the draft', async ({ page }) => {
  await openEditor(page);
  await page.getByLabel('Name').fill('Unsaved');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Cases/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave the editor?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/products\/new$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Cases/ }).click();
  await page.getByRole('dialog', { name: 'Leave the editor?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/cases$/);
  await page.goto('/products/new');
  await expect(page.getByText('You have an unfinished product')).toBeVisible();
});

test('keyboard only: from the first field to the success page', async ({ page, request }) => {
  const slug = `keyboard-${Date.now()}`;
  await openEditor(page);
  await page.getByLabel('Name').focus();
  await page.keyboard.type('Keyboard mug');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Slug')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(slug);
  await page.keyboard.press('Enter');
  // Step 2 opens with the cursor in its first field; Enter in a field moves on.
  await expect(page.getByRole('combobox', { name: 'Categories' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'aud', 1)).toBeFocused();
  await page.keyboard.type('12.5');
  await page.keyboard.press('Enter');
  await expect(cell(page, 'cad', 1)).toBeFocused();
  await page.keyboard.type('11');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Fill or clear Product prices' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await tabUntilFocused(page, page.getByRole('button', { name: 'Add attribute' }));
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Attribute name')).toBeFocused();
  await page.keyboard.type('Finish');
  await tabUntilFocused(page, page.getByLabel('Option name'));
  await page.keyboard.type('Gloss');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Create product' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Product created')).toBeVisible();
  const stored = await storedProduct(request, slug);
  expect(stored?.['module_field_14/product/price/aud/1']).toBe('1250');
  expect(stored?.['module_field_14/product/price/cad/1']).toBe('1100');
});

test('a create whose answer is lost says the outcome is unknown, keeps Create off until confirmed, then sends the product as it is now', async ({
  page,
  request,
}) => {
  const slug = `unknown-outcome-${Date.now()}`;
  await openEditor(page);
  await page.getByLabel('Name').fill('Lost answer');
  await page.getByLabel('Slug').fill(slug);
  for (let step = 0; step < 4; step += 1) await next(page);
  // The connection drops before any answer arrives: the browser cannot know what happened.
  await page.route('**/api/site/v2/ecommerce/products/create', (route) => route.abort('connectionreset'), { times: 1 });
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText(/We can.t tell whether the product was created/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create product' })).toBeDisabled();
  expect(await storedProduct(request, slug)).toBeUndefined();

  // An edit made meanwhile is part of what is sent next.
  await page.getByRole('button', { name: /^1 Basics/ }).click();
  await page.getByLabel('Name').fill('Lost answer, edited');
  await page.getByRole('button', { name: /^5 Review/ }).click();
  await page.getByLabel('I checked: the product is not in the catalogue').check();
  await page.getByRole('button', { name: 'Let me create it again' }).click();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();
  expect((await storedProduct(request, slug))?.name).toBe('Lost answer, edited');
});

test.describe('in a US browser (en-US, America/New_York)', () => {
  test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

  test('a half-typed release date stops the step with a reason, and a date alone is the start of that day', async ({ page, request }) => {
    const slug = `dated-${Date.now()}`;
    await openEditor(page);
    await page.getByLabel('Name').fill('Dated mug');
    await page.getByLabel('Slug').fill(slug);
    const release = page.getByRole('textbox', { name: 'Release date' });
    await release.fill('2026-03');
    await next(page);
    await expect(release).toHaveAttribute('aria-invalid', 'true');
    await expect(release).toBeFocused();
    await expect(page.getByText(/^Not a date: type it as YYYY-MM-DD/)).toBeVisible();

    // Picked from the calendar instead: the field shows what it means, in local time and UTC.
    await page.getByRole('button', { name: 'Pick release date from a calendar' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^15 \w+ \d{4}$/ })
      .click();
    await expect(release).toHaveValue(/^\d{4}-\d{2}-15$/);
    await expect(release).not.toHaveAttribute('aria-invalid');
    await release.fill('2026-03-01');
    await expect(page.getByTestId('releaseAt-meaning')).toContainText('2026-03-01 05:00:00 UTC');
    await expect(page.getByTestId('expiryAt-meaning')).toHaveText('Empty: never expires.');
    for (let step = 0; step < 4; step += 1) await next(page);
    await expect(page.getByText('Ready to create')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Basics' })).toContainText('2026-03-01 05:00:00 UTC (sent as 1772341200)');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByText('Product created')).toBeVisible();
    expect((await storedProduct(request, slug))?.release_date).toBe('1772341200');
  });
});

test.describe('in a German browser (de-DE, Europe/Berlin)', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('a price cell and what is sent read the same: 1,299 is refused everywhere, 1.299,95 is sent as 129995', async ({
    page,
    request,
  }) => {
    const slug = `becher-${Date.now()}`;
    await openEditor(page);
    await page.getByLabel('Name').fill('Becher');
    await page.getByLabel('Slug').fill(slug);
    await page.getByRole('textbox', { name: 'Release date' }).fill('01.03.2026 14:30');
    await expect(page.getByTestId('releaseAt-meaning')).toContainText('1. März 2026');
    await expect(page.getByTestId('releaseAt-meaning')).toContainText('2026-03-01 13:30:00 UTC');
    await next(page);
    await next(page);

    await cell(page, 'eur', 1).fill('1,299');
    await cell(page, 'eur', 1).press('Tab');
    await expect(cell(page, 'eur', 1)).toHaveAttribute('aria-invalid', 'true');
    await next(page);
    // Next refuses what the cell refuses: the step stays.
    await expect(page.getByRole('heading', { name: 'Prices' })).toBeVisible();
    await expect(cell(page, 'eur', 1)).toBeFocused();

    await cell(page, 'eur', 1).fill('1.299,95');
    await cell(page, 'eur', 2).fill('1,5');
    await cell(page, 'eur', 2).press('Tab');
    await expect(cell(page, 'eur', 1)).toHaveValue('1299.95');
    await expect(cell(page, 'eur', 2)).toHaveValue('1.50');
    await next(page);
    await next(page);
    await expect(page.getByText('Ready to create')).toBeVisible();
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByText('Product created')).toBeVisible();
    const stored = await storedProduct(request, slug);
    expect(stored).toMatchObject({
      'module_field_14/product/price/eur/1': '129995',
      'module_field_14/product/price/eur/2': '150',
      // 14:30 in Berlin on 1 March 2026 (CET, UTC+1).
      release_date: String(Date.UTC(2026, 2, 1, 13, 30) / 1000),
    });
  });
});

// Every step of the editor is scanned by axe, light and dark, at 1440 and 390 px, in e2e/screenshots.spec.ts.

test('a 3 × 8 product with the bulk tools takes fewer than half the keys and clicks of typing every option', async ({ page, request }) => {
  test.setTimeout(180_000);
  const slug = `bulk-${Date.now()}`;
  const attributes = ['Size', 'Colour', 'Fabric'];
  const optionNames = ['A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7', 'H8'];
  const stock = '5';
  // Every option of every attribute carries the same 12 price adjustments (6 currencies × 2 tiers).
  const cells = CURRENCIES.flatMap((currency) => [1, 2].map((tier) => ({ currency, tier, value: tier === 1 ? '2.50' : '3.00' })));

  // What it takes today, with no bulk tools: for each option, a click to add it (the first comes with its
  // attribute), a click and its name, a click and its stock, a click into its grid and each price with a
  // key to move on. Plus, per attribute, a click to add it and its name.
  const perOption = 1 + (1 + 2) + (1 + stock.length) + 1 + cells.reduce((n, cell) => n + cell.value.length + 1, 0);
  const today = attributes.reduce((n, name) => n + 1 + name.length + optionNames.length * perOption - 1, 0);

  // With the bulk tools, counted as they happen: every key typed and every click.
  let used = 0;
  const type = async (text: string) => {
    await page.keyboard.type(text);
    used += text.length;
  };
  const press = async (key: string) => {
    await page.keyboard.press(key);
    used += 1;
  };
  const click = async (target: Locator) => {
    await target.click();
    used += 1;
  };

  await openEditor(page);
  await page.getByLabel('Name').fill('Bulk throw');
  await page.getByLabel('Slug').fill(slug);
  for (let step = 0; step < 3; step += 1) await next(page);

  for (const [a, name] of attributes.entries()) {
    await click(page.getByRole('button', { name: 'Add attribute' }));
    const section = page.getByRole('region', { name: `Attribute ${a + 1}` });
    await expect(section.getByLabel('Attribute name')).toBeFocused();
    await type(name);
    // The first option: typed in full once.
    await click(section.getByLabel('Option name').first());
    await type(optionNames[0] ?? '');
    await click(section.getByLabel('Stock').first());
    await type(stock);
    await click(cell(section, 'aud', 1, 'option').first());
    for (const { value } of cells) {
      await type(value);
      await press('Tab');
    }
    // The other seven start from the one before: only their names are typed.
    for (let o = 1; o < optionNames.length; o += 1) {
      await click(section.getByRole('button', { name: 'Add option like the last' }));
      await expect(section.getByLabel('Option name').nth(o)).toBeFocused();
      await type(optionNames[o] ?? '');
    }
    // Collapse the attribute, so the next one is added at the bottom of a short page.
    await click(section.getByRole('button', { name: /^Collapse attribute/ }));
  }

  test.info().annotations.push({ type: 'keys and clicks', description: `${used} with the bulk tools, ${today} option by option` });
  expect(used * 2).toBeLessThan(today);
  await next(page);
  await expect(page.getByText('Ready to create')).toBeVisible();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();

  const prices = Object.fromEntries(
    cells.map(({ currency, tier, value }) => [
      `module_field_14/product_attribute_option/price/${currency}/${tier}`,
      value.replace('.', ''),
    ]),
  );
  const stored = await storedProduct(request, slug);
  expect(stored?.attributes).toEqual(
    attributes.map((name) => ({
      name,
      enabled: 'true',
      items: optionNames.map((option) => ({
        name: option,
        enabled: 'true',
        ...prices,
        'module_field_14/product_attribute_option/inventory/1': stock,
      })),
    })),
  );
});

test.describe('a template in the history entry (as "Start a new product from this one" leaves it)', () => {
  const openWithTemplate = async (page: Page, template: unknown) => {
    await page.goto('/cases');
    await page.evaluate((usr) => window.history.replaceState({ usr: { template: usr }, idx: 0 }, '', '/products/new'), template);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();
  };

  test('opens the editor with the product, without its slug', async ({ page }) => {
    await openWithTemplate(page, { name: 'Linen throw', slug: 'linen-throw', enabled: 'true' });
    await expect(page.getByLabel('Name')).toHaveValue('Linen throw');
    await expect(page.getByLabel('Slug')).toHaveValue('');
  });

  test('is left out when the contract does not accept it, as an older version or a hand edit might leave it', async ({ page }) => {
    await openWithTemplate(page, { name: 12, unknown_field: 'x' });
    await expect(page.getByLabel('Name')).toHaveValue('');
  });
});

test.describe('on a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the steps are one line with a menu, the grid scrolls in its frame, and a product is created', async ({ page, request }) => {
    const slug = `phone-${Date.now()}`;
    await openEditor(page);
    await expect(page.getByText('Step 1 of 5: Basics')).toBeVisible();
    await page.getByLabel('Name').fill('Phone mug');
    await page.getByLabel('Slug').fill(slug);
    await next(page);
    await next(page);
    await expect(page.getByText('Step 3 of 5: Pricing and inventory')).toBeVisible();
    // The page itself never scrolls sideways; the grid does, inside its frame.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await cell(page, 'usd', 4).fill('9.99');
    await expect(cell(page, 'usd', 4)).toBeInViewport();
    // Back to Basics through the steps menu.
    await page.getByRole('button', { name: /^Steps: step 3 of 5/ }).click();
    await page.getByRole('menuitem', { name: '1. Basics' }).click();
    await expect(page.getByLabel('Name')).toHaveValue('Phone mug');
    for (let step = 0; step < 4; step += 1) await next(page);
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByText('Product created')).toBeVisible();
    expect((await storedProduct(request, slug))?.['module_field_14/product/price/usd/4']).toBe('999');
  });
});
