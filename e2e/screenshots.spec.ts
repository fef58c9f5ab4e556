/**
 * Every screen at a desktop's 1440 × 900, a phone's 390 × 844 and a tablet's 768 × 1024, in the light and
 * the dark scheme, saved as PNGs among the test artefacts (`test-results/`, attached to each test's
 * report) for a person to look at. Each screen is also checked for what a screenshot cannot be trusted to show: its main heading is
 * there, nothing makes the page scroll sideways, the header's name and mode badge are whole and on one
 * line, and no button, tab, link of the navigation or form label breaks onto a second line.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { addCase } from './sandbox';

const SIZES = [
  { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
  { name: 'phone', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: 'tablet', use: { viewport: { width: 768, height: 1024 }, isMobile: true, hasTouch: true } },
] as const;

/**
 * Labels (buttons, tabs, form labels, the header's links, the navigation's entries) inside `scope` whose
 * own text runs over more than one line. Descriptions under a label may wrap; a label may not.
 */
function wrappedLabels(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((scope) => {
    const selector = 'button, [role="tab"], label, header a, [class*="NavLink-label"], [class*="Badge-label"]';
    const wrapped: string[] = [];
    for (const root of document.querySelectorAll(scope)) {
      for (const element of root.querySelectorAll<HTMLElement>(selector)) {
        if (element.getClientRects().length === 0) continue;
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim() || node.parentElement?.closest('[class*="description"], [class*="error"]')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
          // A second line starts at least half a line lower than the first.
          const first = rects[0];
          if (first && rects.some((rect) => rect.top - first.top > first.height / 2)) {
            wrapped.push(node.textContent.replace(/\s+/g, ' ').trim());
          }
        }
      }
    }
    return wrapped;
  }, scope);
}

async function shoot(page: Page, testInfo: TestInfo, screen: string) {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // Against the screen's own width: a phone widens its layout viewport (innerWidth) to fit a page too wide.
  const width = page.viewportSize()?.width ?? 0;
  const overflow = await page.evaluate((width) => document.documentElement.scrollWidth - width, width);
  expect.soft(overflow, `${screen}: the page scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  const badge = page.locator('header [class*="Badge-label"]');
  await expect(badge).toBeVisible();
  const cut = await badge.evaluate((label) => label.scrollWidth - label.clientWidth);
  expect.soft(cut, `${screen}: the mode badge's text is cut off`).toBeLessThanOrEqual(0);
  expect.soft(await wrappedLabels(page, 'body'), `${screen}: labels that break onto a second line`).toEqual([]);
  const path = testInfo.outputPath(`${screen}.png`);
  // Soft checks above: every screen is still saved, and the test fails listing every problem found.
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  await testInfo.attach(screen, { path, contentType: 'image/png' });
}

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

for (const size of SIZES) {
  test.describe(`at ${size.use.viewport.width}×${size.use.viewport.height}`, () => {
    test.use(size.use);

    for (const scheme of ['light', 'dark'] as const) {
      test(`every screen, ${scheme}`, async ({ page, request }, testInfo) => {
        await page.emulateMedia({ colorScheme: scheme });
        const special = await addCase(request, '3', {
          name: 'form_3',
          form_name: 'Contact us',
          created_at: 1767225600,
          properties: {
            name: 'Aroha Ngata',
            email: 'aroha@example.com',
            attachment: '\u202Egnp.exe',
            reference: 'INV\u200B-2041',
            topics: ['Orders', 'Returns', 'Shipping'],
            message: `${'The parcel arrived on time but one mug was chipped. '.repeat(4000)}`,
            address: { street: '12 Cuba Street', city: 'Wellington', postcode: '6011' },
            website: 'https://www.example.com/orders/2041',
            subscribed: true,
            notes: '',
          },
        });

        await page.goto('/cases');
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await shoot(page, testInfo, 'cases-empty');

        await page.goto('/cases/3/48217');
        await expect(page.getByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeVisible();
        await shoot(page, testInfo, 'case');

        await page.getByRole('tab', { name: 'Raw JSON' }).click();
        await expect(page.getByRole('tabpanel').locator('pre')).toBeVisible();
        await shoot(page, testInfo, 'case-raw-json');

        await page.goto(`/cases/3/${special.id}`);
        await expect(page.getByRole('heading', { level: 2, name: `Contact us: case ${special.id}` })).toBeVisible();
        await shoot(page, testInfo, 'case-long-and-invisible');

        await page.goto('/cases/3/99999');
        await expect(page.getByRole('alert')).toContainText('No case 99999 in form 3');
        await shoot(page, testInfo, 'case-error');

        await page.evaluate(() => localStorage.removeItem('site-admin:product-drafts:v2'));
        await page.goto('/products/new');
        await page.getByLabel('Name').fill('Screenshot mug');
        await page.getByLabel('Slug').fill(`screenshot-mug-${size.name}-${scheme}-${Date.now()}`);
        await shoot(page, testInfo, 'editor-1-basics');
        for (const step of ['2-placement', '3-pricing', '4-attributes', '5-review']) {
          await next(page);
          if (step === '4-attributes') {
            await page.getByRole('button', { name: 'Add attribute' }).click();
            await page.getByLabel('Attribute name').fill('Colour');
            await page.getByLabel('Option name').fill('Natural');
          }
          await shoot(page, testInfo, `editor-${step}`);
        }
        await page.getByRole('button', { name: 'Create product' }).click();
        await expect(page.getByText('Product created')).toBeVisible();
        await shoot(page, testInfo, 'product-created');

        await page.goto('/products');
        await expect(page.getByRole('link', { name: 'Screenshot mug' }).first()).toBeVisible();
        await shoot(page, testInfo, 'products');

        await page.goto('/no/such/page');
        await shoot(page, testInfo, 'not-found');

        // A live site with a long host name: the badge must still fit a phone's header.
        await page.route('**/api/sites', (route) =>
          route.fulfill({
            json: {
              sites: [
                { id: 'main', name: 'Harbourside Homewares', mode: 'platform', host: 'www.harbourside-homewares.co.nz', siteId: '123456', currencies: ['nzd'], decimals: 2 },
              ],
            },
          }),
        );
        await page.goto('/cases');
        await expect(page.locator('[data-mode="platform"]')).toContainText('site 123456');
        await shoot(page, testInfo, 'cases-live-site');
      });
    }
  });
}
