/**
 * The navigation marks the page you are on, on every address: a case's own deep link and a form's inbox are
 * under Cases, a created product under Created products, a change under Approvals; an address that is no page (404) marks none, and offers a way back.
 */
import { expect, test } from '@playwright/test';

const pages = [
  { path: '/cases', heading: 'Cases', current: 'Cases' },
  { path: '/cases/3/48217', heading: 'Cases', current: 'Cases' },
  { path: '/cases/3', heading: 'Inbox of form 3', current: 'Cases' },
  { path: '/products/new', heading: 'New product', current: 'New product' },
  { path: '/products', heading: 'Created products', current: 'Created products' },
  { path: '/products/created/not-in-this-browser', heading: 'Product not found', current: 'Created products' },
  // The Approvals entry loads once the page is up (the local demo may set every site's rule, so it has it).
  { path: '/approvals', heading: 'Approvals', current: 'Approvals' },
  { path: '/approvals/no-such-change', heading: 'No such change', current: 'Approvals' },
  { path: '/no/such/page', heading: 'Page not found', current: null },
  // A case link with more after it is no page either: it must not pass for Cases.
  { path: '/cases/3/48217/notes', heading: 'Page not found', current: null },
] as const;

for (const { path, heading, current } of pages) {
  test(`${path} marks ${current ?? 'no entry'} as the current page`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const marked = nav.locator('[aria-current="page"]');
    if (current === null) {
      await expect(marked).toHaveCount(0);
    } else {
      await expect(marked).toHaveCount(1);
      await expect(marked).toHaveAccessibleName(new RegExp(`^${current}\\b`));
      await expect(marked).toHaveAttribute('data-active', 'true');
    }
    if (heading === 'Page not found') {
      await page.getByRole('link', { name: 'Go to Cases' }).click();
      await expect(page).toHaveURL(/\/cases$/);
    }
  });
}
