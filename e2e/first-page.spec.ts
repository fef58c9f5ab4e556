/**
 * What the first page leaves for later: the case view (and the exact JSON parser) load when a lookup
 * starts, not with Cases. On a slow or failing network that must still look right: the page's loading
 * state while the view's script is on its way, and, if it cannot be fetched, a clear error with Try
 * again rather than a blank page.
 */
import { expect, test, type Page, type Route } from '@playwright/test';

const CASE_VIEW = '**/assets/case-result-*.js';
const caseHeading = (page: Page) => page.getByRole('heading', { level: 2, name: 'Contact us: case 48217' });

async function lookUp(page: Page) {
  await page.getByRole('textbox', { name: 'Form identifier' }).fill('3');
  await page.getByRole('textbox', { name: 'Case identifier' }).fill('48217');
  await page.getByRole('textbox', { name: 'Case identifier' }).press('Enter');
}

test('the Cases page loads no case view until a lookup starts, and no inbox', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
  await page.goto('/cases', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
  // Neither the case view and its exact parser nor the inbox (its own page, opened by a link) come with Cases.
  expect(scripts.filter((path) => /\/(case-result|exact-json|inbox)-/.test(path))).toEqual([]);
  await page.getByRole('textbox', { name: 'Form identifier' }).fill('3');
  // Typing starts it, so that the view is usually there before Enter.
  await expect.poll(() => scripts.some((path) => path.includes('/case-result-'))).toBe(true);
});

test('on a slow network the lookup shows its loading state until the view has arrived, then the case', async ({ page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(CASE_VIEW, async (route: Route) => {
    await held;
    await route.continue();
  });
  await page.goto('/cases');
  await lookUp(page);
  await expect(page).toHaveURL(/\/cases\/3\/48217$/);
  await expect(page.getByRole('status').filter({ hasText: 'Looking up case 48217 of form 3…' })).toBeAttached();
  await expect(page.locator('[aria-busy="true"]')).toBeVisible();
  await expect(caseHeading(page)).toHaveCount(0);
  release();
  await expect(caseHeading(page)).toBeFocused();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
});

test('a deep link whose view cannot be fetched says so, and Try again shows the case', async ({ page }) => {
  let failing = true;
  await page.route(CASE_VIEW, (route: Route) => (failing ? route.abort('connectionreset') : route.continue()));
  await page.goto('/cases/3/48217');
  const alert = page.getByRole('alert').filter({ hasText: 'The case could not be shown' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('could not be loaded from site-admin’s server');
  // The lookup itself worked: the form keeps the identifiers, and nothing else is broken.
  await expect(page.getByRole('textbox', { name: 'Case identifier' })).toHaveValue('48217');
  failing = false;
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(caseHeading(page)).toBeFocused();
  await expect(alert).toHaveCount(0);
});
