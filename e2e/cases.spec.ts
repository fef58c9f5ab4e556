import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { COLOUR_RULES, expectNoA11yViolations } from './a11y';
import { addCase } from './sandbox';

const formBox = (page: Page) => page.getByRole('textbox', { name: 'Form identifier' });
const caseBox = (page: Page) => page.getByRole('textbox', { name: 'Case identifier' });
const caseHeading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 2, name });

async function lookUp(page: Page, form: string, id: string) {
  await formBox(page).fill(form);
  await caseBox(page).fill(id);
  await caseBox(page).press('Enter');
}

/** Presses Tab until the element has focus (at most `most` times), the way a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, most = 25) {
  // The target may not be in the page yet (a row of a long table, rendered once it is near the screen).
  const focused = async () =>
    (await target.count()) > 0 &&
    (await target.evaluate((el) => el === document.activeElement, undefined, { timeout: 1000 }).catch(() => false));
  for (let presses = 0; presses < most && !(await focused()); presses += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The row of a field, found by its raw key. */
const fieldRow = (page: Page, key: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader').filter({ has: page.getByText(key, { exact: true }) }) });

test.describe('case lookup', () => {
  test('by typing: the address becomes a deep link, back and forward work, going back is cached', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => void (request.url().includes('/api/site/v2/forms/') && requests.push(new URL(request.url()).pathname)));
    await page.goto('/cases');
    await lookUp(page, ' 3 ', ' 48217 ');
    await expect(page).toHaveURL(/\/cases\/3\/48217$/);
    await expect(caseHeading(page, 'Contact us: case 48217')).toBeFocused();
    await expect(fieldRow(page, 'email').getByRole('link')).toHaveAttribute('href', /^mailto:.+@/);
    await expect(fieldRow(page, 'form_field_3_2')).toContainText('Form field 2');
    await formBox(page).fill('7');
    await caseBox(page).fill('48260');
    await page.getByRole('button', { name: 'Look up case' }).click();
    await expect(page).toHaveURL(/\/cases\/7\/48260$/);
    await expect(caseHeading(page, 'Returns and exchanges: case 48260')).toBeVisible();
    await expect(fieldRow(page, 'order_id')).toContainText('Order ID');
    await page.goBack();
    await expect(caseHeading(page, 'Contact us: case 48217')).toBeVisible();
    await expect(formBox(page)).toHaveValue('3');
    await expect(page.getByRole('search', { name: 'Case lookup' })).toHaveCount(1);
    await page.goForward();
    await expect(caseHeading(page, 'Returns and exchanges: case 48260')).toBeVisible();
    expect(requests).toEqual(['/api/site/v2/forms/3/cases/48217', '/api/site/v2/forms/7/cases/48260']);
  });

  test('by deep link, with the exact submission time on hover; a pasted link fills both fields', async ({ page, context }) => {
    await page.goto('/cases/12/48311');
    await expect(caseHeading(page, 'Summit registration: case 48311')).toBeVisible();
    await expect(page).toHaveTitle('Summit registration: case 48311 · site-admin');
    await expect(formBox(page)).toHaveValue('12');
    const refetch = page.waitForRequest((request) => request.url().endsWith('/api/site/v2/forms/12/cases/48311'));
    await page.getByRole('button', { name: /^Refresh/ }).click();
    await refetch;
    await page.locator('h2 + p time').hover();
    await expect(page.getByRole('tooltip')).toContainText(/20\d\d/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate(() => navigator.clipboard.writeText('http://127.0.0.1:4179/cases/7/48260'));
    await formBox(page).fill('');
    await formBox(page).focus();
    await page.keyboard.press('ControlOrMeta+V');
    await expect(formBox(page)).toHaveValue('7');
    await expect(caseBox(page)).toHaveValue('48260');
    await formBox(page).fill('forms/3/cases/48221');
    await expect(caseBox(page)).toHaveValue('48221');
  });

  test('copy a value, copy the case as JSON, download it as a file', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const record = (await (await request.get('/api/site/v2/forms/3/cases/48217')).json()) as { properties: { email: string } };
    await page.goto('/cases/3/48217');
    await expect(caseHeading(page, 'Contact us: case 48217')).toBeVisible();
    await fieldRow(page, 'email')
      .getByRole('button', { name: /^Copy value of Email/ })
      .click();
    await expect(fieldRow(page, 'email').getByRole('button', { name: /^Copied value of Email/ })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(record.properties.email);
    // Its name starts with what it shows, so a voice command for the label finds it (WCAG 2.5.3).
    await page.getByRole('button', { name: 'Copy JSON', exact: false }).click();
    await expect(page.getByRole('button', { name: 'Copied JSON of the case' })).toHaveText('Copied');
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(record);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Download JSON/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('form-3-case-48217.json');
    expect(JSON.parse(await readFile(await file.path(), 'utf8'))).toEqual(record);
  });

  test('keyboard only, from the empty page to a result and its raw JSON', async ({ page }) => {
    await page.goto('/cases');
    await tabTo(page, formBox(page));
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await expect(caseBox(page)).toBeFocused();
    await page.keyboard.type('48217');
    await page.keyboard.press('Enter');
    await expect(caseHeading(page, 'Contact us: case 48217')).toBeFocused();
    await tabTo(page, page.getByRole('tab', { name: /^Fields/ }));
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Raw JSON' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tabpanel')).toContainText('"form_name": "Contact us"');
  });
});

test.describe('any shape the platform returns', () => {
  test('a number too large for JavaScript keeps every digit: in the table, the raw JSON, Copy JSON and Download JSON', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const stored = await addCase(
      request,
      '7',
      '{"name":"form_7","form_name":"Returns and exchanges","order_id":12345678901234567890,"properties":{"refund":1.50,"lines":[{"sku":98765432109876543210}]}}',
    );
    await page.goto(`/cases/7/${stored.id}`);
    await expect(caseHeading(page, `Returns and exchanges: case ${stored.id}`)).toBeVisible();
    await expect(fieldRow(page, 'order_id').getByRole('cell').first()).toHaveText('12345678901234567890');
    await expect(fieldRow(page, 'refund').getByRole('cell').first()).toHaveText('1.50');
    await expect(fieldRow(page, 'lines')).toContainText('98765432109876543210');

    await page.getByRole('tab', { name: 'Raw JSON' }).click();
    const raw = page.getByRole('tabpanel').locator('pre');
    await expect(raw).toContainText('"order_id": 12345678901234567890,');
    await expect(raw).toContainText('"refund": 1.50,');
    await expect(raw).toContainText('"sku": 98765432109876543210');

    await page.getByRole('button', { name: 'Copy JSON', exact: false }).click();
    await expect(page.getByRole('button', { name: 'Copied JSON of the case' })).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await raw.textContent());
    expect(copied).toContain('"order_id": 12345678901234567890,');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Download JSON/ }).click();
    const saved = await readFile(await (await download).path(), 'utf8');
    expect(saved).toContain('"order_id": 12345678901234567890,');
    expect(saved).toContain('"sku": 98765432109876543210');
    expect(saved.replace(/\s/g, '')).toBe(
      `{"name":"form_7","form_name":"Returnsandexchanges","order_id":12345678901234567890,"properties":{"refund":1.50,"lines":[{"sku":98765432109876543210}]},"id":"${stored.id}"}`,
    );
  });

  test(
    'a case of 800 fields of every kind: first rows at once, all of them counted, filtered, reached by keyboard and scrolling',
    { tag: '@phone' },
    async ({ page, request }) => {
      const kinds = (i: number): unknown =>
        [
          `Message ${i}: the parcel arrived on time but one mug was chipped.\nCould you send a replacement?`,
          `customer.${i}@example.com`,
          1767225600 + i * 3600,
          ['Orders', 'Shipping', 'Returns'].slice(0, 1 + (i % 3)),
          `https://cdn.example.com/uploads/form_3/${i}/photo.jpg`,
          { street: `${i} Cuba Street`, city: 'Wellington', postcode: '6011' },
          i % 4 === 0,
          '',
          `answer ${i}`,
        ][i % 9];
      const properties: Record<string, unknown> = Object.fromEntries(
        Array.from({ length: 795 }, (_, i) => [`form_field_3_${i + 1}`, kinds(i + 1)]),
      );
      // A long value last, to open at the bottom of the table.
      properties.form_field_3_796 = 'one mug chipped '.repeat(400);
      const stored = await addCase(request, '3', { name: 'form_3', form_name: 'Contact us', created_at: 1767225600, properties });
      await page.goto('/cases');
      await lookUp(page, '3', stored.id);
      await expect(fieldRow(page, 'form_field_3_1')).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Fields (800)' })).toBeVisible();
      // Only the rows near the screen are in the page; the table says how many there are (the column
      // headings, two section titles and 800 fields), and where each row it holds is among them.
      const table = page.getByRole('table');
      await expect(table).toHaveAttribute('aria-rowcount', String(1 + 2 + 800));
      expect(await page.getByRole('rowheader').count()).toBeLessThan(100);
      await expect(fieldRow(page, 'form_field_3_1')).toHaveAttribute('aria-rowindex', '3');

      // Keyboard: Tab goes from row to row (links, disclosures, Copy), each scrolled into view as it is reached.
      const copy40 = page.getByRole('button', { name: 'Copy value of Form field 40 (form_field_3_40)' });
      await expect(copy40).toHaveCount(0);
      await fieldRow(page, 'form_field_3_1')
        .getByRole('button', { name: /^Copy value of/ })
        .focus();
      await tabTo(page, copy40, 200);
      await expect(copy40).toBeInViewport();
      await expect(fieldRow(page, 'form_field_3_40')).toHaveAttribute('aria-rowindex', '42');
      await page.keyboard.press('Shift+Tab');
      await expect(fieldRow(page, 'form_field_3_40').getByRole('link')).toBeFocused();
      // Rows above and below the rendered ones are held by spacers, hidden from assistive technology.
      await expectNoA11yViolations(page);

      // Scrolling: the last rows are there at the bottom, and a long value opened there stays open when
      // its row has been scrolled out of the page and back.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const last = fieldRow(page, 'form_field_3_796');
      await last.getByRole('button', { name: /^Show all \(.+\) of Form field 796$/ }).click();
      await expect(last.getByRole('button', { name: 'Show less of Form field 796' })).toHaveAttribute('aria-expanded', 'true');
      await expect(last.getByRole('cell').first()).toContainText('one mug chipped '.repeat(400).trim());
      // The row holding the focus stays in the page however far it is scrolled away; the others go.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expect(fieldRow(page, 'form_field_3_1')).toHaveCount(1);
      await expect(last.getByRole('button', { name: 'Show less of Form field 796' })).toBeFocused();
      await expect(fieldRow(page, 'form_field_3_700')).toHaveCount(0);
      const filter = page.getByRole('searchbox', { name: 'Filter fields' });
      await filter.focus();
      await expect(last).toHaveCount(0);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(last.getByRole('button', { name: 'Show less of Form field 796' })).toBeInViewport();

      // The filter is the way to find a field: it looks in every row, rendered or not.
      await page.evaluate(() => window.scrollTo(0, 0));
      await filter.fill('answer 791');
      await expect(page.getByRole('rowheader')).toHaveCount(1);
      await expect(fieldRow(page, 'form_field_3_791')).toContainText('answer 791');
      await expect(page.getByRole('status').filter({ hasText: 'Showing' })).toHaveText('Showing 1 of 800 fields');
      await expect(table).toHaveAttribute('aria-rowcount', String(1 + 1 + 1));
    },
  );

  test(
    'a 200 KB value is cut to a few lines, so the page stays short, until Show all; Show less cuts it again',
    { tag: '@phone' },
    async ({ page, context, request }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      // 200 × 1,024 bytes of ordinary text, one line.
      const message = 'one mug chipped '.repeat(12_800);
      const stored = await addCase(request, '3', {
        name: 'form_3',
        form_name: 'Contact us',
        properties: { email: 'aroha@example.com', message },
      });
      await page.goto(`/cases/3/${stored.id}`);
      const row = fieldRow(page, 'message');
      const pageHeight = () => page.evaluate(() => document.documentElement.scrollHeight);
      const showAll = row.getByRole('button', { name: 'Show all (200 KB) of Message' });
      await expect(showAll).toBeVisible();
      expect(await pageHeight()).toBeLessThan(2500);
      expect((await row.getByRole('cell').first().textContent())?.length).toBeLessThan(2000);
      await showAll.click();
      const showLess = row.getByRole('button', { name: 'Show less of Message' });
      await expect(showLess).toHaveAttribute('aria-expanded', 'true');
      await expect(row.getByRole('cell').first()).toContainText(message.trim());
      expect(await pageHeight()).toBeGreaterThan(10_000);
      await showLess.click();
      await expect(showAll).toHaveAttribute('aria-expanded', 'false');
      await expect(showAll).toBeInViewport();
      expect(await pageHeight()).toBeLessThan(2500);
      // Copy copies all of it, cut or not.
      await row.getByRole('button', { name: /^Copy value of Message/ }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(message);
    },
  );

  test('invisible characters show as marks: U+202E then gnp.exe reads as written, never as exe.png; Copy keeps them', async ({
    page,
    context,
    request,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const stored = await addCase(request, '3', {
      name: 'form_3',
      form_name: 'Contact us',
      properties: {
        attachment: '\u202Egnp.exe',
        reference: 'INV\u200B-2041',
        tags: ['\u202Efdp.scr', 'Orders'],
        site: 'https://example.com/\u202Egnp.exe',
      },
    });
    await page.goto(`/cases/3/${stored.id}`);
    await expect(page.getByText('This case holds characters that are invisible or change the direction of text.')).toBeVisible();
    const attachment = fieldRow(page, 'attachment').getByRole('cell').first();
    await expect(attachment).toHaveText('⟨U+202E RLO⟩gnp.exe');
    // As drawn: the "g" is left of the final "e", which an override to right-to-left would swap.
    const [g, e] = await attachment.evaluate((cell) => {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf('gnp.exe') ?? -1;
        if (at < 0) continue;
        const x = (offset: number) => {
          const range = document.createRange();
          range.setStart(node, offset);
          range.setEnd(node, offset + 1);
          return range.getBoundingClientRect().left;
        };
        return [x(at), x(at + 6)];
      }
      return [NaN, NaN];
    });
    expect(g).toBeLessThan(e ?? NaN);
    await expect(fieldRow(page, 'reference').getByRole('cell').first()).toHaveText('INV⟨U+200B ZWSP⟩-2041');
    await expect(fieldRow(page, 'tags').getByRole('listitem').first()).toHaveText('⟨U+202E RLO⟩fdp.scr');
    await expect(fieldRow(page, 'site').getByRole('link')).toContainText('⟨U+202E RLO⟩gnp.exe');
    expect(await page.locator('#main').evaluate((main) => /[\u202a-\u202e\u2066-\u2069\u200b]/.test(main.textContent ?? ''))).toBe(false);
    await fieldRow(page, 'attachment')
      .getByRole('button', { name: /^Copy value of Attachment/ })
      .click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('\u202Egnp.exe');
    await page.getByRole('tab', { name: 'Raw JSON' }).click();
    await expect(page.getByRole('tabpanel').locator('pre')).toContainText('"attachment": "⟨U+202E RLO⟩gnp.exe"');
  });

  test(
    'Copy shows on the row under the pointer or holding the focus, where there is a pointer; Tab always reaches it',
    { tag: '@phone' },
    async ({ page, hasTouch }) => {
      await page.goto('/cases/3/48217');
      const row = fieldRow(page, 'email');
      const copy = row.getByRole('button', { name: 'Copy value of Email (email)' });
      if (hasTouch) {
        await expect(copy).toHaveCSS('opacity', '1');
      } else {
        await page.mouse.move(0, 0);
        await expect(copy).toHaveCSS('opacity', '0');
        await row.hover();
        await expect(copy).toHaveCSS('opacity', '1');
        await page.mouse.move(0, 0);
      }
      await row.getByRole('link').focus();
      await page.keyboard.press('Tab');
      await expect(copy).toBeFocused();
      await expect(copy).toHaveCSS('opacity', '1');
    },
  );

  test('unknown shapes, deep nesting and markup show as text, never run', async ({ page, request }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
    const stored = await addCase(request, '3', {
      '<img src=x onerror=alert(1)>': '<script>alert(2)</script><b>bold?</b>',
      ticket: { level1: { level2: { level3: { level4: 'deep' } } } },
      matrix: [
        [1, 2],
        [3, [4, [5]]],
      ],
      link: 'javascript:alert(3)',
      nothing: null,
    });
    await page.goto(`/cases/3/${stored.id}`);
    await expect(caseHeading(page, `Form 3: case ${stored.id}`)).toBeVisible();
    const main = page.locator('#main');
    await expect(main.getByText('<script>alert(2)</script><b>bold?</b>')).toBeVisible();
    await expect(main.locator('img, b, script')).toHaveCount(0);
    await expect(fieldRow(page, 'link').getByRole('link')).toHaveCount(0);
    await expect(fieldRow(page, 'nothing')).toContainText('(null)');
    await page.getByRole('button', { name: 'Show 1 field of Ticket, Level1, Level2' }).click();
    await page.getByRole('button', { name: /^Show 1 field of Ticket, Level1, Level2, Level3/ }).click();
    await expect(fieldRow(page, 'ticket')).toContainText('deep');
    expect(dialogs).toEqual([]);
  });
});

// The Cases page empty, a case, its raw JSON and an error are scanned by axe, light and dark, at 1440 and
// 390 px in e2e/screenshots.spec.ts; here, the states of the lookup itself that the screenshots do not show.
test(
  'no WCAG 2.2 AA violations in the light or the dark scheme: a lookup with no form, a form read as its number',
  { tag: '@phone' },
  async ({ page }) => {
    const scanBothSchemes = async (screen: string) => {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        // Colours mid-transition are not what a person sees a moment later.
        await page.evaluate(() => {
          for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
        });
        // Every rule in the first scheme; in the second, only what a scheme changes: the colours.
        await expectNoA11yViolations(page, { screen: `${screen}, ${scheme}`, rules: scheme === 'light' ? undefined : COLOUR_RULES });
      }
    };
    await page.goto('/cases');
    await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
    await page.getByRole('button', { name: 'Look up case' }).click();
    await expect(formBox(page)).toHaveAttribute('aria-invalid', 'true');
    await scanBothSchemes('a lookup with no form');
    await lookUp(page, 'form_7', '48260');
    await expect(caseHeading(page, 'Returns and exchanges: case 48260')).toBeVisible();
    await expect(formBox(page)).toHaveAccessibleDescription(/^“form_7” read as form 7, its number$/);
    await scanBothSchemes('a form read as its number');
  },
);
