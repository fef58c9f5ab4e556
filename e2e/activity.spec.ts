/**
 * The Activity page in the local demo: a case looked up in the app appears in the record with its form,
 * case and status (never its content), an entry opens its details, and the record says it verifies.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';

test('a lookup is in the activity record, its entry opens, and export gives what the filter shows as CSV', async ({ page }) => {
  await page.goto('/cases/3/48217');
  await expect(page.getByRole('heading', { level: 2, name: /case 48217/ })).toBeVisible();

  await page.getByRole('link', { name: /^Activity/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await expect(page.getByTestId('chain-state')).toContainText('Record verifies');
  await page.getByRole('textbox', { name: 'Search' }).fill('48217');
  const entry = page.getByRole('button', { name: /Case looked up .*Local demo/ }).first();
  await expect(entry).toContainText('Form 3, case 48217');
  await expect(entry).toContainText('found 200');
  await expectNoA11yViolations(page);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const lines = (await readFile(await (await download).path(), 'utf8')).trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^seq,time_utc,person,/);
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((line) => line.includes(',case.lookup,') && line.includes(',48217,'))).toBe(true);

  await entry.click();
  const details = page.getByRole('dialog');
  await expect(details.getByRole('link', { name: 'Open case 48217 of form 3' })).toBeVisible();
  await details.getByRole('link', { name: 'Open case 48217 of form 3' }).click();
  await expect(page).toHaveURL(/\/cases\/3\/48217$/);
});
