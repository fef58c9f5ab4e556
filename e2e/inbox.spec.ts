/**
 * The inbox of a form against the real server and a fresh sandbox: form 21's 340 warranty claims paged
 * through by scrolling, filtered by a field and by received days, a case opened with previous and next,
 * and the filtered inbox brought back by its address after a reload.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';

const list = (page: Page) => page.getByRole('list', { name: 'Cases of form 21' });
const rows = (page: Page) => list(page).getByRole('listitem');
const scroller = (page: Page) => list(page).locator('xpath=..');

/** What the sandbox holds for `filter`: its total of matching claims of form 21, asked of it directly. */
async function totalOf(page: Page, filter?: object): Promise<number> {
  const query = `per_page=1${filter ? `&filter=${encodeURIComponent(JSON.stringify(filter))}` : ''}`;
  const answer = await page.request.get(`/api/site/v2/forms/21/cases?${query}`);
  if (answer.status() === 404) return 0;
  return ((await answer.json()) as { total_entries: number }).total_entries;
}

async function pickForm21(page: Page) {
  await page.goto('/cases');
  const picker = page.getByRole('combobox', { name: 'Form', exact: true });
  await picker.fill('21');
  await page.getByRole('option', { name: 'Form 21' }).click();
  await expect(page).toHaveURL(/\/cases\?form=21$/);
}

test.describe('inbox', () => {
  test('form 21: newest first, scrolling loads the next pages, Enter and previous/next open cases', async ({ page }) => {
    const pagesAsked: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/site/v2/forms/21/cases') pagesAsked.push(Number(url.searchParams.get('page')));
    });
    await pickForm21(page);
    const total = await totalOf(page);
    expect(total).toBeGreaterThanOrEqual(340);
    await expect(page.getByRole('status').filter({ hasText: `${total} cases, newest first` })).toBeVisible();
    await expect(rows(page).first()).toHaveAttribute('aria-setsize', String(total));
    expect(pagesAsked).toEqual([1]);

    // Newest first: the first rows' received times go down.
    const times = await rows(page)
      .locator('time')
      .evaluateAll((els) => els.slice(0, 5).map((el) => Date.parse(el.getAttribute('datetime') ?? '')));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // Scrolling to the end loads the last page, and the last row is a case.
    await scroller(page).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = rows(page)
      .filter({ has: page.locator(`[aria-posinset="${total}"]`) })
      .or(list(page).locator(`[aria-posinset="${total}"]`));
    await expect(last.getByRole('link')).toBeVisible();
    expect(Math.max(...pagesAsked)).toBe(Math.ceil(total / 50));
    // Only the rows near the screen are in the page.
    expect(await rows(page).count()).toBeLessThan(60);

    // Keyboard: back to the top, down one row, Enter opens the second case.
    await scroller(page).evaluate((el) => el.scrollTo(0, 0));
    const firstLink = list(page).locator('[aria-posinset="1"]').getByRole('link');
    await firstLink.focus();
    await page.keyboard.press('ArrowDown');
    const second = list(page).locator('[aria-posinset="2"]').getByRole('link');
    await expect(second).toBeFocused();
    const secondHref = await second.getAttribute('href');
    const thirdHref = await list(page).locator('[aria-posinset="3"]').getByRole('link').getAttribute('href');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(secondHref ?? '');
    const steps = page.getByRole('navigation', { name: 'Cases of the inbox' });
    await expect(steps).toContainText(`2 of ${total}`);
    await expect(
      page.getByRole('heading', { level: 2, name: `Warranty claims: case ${secondHref?.split(/[/?]/)[3] ?? ''}` }),
    ).toBeVisible();

    await steps.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(thirdHref ?? '');
    await expect(steps).toContainText(`3 of ${total}`);
    await steps.getByRole('link', { name: 'Previous' }).click();
    await expect(page).toHaveURL(secondHref ?? '');

    // Back to the inbox: at the row that was opened.
    await steps.getByRole('link', { name: 'Back to the inbox' }).click();
    await expect(page).toHaveURL(/\/cases\?form=21&at=1$/);
    await expect(list(page).locator('[aria-posinset="2"]').getByRole('link')).toBeVisible();
  });

  test('filters by a field and by received days; the address brings the filtered inbox back after a reload', async ({ page }) => {
    await pickForm21(page);
    await expect(rows(page).first().getByRole('link')).toBeVisible();

    await page.getByRole('combobox', { name: 'Field' }).click();
    await page.getByRole('option', { name: 'Form field 6' }).click();
    await page.getByRole('combobox', { name: 'Match' }).click();
    await page.getByRole('option', { name: 'is exactly' }).click();
    await page.getByRole('textbox', { name: 'Value' }).fill('Refund');
    await page.getByRole('button', { name: 'Add filter' }).click();
    const refunds = await totalOf(page, { form_field_21_6: 'Refund' });
    expect(refunds).toBeGreaterThan(0);
    await expect(page.getByRole('status').filter({ hasText: `${refunds} cases matching the filters` })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Filters in use' })).toContainText('Form field 6 is “Refund”');

    // October 2026, from the calendar: the month before the current one.
    await page.getByRole('button', { name: 'Received' }).click();
    await page.getByRole('button', { name: /previous month/i }).click();
    await page.getByRole('button', { name: '1 October 2026', exact: true }).click();
    await page.getByRole('button', { name: '31 October 2026', exact: true }).click();
    await expect(page).toHaveURL(/from=2026-10-01&to=2026-10-31/);
    const range = { gt: new Date(2026, 9, 1).getTime() / 1000 - 1, lt: new Date(2026, 10, 1).getTime() / 1000 };
    const octoberRefunds = await totalOf(page, { form_field_21_6: 'Refund', created_at: range });
    await expect(page.getByRole('status').filter({ hasText: `${octoberRefunds} cases matching the filters` })).toBeVisible();
    for (const time of await rows(page)
      .locator('time')
      .evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''))) {
      expect(time.slice(0, 7)).toBe('2026-10');
    }

    // Open the first, reload, and come back: the same filtered inbox.
    await rows(page).first().getByRole('link').click();
    await expect(page.getByRole('navigation', { name: 'Cases of the inbox' })).toContainText(`1 of ${octoberRefunds}`);
    await page.reload();
    await page.getByRole('link', { name: 'Back to the inbox' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${octoberRefunds} cases matching the filters` })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Filters in use' })).toContainText('Form field 6 is “Refund”');
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: `${octoberRefunds} cases matching the filters` })).toBeVisible();

    // A filter nothing meets says so, and clearing it brings every case back.
    await page.getByRole('combobox', { name: 'Field' }).click();
    await page.getByRole('option', { name: 'Email' }).click();
    await page.getByRole('textbox', { name: 'Value' }).fill('nobody-at-all');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await expect(page.getByText('No cases match these filters')).toBeVisible();
    await expectNoA11yViolations(page);
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await expect(page).toHaveURL(/\/cases\?form=21$/);
    await expect(page.getByRole('status').filter({ hasText: `${await totalOf(page)} cases, newest first` })).toBeVisible();
  });

  test('a form without cases: “No cases yet”', async ({ page }) => {
    await page.goto('/cases?form=808');
    await expect(page.getByText('No cases yet')).toBeVisible();
  });
});
