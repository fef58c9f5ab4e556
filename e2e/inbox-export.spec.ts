/**
 * Exporting a form's cases, on the roles' server (the `roles` project: the example
 * profile's two sandbox shops with the stakeholder demo's owner, editor and support; see playwright.config.ts):
 * support is refused by default; the owner allows support to export on Harbour Linen on the People page, and
 * support's very next export is a file; the owner exports the warranty claims as a workbook by its address
 * (the inbox's button links to the same), and the Activity page shows the export. The owner puts the
 * setting back at the end: the server's database outlives a test. Who may export, and an owner's change to
 * it taken at the next request, are proven on both engines by server/inbox/case-export.test.ts.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import Papa from 'papaparse';
import { refusalMessage } from '../src/contract/access';
import type { RolesServer } from '../playwright.config';
import { expectNoA11yViolations } from './a11y';

/** The stakeholder demo's people (server/auth/demo-people.ts). */
const OWNER = { email: 'olivia@demo.example', password: 'demo owner sees every shop', name: 'Olivia Marsh' };
const SUPPORT = { email: 'sam@demo.example', password: 'demo support reads cases', name: 'Sam Rivera' };

const server = () => test.info().project.metadata as RolesServer;

/** The export of the warranty claims (form 21, 340 of them on Harbour Linen's sandbox). */
const EXPORT = '/api/inbox/harbour-linen/21/export';

async function signedIn(browser: Browser, person: { email: string; password: string; name: string }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server().origin })).newPage();
  await page.goto('/s/harbour-linen/cases');
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: new RegExp(`^\\w+ ${person.name}, signed in: your account and sign-out$`) })).toBeVisible();
  return page;
}

test('support may not export until an owner allows it on the People page; the owner’s export is a workbook, shown on the Activity page', async ({
  browser,
}) => {
  const support = await signedIn(browser, SUPPORT);
  const refused = await support.request.get(`${EXPORT}?format=csv`);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(refusalMessage('Harbour Linen', ['lookup'], 'export'));

  const owner = await signedIn(browser, OWNER);
  await owner.goto('/s/harbour-linen/people');
  const section = owner.getByRole('region', { name: 'What each role may do' });
  const allowSupport = section.getByRole('switch', { name: 'Support staff may export cases on Harbour Linen' });
  await expect(allowSupport).not.toBeChecked();
  await expect(section.getByRole('switch', { name: 'Editors may export cases on every site' })).toBeChecked();
  await expectNoA11yViolations(owner, { include: ['[aria-labelledby="people-role-capabilities"]'] });
  try {
    // By the keyboard, as a person without a mouse would.
    await allowSupport.focus();
    await owner.keyboard.press('Space');
    await expect(section.getByRole('status')).toHaveText('Saved: support staff may export cases on Harbour Linen.');
    await expect(allowSupport).toBeChecked();
    await expect(allowSupport).toBeFocused();
    await expect(section.getByRole('switch', { name: 'Support staff may export cases on Summit Outfitters' })).not.toBeChecked();

    // Support's very next request may export, on Harbour Linen only.
    const file = await support.request.get(`${EXPORT}?format=csv&sort_type=created_at&sort_order=desc`);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-disposition']).toMatch(/^attachment; filename="warranty-claims-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = Papa.parse<string[]>((await file.text()).replace(/^\ufeff/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]?.slice(0, 3)).toEqual(['Case id', 'Received (UTC)', 'Product']);
    expect(rows.length).toBeGreaterThanOrEqual(341);
    expect((await support.request.get('/api/inbox/summit-outfitters/12/export')).status()).toBe(403);
  } finally {
    if (await allowSupport.isChecked()) {
      await allowSupport.click();
      await expect(allowSupport).not.toBeChecked();
    }
  }
  await support.context().close();

  // The owner exports as a workbook by the address the inbox's button links to.
  const download = await owner.request.get(`${EXPORT}?format=xlsx&filter=${encodeURIComponent('{"form_field_21_6":"Refund"}')}&team=open`);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  // A workbook is a ZIP archive.
  expect((await download.body()).subarray(0, 2).toString('latin1')).toBe('PK');

  await owner.goto('/s/harbour-linen/activity?action=cases.export');
  const entry = owner
    .getByRole('region', { name: 'Activity entries' })
    .getByRole('button', { name: new RegExp(`Cases exported .*${OWNER.name}`) })
    .first();
  await expect(entry).toBeVisible();
  await entry.click();
  const details = owner.getByRole('dialog');
  // What the entry kept: the format, the filter, the team's filters, the count and the case ids.
  await expect(details).toContainText(/format\s*xlsx/);
  await expect(details).toContainText('"form_field_21_6": "Refund"');
  await expect(details).toContainText(/team\s*\[\s*"open"\s*\]/);
  await expect(details).toContainText(/How many cases\s*[1-9]\d*/);
  await owner.context().close();
});
