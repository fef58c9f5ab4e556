/**
 * Every screen at a desktop's 1440 × 900 and a phone's 390 × 844, in the light and the dark scheme, saved as
 * PNGs among the test artefacts (`test-results/`, attached to each test's report) for a person to look at;
 * and the header at its fullest at 768 px, the narrowest the desktop's frame gets. Each screen is also
 * checked for what a screenshot cannot be trusted to show: its main heading is there, nothing makes the
 * page scroll sideways, the header's name and mode badge are whole and on one line, no button, tab, link of
 * the navigation or form label breaks onto a second line, axe finds no WCAG 2.2 A or AA violation (label in
 * name included) and a keyboard pass finds every Tab stop showing the focus (e2e/keyboard.ts). A dialog or
 * menu closed gives the focus back to what opened it. Each screen is loaded once per size: both schemes are
 * looked at on the same page, the scheme switched in place as the system's would be.
 */
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { E2E } from '../playwright.config';
import { COLOUR_RULES, expectNoA11yViolations } from './a11y';
import { discardServerImports } from './imports';
import { keyboardPass } from './keyboard';
import { addCase } from './sandbox';
import { productFingerprint } from '../src/contract/products';

const SIZES = [
  { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
  { name: 'phone', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
] as const;

/**
 * 768 px wide, the narrowest the desktop's frame gets (the sm breakpoint): the navigation beside the page, and
 * in the header the mode badge's whole words and the signed-in person's name, which a phone's header leaves
 * out. Its one screen is that header at its fullest (a live site's long host name, a long name), laid out
 * again at this width on the desktop's page: looked at and saved, not scanned or walked through again.
 */
const NARROWEST_FRAME = { width: 768, height: 1024 };

/**
 * The tests of the second project of screenshots (playwright.config.ts): the screens run as two projects
 * side by side, each one test after another; the import's screens, which need the server's imports to
 * themselves, are all in the first.
 */
const SECOND = { tag: '@screenshots-2' };

const SCHEMES = ['light', 'dark'] as const;

/** The page in this scheme, as the system's setting changing would put it (the app follows it). */
async function inScheme(page: Page, scheme: (typeof SCHEMES)[number]) {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
  // Colours as a person sees them a moment later, not in the middle of a control's colour transition (axe
  // would measure the contrast of a colour halfway between the schemes').
  await page.evaluate(() => {
    for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
  });
}

/** The header's badge saying which site calls go to (with a single site; several have a switcher). */
const modeBadge = (page: Page) => page.getByRole('banner').getByText(/^(Sandbox|Live) ·/);

/**
 * Labels (buttons, tabs, form labels, the header's links and mode badge, the navigation's entries) whose
 * own text runs over more than one line. Descriptions and errors under a label (the text an input's
 * aria-describedby names) may wrap; a label may not.
 */
function wrappedLabels(page: Page): Promise<string[]> {
  const labels = page
    .getByRole('button')
    .or(page.getByRole('tab'))
    .or(page.locator('label'))
    .or(page.getByRole('banner').getByRole('link'))
    .or(page.getByRole('navigation', { name: 'Main' }).getByRole('link'))
    .or(modeBadge(page));
  return labels.evaluateAll((elements) => {
    const described = new Set(
      [...document.querySelectorAll('[aria-describedby]')].flatMap((e) => (e.getAttribute('aria-describedby') ?? '').split(/\s+/)),
    );
    const isDescription = (element: Element | null): boolean => {
      for (let at = element; at; at = at.parentElement) if (at.id && described.has(at.id)) return true;
      return false;
    };
    const wrapped: string[] = [];
    for (const element of elements) {
      if (element.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || isDescription(node.parentElement)) continue;
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
    return [...new Set(wrapped)];
  });
}

/** Whether its text fits its box (a badge's text is cut off with an ellipsis when it does not). */
const isCut = (element: Locator) => element.evaluate((label) => label.scrollWidth > label.clientWidth);

interface ShotOptions {
  /** Scanned by axe (at the desktop's and the phone's width; not at the narrowest frame's). */
  scan?: boolean;
  exclude?: string[];
  /** Walked through by keyboard after the screenshots; off for a screen shown in a state the focus makes. */
  keys?: boolean;
  /** The app's header is on the screen (not on the sign-in page). */
  header?: boolean;
}

/**
 * One screen, loaded once: checked, scanned and saved in each scheme, then walked through by keyboard in
 * each (last, as the pass moves the focus).
 */
async function shoot(
  page: Page,
  testInfo: TestInfo,
  screen: string,
  { scan = true, exclude, keys = scan, header = true }: ShotOptions = {},
) {
  for (const scheme of SCHEMES) {
    await inScheme(page, scheme);
    const name = `${screen}-${scheme}`;
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // Against the screen's own width: a phone widens its layout viewport (innerWidth) to fit a page too wide.
    const width = page.viewportSize()?.width ?? 0;
    const overflow = await page.evaluate((width) => document.documentElement.scrollWidth - width, width);
    expect.soft(overflow, `${name}: the page scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    if (header) {
      const badge = modeBadge(page).or(page.getByRole('button', { name: /, the current site: switch site$/ }));
      await expect(badge).toBeVisible();
      expect.soft(await isCut(badge), `${name}: the mode badge's text is cut off`).toBe(false);
    }
    expect.soft(await wrappedLabels(page), `${name}: labels that break onto a second line`).toEqual([]);
    // Every rule in the first scheme; in the second, only what a scheme changes: the colours.
    const rules = scheme === SCHEMES[0] ? undefined : COLOUR_RULES;
    if (scan) await expectNoA11yViolations(page, { soft: true, screen: name, exclude, rules });
    const path = testInfo.outputPath(`${name}.png`);
    // Soft checks above: every screen is still saved, and the test fails listing every problem found.
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    await testInfo.attach(name, { path, contentType: 'image/png' });
  }
  if (!keys) return;
  for (const scheme of SCHEMES) {
    await inScheme(page, scheme);
    expect.soft(await keyboardPass(page), `${screen}-${scheme}: Tab stops that do not show the focus`).toEqual([]);
  }
}

/** Presses Tab until `target` has the focus, as a keyboard user reaches it; fails if it never does. */
async function tabTo(page: Page, target: Locator, most = 60) {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${String(target)} in ${most} presses`);
}

const next = (page: Page) => page.getByRole('button', { name: /^Next:/ }).click();

for (const size of SIZES) {
  test.describe(`at ${size.use.viewport.width}×${size.use.viewport.height}`, () => {
    test.use(size.use);

    test('cases, the import, the site switcher and a live site’s header, light and dark', async ({ page, request }, testInfo) => {
      // Each screen checked and saved in both schemes, and scanned by axe and walked through by keyboard.
      test.setTimeout(240_000);
      const shot = (screen: string, options: ShotOptions = {}) => shoot(page, testInfo, screen, options);
      const special = await addCase(
        request,
        '3',
        {
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
        },
        E2E.shotsSandboxOrigin,
      );

      await page.goto('/cases');
      await shot('cases-empty');

      await page.goto('/cases/3/48217');
      await expect(page.getByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeVisible();
      await shot('case');

      await page.getByRole('tab', { name: 'Raw JSON' }).click();
      await expect(page.getByRole('tabpanel').locator('pre')).toBeVisible();
      await shot('case-raw-json');

      await page.goto(`/cases/3/${special.id}`);
      await expect(page.getByRole('heading', { level: 2, name: `Contact us: case ${special.id}` })).toBeVisible();
      await shot('case-long-and-invisible');

      await page.goto('/cases/3/99999');
      await expect(page.getByRole('alert')).toContainText('No case 99999 in form 3');
      await shot('case-error');

      await page.evaluate(() => localStorage.clear());
      await discardServerImports(page);
      await page.goto('/products/import');
      await shot('import-empty');
      const slug = `m${Date.now().toString(36)}`;
      const csv = `Name,Slug,"USD, Price"\r\nImported mug,${slug},12.50\r\nImported jug,${slug}-jug,1.999\r\n`;
      await page.locator('input[type="file"]').setInputFiles({ name: 'mugs.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
      await expect(page.getByText(/mugs\.csv: 2 rows?/)).toBeVisible();
      await shot('import-file');
      for (const scheme of SCHEMES) {
        await inScheme(page, scheme);
        await page.getByRole('button', { name: 'Start over' }).hover();
        const rules = scheme === SCHEMES[0] ? undefined : COLOUR_RULES;
        await expectNoA11yViolations(page, { soft: true, screen: `import, Start over hovered, ${scheme}`, include: ['main'], rules });
      }
      // The grid is one Tab stop: the keyboard lands on a cell, moves with the arrow keys and leaves with Tab.
      const grid = page.getByRole('grid', { name: 'Rows of the file' });
      await page.mouse.move(0, 0);
      await tabTo(page, grid.getByRole('button', { name: /^Row 2, Name: Imported mug/ }));
      await page.keyboard.press('ArrowDown');
      await expect(grid.getByRole('button', { name: /^Row 3, Name: Imported jug/ })).toBeFocused();
      await page.keyboard.press('End');
      const price = grid.getByRole('button', { name: /^Row 3, USD, Price: 1\.999/ });
      await expect(price).toBeFocused();
      // The cell's problem is tied to it.
      await expect(price).toHaveAccessibleDescription(/At most 2 decimal places/);
      await expect(price.locator('xpath=..')).toHaveAttribute('aria-invalid', 'true');
      await page.keyboard.press('F2');
      const editing = grid.getByRole('textbox', { name: 'Row 3, USD, Price' });
      await expect(editing).toBeFocused();
      await editing.fill('1.99');
      await editing.press('Enter');
      await expect(grid.getByRole('button', { name: /^Row 3, USD, Price: 1\.99,/ })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(grid.locator(':focus')).toHaveCount(0);
      await page.getByRole('button', { name: /^Create 2 products/ }).click();
      await expect(page.getByText('Finished: 2 of 2 answered')).toBeVisible();
      await shot('import-created');

      // The server of several sites: the switcher in the header, open.
      await page.goto(`${E2E.sitesURL}/s/harbour-linen/cases`);
      const switcher = page.getByRole('button', { name: /^Harbour Linen Sandbox, the current site/ });
      await switcher.hover();
      for (const scheme of SCHEMES) {
        await inScheme(page, scheme);
        const rules = scheme === SCHEMES[0] ? undefined : COLOUR_RULES;
        await expectNoA11yViolations(page, { soft: true, screen: `site button hovered, ${scheme}`, include: ['header'], rules });
      }
      // By keyboard: the menu opens on its first item, and gives the focus back when it closes.
      await switcher.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('menuitem').first()).toBeFocused();
      await expect(page.getByRole('menuitem', { name: /Summit Outfitters/ })).toBeVisible();
      await shot('sites-switcher-open', { keys: false });
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toBeHidden();
      await expect(switcher).toBeFocused();

      // A live site with a long host name, and a person signed in with a long name: the badge and the
      // person's button must still fit a phone's header.
      await page.route('**/api/sites', (route) =>
        route.fulfill({
          json: {
            sites: [
              {
                id: 'main',
                name: 'Harbourside Homewares',
                mode: 'platform',
                host: 'www.harbourside-homewares.co.nz',
                siteId: '123456',
                currencies: ['nzd'],
                decimals: 2,
                can: ['lookup', 'create', 'export'],
              },
            ],
            me: {
              kind: 'person',
              id: 'p1',
              email: 'aroha.ngata-whitcombe@harbourside-homewares.co.nz',
              displayName: 'Aroha Ngata-Whitcombe',
              grants: [{ siteId: '*', role: 'owner' }],
              managesPeople: true,
            },
          },
        }),
      );
      await page.goto('/cases');
      await expect(modeBadge(page)).toContainText('site 123456');
      await expect(page.getByRole('button', { name: 'AN Aroha Ngata-Whitcombe, signed in: your account and sign-out' })).toBeVisible();
      await shot('cases-live-site');
      if (size.name === 'desktop') {
        // The same page at the narrowest frame: the header's fullest at its least room (NARROWEST_FRAME).
        await page.setViewportSize(NARROWEST_FRAME);
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
        await shot(`cases-live-site-${NARROWEST_FRAME.width}`, { scan: false });
      }
    });

    test(
      'the inbox, the editor, a created product, Created products, Activity, 404 and Settings, light and dark',
      SECOND,
      async ({ page }, testInfo) => {
        test.setTimeout(240_000);
        const shot = (screen: string, options: ShotOptions = {}) => shoot(page, testInfo, screen, options);
        // The inbox of form 21 (the sandbox's 340 warranty claims), and a case opened from it.
        await page.goto('/cases/21');
        const inbox = page.getByRole('list', { name: 'Cases of form 21' });
        await expect(inbox.getByRole('link').first()).toBeVisible();
        await shot('inbox');
        await inbox.getByRole('link').nth(1).click();
        await expect(page.getByRole('navigation', { name: 'Cases of the inbox' })).toContainText('2 of');
        await expect(page.getByRole('heading', { level: 2, name: /^Warranty claims: case/ })).toBeVisible();
        await shot('inbox-case');

        // A browser of its own: no draft in it.
        await page.goto('/products/new');
        await page.getByLabel('Name').fill('Screenshot mug');
        await page.getByLabel('Slug').fill(`screenshot-mug-${size.name}-${Date.now()}`);
        await page.getByRole('textbox', { name: 'Release date' }).fill('2026-03-01');
        await expect(page.getByRole('textbox', { name: 'Release date' })).toHaveAccessibleDescription(/the start of that day/);
        await shot('editor-1-basics');

        const shortcuts = page.getByRole('button', { name: /^Shortcuts/ });
        await shortcuts.click();
        await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
        await shot('editor-shortcuts', { keys: false });
        await page.getByRole('dialog').getByRole('button', { name: 'Close' }).press('Enter');
        await expect(page.getByRole('dialog')).toBeHidden();
        // Closed, the dialog gives the focus back to the button that opened it.
        await expect(shortcuts).toBeFocused();

        // A field in its error state, reached by keyboard: it shows that it has the focus.
        await page.getByLabel('Name').fill('');
        await next(page);
        await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
        await page.getByLabel('Slug').focus();
        await page.keyboard.press('Shift+Tab');
        await expect(page.getByLabel('Name')).toBeFocused();
        await expect(page.getByLabel('Name')).toHaveCSS('outline-style', 'solid');
        await shot('editor-1-basics-error-focused', { keys: false });
        await page.getByLabel('Name').fill('Screenshot mug');

        for (const step of ['2-placement', '3-pricing', '4-attributes', '5-review']) {
          await next(page);
          if (step === '3-pricing') {
            // A price cell's problem, shown when the cell has the keyboard's focus (not only on hover).
            const cell = page.getByRole('textbox', { name: 'USD Price', exact: true }).first();
            await cell.fill('1.999');
            await cell.press('Tab');
            await cell.focus();
            await expect(page.getByRole('tooltip')).toContainText('At most 2 decimal places');
            await shot('editor-3-pricing-problem-focused', { keys: false });
            // A price, so that Review shows its table of prices (which scrolls sideways on a phone).
            await cell.fill('19.99');
            await cell.press('Tab');
          }
          if (step === '4-attributes') {
            await page.getByRole('button', { name: 'Add attribute' }).click();
            await page.getByLabel('Attribute name').fill('Colour');
            await page.getByLabel('Option name').fill('Natural');
          }
          await shot(`editor-${step}`);
        }
        await page.getByRole('button', { name: 'Create product' }).click();
        await expect(page.getByText('Product created')).toBeVisible();
        await shot('product-created');

        await page.goto('/products');
        await expect(page.getByRole('link', { name: 'Screenshot mug' }).first()).toBeVisible();
        await shot('products');

        // The site's products as the platform has them: the sandbox's demo catalogue and the create above.
        await page.goto('/catalogue');
        await expect(page.getByRole('list', { name: 'Products of Sandbox' }).getByRole('link').first()).toBeVisible();
        await shot('catalogue');

        // A product of the demo catalogue corrected: Review shows only what changes, and the update's body.
        await page.goto('/catalogue/1');
        const productName = page.getByRole('textbox', { name: /^Name/ });
        await productName.fill(`${await productName.inputValue()}, large`);
        for (let i = 0; i < 4; i += 1) await next(page);
        await expect(page.getByRole('table', { name: 'Changes to save' })).toBeVisible();
        await shot('product-edit');

        // The activity record, after the create above (and what the other tests looked up meanwhile); an
        // entry's details open beside it.
        await page.goto('/activity');
        await expect(page.getByTestId('chain-state')).toContainText('Record verifies');
        await shot('activity');
        // The keyboard pass has scrolled the list, which renders only the entries near the screen, and other
        // projects' entries may be newer: the search brings this test's create to the top.
        await page.getByRole('textbox', { name: 'Search' }).fill('Screenshot mug');
        const entry = page.getByRole('button', { name: /Product create sent/ }).first();
        await entry.click();
        await expect(page.getByRole('dialog').getByText('Sent to the platform', { exact: true })).toBeVisible();
        await shot('activity-entry', { keys: false });
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
        await expect(entry).toBeFocused();

        await page.goto('/no/such/page');
        await shot('not-found');

        await page.goto('/settings');
        await shot('settings');
        // A profile table scrolls sideways on a phone: the keyboard reaches it, and shows that it has.
        const productFields = page.getByRole('region', { name: 'Product fields' });
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await tabTo(page, productFields);
        await expect(productFields).toHaveCSS('outline-style', 'solid');
        await shot('settings-table-focused', { keys: false });
      },
    );

    test('the Approvals page with an owner’s rule, and a correction waiting for approval with its diff, light and dark', async ({
      page,
      playwright,
    }, testInfo) => {
      test.setTimeout(120_000);
      const site = `${E2E.screensURL}/s/harbour-linen`;
      // The demo's owner signs in through the page, and turns approval on for corrections of Harbour Linen.
      await page.goto(`${site}/approvals`);
      await page.getByRole('textbox', { name: 'E-mail address' }).fill('olivia@demo.example');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('demo owner sees every shop');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const rule = page.getByRole('region', { name: 'Approval rule of Harbour Linen' });
      const corrections = rule.getByRole('checkbox', { name: 'Corrections of products' });
      // The first size turns it on; the second finds it on.
      if (!(await corrections.isChecked())) {
        await corrections.check();
        await rule.getByRole('button', { name: 'Save rule' }).click();
        await expect(rule.getByRole('status')).toContainText('Saved.');
      }

      // The demo's editor asks for approval of a correction of a product of the demo catalogue (as the
      // editor's Save does where the rule covers updates: the product as read, its fingerprint, the body).
      const editor = await playwright.request.newContext({ baseURL: E2E.screensURL, extraHTTPHeaders: { origin: E2E.screensURL } });
      const signedIn = await editor.post('/api/sign-in/password', {
        data: { email: 'eddie@demo.example', password: 'demo editor makes products' },
      });
      expect(signedIn.ok(), await signedIn.text()).toBe(true);
      const read = await editor.get('/api/s/harbour-linen/site/v2/ecommerce/products/1');
      expect(read.ok(), await read.text()).toBe(true);
      const before = await read.text();
      const product = JSON.parse(before) as { name: string; enabled: string };
      const asked = await editor.post('/api/changes', {
        data: {
          site: 'harbour-linen',
          kind: 'update',
          product: '1',
          base: await productFingerprint(JSON.parse(before)),
          before,
          body: JSON.stringify({ name: `${product.name}, large`, enabled: product.enabled, weighting: '5' }),
        },
      });
      expect(asked.status(), await asked.text()).toBe(201);
      const { id } = (await asked.json()) as { id: string };
      await editor.dispose();

      await page.reload();
      const waiting = page.getByRole('list', { name: 'Changes: To approve' });
      await expect(waiting.getByRole('link', { name: `${product.name}, large` }).first()).toBeVisible();
      await expect(rule.getByRole('checkbox', { name: 'Corrections of products' })).toBeChecked();
      await shoot(page, testInfo, 'approvals');

      await page.goto(`${site}/approvals/${encodeURIComponent(id)}`);
      await expect(page.getByRole('table', { name: 'Changes to product 1' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Approve' })).toBeVisible();
      await shoot(page, testInfo, 'approval-update');
    });

    test('signing in, your account, People and the Activity page filtered by person, light and dark', async ({ page }, testInfo) => {
      test.setTimeout(120_000);
      // The screenshots' server has the demo's people: its owner signs in, and picks a person (themselves) to see.
      await page.goto(`${E2E.screensURL}/s/harbour-linen/cases`);
      await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
      await shoot(page, testInfo, 'sign-in', { header: false });
      // A refusal after a click on the button takes the focus to its reason, not to the page.
      await page.getByRole('textbox', { name: 'E-mail address' }).fill('olivia@demo.example');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('alert')).toBeFocused();
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('demo owner sees every shop');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('button', { name: /^OM Olivia Marsh, signed in/ })).toBeVisible();

      // Your account: a click on Change password with nothing filled in takes the focus to the first field.
      await page.goto(`${E2E.screensURL}/s/harbour-linen/account`);
      await page.getByRole('button', { name: 'Change password' }).click();
      const current = page.getByLabel('Current password');
      await expect(current).toBeFocused();
      await expect(current).toHaveAttribute('aria-invalid', 'true');
      await shoot(page, testInfo, 'account-password-error', { keys: false });

      // People: the roles dialog and the More menu give the focus back to the button that opened them.
      await page.goto(`${E2E.screensURL}/s/harbour-linen/people`);
      const roles = page.getByRole('button', { name: 'Change roles of Eddie Park' });
      await roles.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: 'Roles of Eddie Park' })).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
      await expect(roles).toBeFocused();
      const more = page.getByRole('button', { name: 'More for Eddie Park' });
      await more.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('menuitem', { name: 'Disable' })).toBeFocused();
      // Highlighted, the item that takes something away is still read at AA contrast.
      await shoot(page, testInfo, 'people-more-open', { keys: false });
      await page.keyboard.press('Escape');
      await expect(more).toBeFocused();

      await page.goto(`${E2E.screensURL}/s/harbour-linen/activity`);
      await page.getByRole('combobox', { name: 'Person' }).fill('olivia');
      await page.getByRole('option', { name: /^Olivia Marsh/ }).click();
      await expect(page).toHaveURL(/\?person=/);
      await expect(page.getByRole('button', { name: /Signed in .*Olivia Marsh/ }).first()).toBeVisible();
      await shoot(page, testInfo, 'activity-by-person');
    });
  });
}
