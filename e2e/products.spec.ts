import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';
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
const cell = (scope: Page | Locator, currency: string, tier: number) =>
  scope.getByRole('textbox', { name: `${currency.toUpperCase()} Tier ${tier}`, exact: true });

/** Presses Tab until the locator has the focus, as a keyboard user would; fails after `max` presses. */
async function tabUntilFocused(page: Page, target: Locator, max = 15) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test.beforeEach(async ({ page }) => {
  // Each test starts without a draft or history from an earlier one.
  await page.goto('/cases');
  await page.evaluate(() => localStorage.clear());
});

test('creates a product with the full price grid and two attributes of three options, stored exactly as the wire format', async ({ page, request }) => {
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
    for (let o = 1; o < attribute.options.length; o += 1) await section.getByRole('button', { name: 'Add option' }).click();
    for (const [o, option] of attribute.options.entries()) {
      await section.getByLabel('Option name').nth(o).fill(option);
      await section.getByLabel('Option inventory').nth(o).fill(String(5 + o));
      await cell(section, 'usd', 1).nth(o).fill(`${o}.50`);
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

test('a block pasted from a spreadsheet fills the grid from the cell it lands in, and what does not fit is clipped with a notice', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openEditor(page);
  await page.getByLabel('Name').fill('Paste test');
  await next(page);
  await next(page);
  await page.evaluate(() => navigator.clipboard.writeText('1,299.00\t12\r\n$7.5\tabc\r\n3\t4\t5\r\n'));
  await cell(page, 'gbp', 3).focus();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(cell(page, 'gbp', 3)).toHaveValue('1299.00');
  await expect(cell(page, 'gbp', 4)).toHaveValue('12.00');
  await expect(cell(page, 'nzd', 3)).toHaveValue('7.50');
  // What cannot be read is kept as typed and marked, never turned into 0.
  await expect(cell(page, 'nzd', 4)).toHaveValue('abc');
  await expect(cell(page, 'nzd', 4)).toHaveAttribute('aria-invalid', 'true');
  await expect(cell(page, 'usd', 3)).toHaveValue('3.00');
  await expect(page.getByText('1 that fell outside the grid were left out')).toBeVisible();
  // The unreadable cell blocks the step.
  await next(page);
  await expect(page.getByRole('heading', { name: 'Prices' })).toBeVisible();
});

test('a duplicate slug answered 422 by the platform lands on the slug field of step 1', async ({ page }) => {
  const slug = `twice-${Date.now()}`;
  for (const attempt of [1, 2]) {
    await openEditor(page);
    await page.getByLabel('Name').fill(`Twice ${attempt}`);
    await page.getByLabel('Slug').fill(slug);
    await next(page);
    await next(page);
    await next(page);
    await next(page);
    await page.getByRole('button', { name: 'Create product' }).click();
    if (attempt === 1) await expect(page.getByText('Product created')).toBeVisible();
  }
  await expect(page.getByText('The platform did not accept the product (422 Unprocessable Entity)')).toBeVisible();
  await expect(page.getByLabel('Slug')).toBeFocused();
  await expect(page.getByText('is already used by another product on this site')).toBeVisible();
  await expect(page.getByRole('button', { name: /Step 1: Basics \(has errors\)/ })).toBeVisible();
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
  await expect.poll(() => page.evaluate(() => localStorage.getItem('site-admin:product-draft:v1') ?? '')).toContain('8.40');
  await page.reload();
  await expect(page.getByText('You have an unfinished product')).toBeVisible();
  await page.getByRole('button', { name: 'Restore draft' }).click();
  await expect(cell(page, 'eur', 2)).toHaveValue('8.40');
  await page.getByRole('button', { name: /Step 1: Basics/ }).click();
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

test('a create whose answer is lost says the outcome is unknown, keeps Create off until confirmed, then sends the product as it is now', async ({ page, request }) => {
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
  await page.getByRole('button', { name: /Step 1: Basics/ }).click();
  await page.getByLabel('Name').fill('Lost answer, edited');
  await page.getByRole('button', { name: /Step 5: Review/ }).click();
  await page.getByLabel('I checked: the product is not in the catalogue').check();
  await page.getByRole('button', { name: 'Let me create it again' }).click();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();
  expect((await storedProduct(request, slug))?.name).toBe('Lost answer, edited');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`every step of the editor passes an accessibility scan (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openEditor(page);
    await expectNoA11yViolations(page);
    await page.getByLabel('Name').fill('Accessible');
    for (let step = 2; step <= 5; step += 1) {
      await next(page);
      if (step === 4) await page.getByRole('button', { name: 'Add attribute' }).click();
      await expectNoA11yViolations(page);
    }
  });
}
