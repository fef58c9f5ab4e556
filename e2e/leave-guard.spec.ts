/**
 * The product editor's unsaved-changes guard against the browser's own Back and Forward buttons. The
 * unit tests drive a memory history whose go() answers at once; a real browser answers Back with a
 * popstate event after the address has already changed, and the guard must undo that and ask.
 */
import { expect, test, type Page } from '@playwright/test';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const leaveDialog = (page: Page) => page.getByRole('dialog', { name: 'Leave the editor?' });
const nameField = (page: Page) => page.getByLabel('Name');

test.beforeEach(async ({ page }) => {
  // Every test has a browser context of its own: no draft or history from an earlier one.
  await page.goto('/cases');
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
});

test('Back with unsaved changes asks first: Stay keeps the editor as it was, Leave goes back, and Forward returns to the draft', async ({
  page,
}) => {
  await nav(page)
    .getByRole('link', { name: /New product/ })
    .click();
  await expect(page).toHaveURL(/\/products\/new$/);
  await nameField(page).fill('Unsaved mug');

  await page.goBack();
  await expect(leaveDialog(page)).toBeVisible();
  await expect(page).toHaveURL(/\/products\/new$/);
  await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
  await expect(leaveDialog(page)).toBeHidden();
  await expect(page).toHaveURL(/\/products\/new$/);
  await expect(nameField(page)).toHaveValue('Unsaved mug');

  // Asked again on the next Back: staying once does not turn the guard off.
  await page.goBack();
  await expect(leaveDialog(page)).toBeVisible();
  await leaveDialog(page).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/cases$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
  await expect(leaveDialog(page)).toHaveCount(0);

  // Forward reopens the editor, which offers the draft it kept.
  await page.goForward();
  await expect(page).toHaveURL(/\/products\/new$/);
  await expect(page.getByText('You have an unfinished product')).toBeVisible();
  await page.getByRole('button', { name: /^Resume draft/ }).click();
  await expect(nameField(page)).toHaveValue('Unsaved mug');
});

test('Forward with unsaved changes asks first, and leaves only when told to', async ({ page }) => {
  await nav(page)
    .getByRole('link', { name: /New product/ })
    .click();
  await expect(nameField(page)).toBeVisible();
  // Nothing typed yet: leaving needs no question.
  await nav(page)
    .getByRole('link', { name: /Created products/ })
    .click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(leaveDialog(page)).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/products\/new$/);
  await nameField(page).fill('Forward mug');

  await page.goForward();
  await expect(leaveDialog(page)).toBeVisible();
  await expect(page).toHaveURL(/\/products\/new$/);
  await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/products\/new$/);
  await expect(nameField(page)).toHaveValue('Forward mug');

  await page.goForward();
  await expect(leaveDialog(page)).toBeVisible();
  await leaveDialog(page).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Created products' })).toBeVisible();

  // Back and Forward work as usual again once the editor is left.
  await page.goBack();
  await expect(page).toHaveURL(/\/products\/new$/);
  await expect(page.getByText('You have an unfinished product')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/cases$/);
});

test('Back is not held once nothing is unsaved', async ({ page }) => {
  await nav(page)
    .getByRole('link', { name: /New product/ })
    .click();
  await expect(nameField(page)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/cases$/);
  await expect(leaveDialog(page)).toHaveCount(0);
});
