/**
 * The inbox of a form against the real server and a fresh sandbox: opened from Cases, its own page and
 * chunk; form 21's 340 warranty claims newest first, filtered by a field and by received days, a case
 * opened with previous and next, and the filtered inbox brought back by its address after a reload; a
 * form of 1,200 generated cases paged through by scrolling.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';
import { addCase, SANDBOX } from './sandbox';

const list = (page: Page, name = 'Cases of form 21') => page.getByRole('list', { name });
const rows = (page: Page, name?: string) => list(page, name).getByRole('listitem');
const scroller = (page: Page, name?: string) => list(page, name).locator('xpath=..');
/** A team filter's chip, clicked as a person does: its checkbox is drawn by the label around it. */
const teamFilter = (page: Page, name: string) => page.getByRole('group', { name: 'The team’s filters' }).getByText(name, { exact: true });
const rowLink = (page: Page, n: number, name?: string) => list(page, name).locator(`[aria-posinset="${n}"]`).getByRole('link');

/** What the sandbox holds for `filter`: its total of matching cases of `form`, asked of it directly. */
async function totalOf(page: Page, filter?: object, form = '21'): Promise<number> {
  const query = `per_page=1${filter ? `&filter=${encodeURIComponent(JSON.stringify(filter))}` : ''}`;
  const answer = await page.request.get(`/api/site/v2/forms/${form}/cases?${query}`);
  if (answer.status() === 404) return 0;
  return ((await answer.json()) as { total_entries: number }).total_entries;
}

/** Form 21's inbox, the way a person opens it: from Cases, by its identifier (the default profile names no forms). */
async function openForm21(page: Page) {
  await page.goto('/cases');
  await page.getByRole('textbox', { name: 'Form', exact: true }).fill('21');
  await page.getByRole('button', { name: 'Open its inbox' }).click();
  await expect(page).toHaveURL(/\/cases\/21$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Inbox of form 21' })).toBeVisible();
}

test.describe('inbox', () => {
  test('form 21 from Cases: its own chunk, newest first, Enter and previous/next open cases, Back to the row', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname)));
    const listsAsked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/site/v2/forms/21/cases') listsAsked.push(url.search);
    });
    await page.goto('/cases', { waitUntil: 'networkidle' });
    // Cases alone loads none of the inbox: it comes when one is opened.
    expect(scripts.filter((path) => /\/inbox-/.test(path))).toEqual([]);
    await openForm21(page);
    expect(scripts.some((path) => /\/inbox-/.test(path))).toBe(true);

    const total = await totalOf(page);
    expect(total).toBeGreaterThanOrEqual(340);
    await expect(page.getByRole('status').filter({ hasText: `${total} cases, newest first` })).toBeVisible();
    await expect(rows(page).first()).toHaveAttribute('aria-setsize', String(total));
    // One page of the platform's list for all 340: 500 a page.
    expect(listsAsked).toEqual(['?per_page=500&page=1&sort_type=created_at&sort_order=desc']);

    // Newest first: the first rows' received times go down.
    const times = await rows(page)
      .locator('time')
      .evaluateAll((els) => els.slice(0, 5).map((el) => Date.parse(el.getAttribute('datetime') ?? '')));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Only the rows near the screen are in the page.
    expect(await rows(page).count()).toBeLessThan(60);

    // Keyboard: down one row, Enter opens the second case.
    await rowLink(page, 1).focus();
    await page.keyboard.press('ArrowDown');
    await expect(rowLink(page, 2)).toBeFocused();
    const secondHref = await rowLink(page, 2).getAttribute('href');
    const thirdHref = await rowLink(page, 3).getAttribute('href');
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

    // Back to the inbox: its own address, at the row that was opened.
    await steps.getByRole('link', { name: 'Back to the inbox' }).click();
    await expect(page).toHaveURL(/\/cases\/21\?at=1$/);
    await expect(rowLink(page, 2)).toBeVisible();
  });

  test('filters by a field and by received days; the address brings the filtered inbox back after a reload', async ({ page }) => {
    await openForm21(page);
    await expect(rowLink(page, 1)).toBeVisible();

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
    await expect(page).toHaveURL(/\/cases\/21\?from=2026-10-01&to=2026-10-31/);
    const range = { gt: new Date(2026, 9, 1).getTime() / 1000 - 1, lt: new Date(2026, 10, 1).getTime() / 1000 };
    const octoberRefunds = await totalOf(page, { form_field_21_6: 'Refund', created_at: range });
    await expect(page.getByRole('status').filter({ hasText: `${octoberRefunds} cases matching the filters` })).toBeVisible();
    for (const time of await rows(page)
      .locator('time')
      .evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''))) {
      expect(time.slice(0, 7)).toBe('2026-10');
    }

    // Open the first, reload, and come back: the same filtered inbox.
    await rowLink(page, 1).click();
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
    await expect(page).toHaveURL(/\/cases\/21$/);
    await expect(page.getByRole('status').filter({ hasText: `${await totalOf(page)} cases, newest first` })).toBeVisible();
  });

  test('a form of 1,200 cases: scrolling reads the pages of the rows on screen, no more', async ({ page }) => {
    const generated = await page.request.post(`${SANDBOX.origin}/__sandbox/cases/generate`, {
      headers: { ...SANDBOX.headers, 'content-type': 'application/json' },
      data: { form: 'paging1200', count: 1200 },
    });
    expect(generated.ok()).toBe(true);
    const total = await totalOf(page, undefined, 'paging1200');
    const pagesAsked: number[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/site/v2/forms/paging1200/cases') pagesAsked.push(Number(url.searchParams.get('page')));
    });
    await page.goto('/cases/paging1200');
    const name = 'Cases of form paging1200';
    await expect(rows(page, name).first()).toHaveAttribute('aria-setsize', String(total));
    expect(pagesAsked).toEqual([1]);
    // The end of the list: its last page, and the last row is a case.
    await scroller(page, name).evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(rowLink(page, total, name)).toBeVisible();
    expect(Math.max(...pagesAsked)).toBe(Math.ceil(total / 500));
    expect(pagesAsked).not.toContain(2);
    expect(await rows(page, name).count()).toBeLessThan(60);
  });

  test('a form without cases says “No cases yet”', async ({ page }) => {
    await page.goto('/cases/808');
    await expect(page.getByText('No cases yet')).toBeVisible();
  });

  test('the team’s work in bulk: set status and mark seen on the selected rows, then the team’s filters hide them', async ({ page }) => {
    const form = `team${Date.now() % 1_000_000}`;
    const now = Math.floor(Date.now() / 1000);
    for (const hours of [1, 2, 3, 4]) {
      await addCase(page.request, form, {
        name: `form_${form}`,
        created_at: now - hours * 3600,
        properties: { name: `Customer ${hours}`, email: `customer${hours}@example.com` },
      });
    }
    const name = `Cases of form ${form}`;
    await page.goto(`/cases/${form}`);
    await expect(page.getByRole('status').filter({ hasText: '4 cases, newest first' })).toBeVisible();
    // Received within the week before the inbox was first opened, and not seen: new to the person.
    for (const n of [1, 2, 3, 4]) await expect(rowLink(page, n, name)).toContainText(/New to you.*Status: New, Assignee: Nobody/);

    // Rows 1 and 2 ticked (a click, then Shift+click), set to Done in one request.
    const patches: string[] = [];
    page.on('request', (request) => void (request.method() === 'PATCH' && patches.push(request.postData() ?? '')));
    const bar = page.getByRole('group', { name: 'Work on the selected cases' });
    await list(page, name).locator('[aria-posinset="1"]').getByRole('checkbox').click();
    await list(page, name)
      .locator('[aria-posinset="2"]')
      .getByRole('checkbox')
      .click({ modifiers: ['Shift'] });
    await expect(bar).toContainText('2 selected');
    await bar.getByRole('combobox', { name: 'Set status' }).click();
    await page.getByRole('option', { name: 'Done' }).click();
    await expect(bar.getByRole('status')).toHaveText('Set 2 cases to Done.');
    expect(patches).toHaveLength(1);
    expect(JSON.parse(patches[0] ?? '{}')).toMatchObject({ status: 'done' });
    // Kept by the server: a reload reads it back.
    await page.reload();
    await expect(rowLink(page, 1, name)).toContainText('Status: Done');
    await expect(rowLink(page, 2, name)).toContainText('Status: Done');
    await expect(rowLink(page, 3, name)).toContainText('Status: New');

    // Not done: the two done cases hidden, and said so; previous/next go through the filtered list.
    await teamFilter(page, 'Not done').click();
    await expect(page.getByRole('checkbox', { name: 'Not done' })).toBeChecked();
    await expect(page).toHaveURL(new RegExp(`/cases/${form}\\?team=open$`));
    await expect(
      page.getByRole('status').filter({ hasText: '2 cases shown, newest first: of the 4 cases read, 2 hidden by Not done.' }),
    ).toBeVisible();
    await expect(rowLink(page, 1, name)).toContainText('Customer 3');
    await rowLink(page, 1, name).click();
    const steps = page.getByRole('navigation', { name: 'Cases of the inbox' });
    await expect(steps).toContainText('1 of 2');
    await steps.getByRole('link', { name: 'Next' }).click();
    await expect(steps).toContainText('2 of 2');
    await expect(page.getByRole('heading', { level: 2, name: /: case \d+$/ })).toBeVisible();
    await steps.getByRole('link', { name: 'Back to the inbox' }).click();
    await teamFilter(page, 'Not done').click();

    // Every case ticked by the header's box, marked seen: opening a case had marked two seen already, and
    // none is new any more; with New to me on, all four are hidden.
    await expect(page.getByRole('status').filter({ hasText: '4 cases, newest first' })).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select all 4 cases read' }).check();
    await bar.getByRole('button', { name: 'Mark seen' }).click();
    await expect(bar.getByRole('status')).toHaveText('Marked 4 cases seen.');
    for (const n of [1, 2, 3, 4]) await expect(rowLink(page, n, name)).not.toContainText('New to you');
    await teamFilter(page, 'New to me').click();
    await expect(
      page.getByRole('status').filter({ hasText: '0 cases shown, newest first: of the 4 cases read, 4 hidden by New to me.' }),
    ).toBeVisible();
    await expectNoA11yViolations(page);
  });
});
