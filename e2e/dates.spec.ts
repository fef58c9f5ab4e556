/**
 * Dates in the browser's own locale and time zone, through the one formatter (src/lib/format-date.ts),
 * on every screen that shows one: a moment in the local time, and a calendar date as the same day.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SANDBOX } from './sandbox';

// 2025-11-01T00:00:00Z
const MOMENT = 1761955200;

async function addCase(request: APIRequestContext) {
  const record = {
    name: 'form_3',
    form_name: 'Contact us',
    created_at: MOMENT,
    properties: { name: 'Aroha Ngata', form_field_3_7: '2026-03-01' },
  };
  const response = await request.post(`${SANDBOX.origin}/__sandbox/cases`, { headers: SANDBOX.headers, data: { form: '3', record } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { id: string }).id;
}

const fieldRow = (page: Page, key: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader').filter({ has: page.getByText(key, { exact: true }) }) });

// Chromium may put a narrow no-break space before "pm"; people see a space.
const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

// One place, far from the machine's own settings, proves the browser's locale and zone reach every screen;
// what other places read is the formatter's own test (src/lib/format-date.test.ts).
const places = [
  {
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    short: '01.11.2025, 01:00',
    full: 'Samstag, 1. November 2025 um 01:00:00 MEZ',
    day: '01.03.2026',
  },
] as const;

for (const place of places) {
  test.describe(`in ${place.locale}, ${place.timezoneId}`, () => {
    test.use({ locale: place.locale, timezoneId: place.timezoneId });

    test('a case shows its moments in the local time and its calendar dates as the same day', async ({ page, request }) => {
      const id = await addCase(request);
      await page.goto(`/cases/3/${id}`);
      await expect(page.getByRole('heading', { level: 2, name: `Contact us: case ${id}` })).toBeVisible();
      const created = fieldRow(page, 'created_at').locator('time');
      expect(plain(await created.textContent())).toBe(place.short);
      expect(plain(await created.getAttribute('title'))).toBe(place.full);
      await expect(created).toHaveAttribute('datetime', '2025-11-01T00:00:00.000Z');
      const day = fieldRow(page, 'form_field_3_7').locator('time');
      expect(plain(await day.textContent())).toBe(place.day);
      await expect(day).toHaveAttribute('datetime', '2026-03-01');
      // The header's relative time shows the exact moment on hover.
      await page.locator('h2 + p time').hover();
      expect(plain(await page.getByRole('tooltip').textContent())).toBe(place.full);
    });

    test('the created products list shows when each was created, the same way', async ({ page }) => {
      // In this browser's list before the page first loads.
      await page.addInitScript((createdAt) => {
        const entry = { localId: 'dates1', createdAt, response: { id: '501' }, body: { name: 'Dated mug', enabled: 'true' } };
        localStorage.setItem('site-admin:created-products:v1', JSON.stringify([entry]));
      }, MOMENT * 1000);
      await page.goto('/products');
      const row = page.getByRole('row').filter({ hasText: 'Dated mug' });
      expect(plain(await row.locator('time').textContent())).toBe(place.short);
      await row.getByRole('link', { name: 'Dated mug' }).click();
      const summary = page.getByRole('region', { name: 'Summary' });
      expect(plain(await summary.locator('time').textContent())).toBe(place.short);
      expect(plain(await summary.locator('time').getAttribute('title'))).toBe(place.full);
    });
  });
}
