/**
 * The activity record with people, on the roles' server (the `roles` project: the
 * stakeholder demo's owner, editor and support, see playwright.config.ts): an editor creates a product and
 * sees only their own activity, with no person to pick; the owner picks the editor by name, the filter goes
 * into the address and the export, the entry opens the created product; and the owner's editor warns that
 * the slug was already created, by whom. The record's queries behind it (a person's entries, the filters, the
 * export, the team's slugs) are proven on PostgreSQL as well as SQLite by server/activity/activity-endpoints.test.ts
 * and profile-checks.test.ts; the page's part does not depend on the engine.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import type { RolesServer } from '../playwright.config';
import { expectNoA11yViolations } from './a11y';

/** The stakeholder demo's people (server/auth/demo-people.ts). */
const OWNER = { email: 'olivia@demo.example', password: 'demo owner sees every shop', name: 'Olivia Marsh' };
const EDITOR = { email: 'eddie@demo.example', password: 'demo editor makes products', name: 'Eddie Park' };

const server = () => test.info().project.metadata as RolesServer;

async function signedIn(browser: Browser, person: { email: string; password: string; name: string }): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server().origin })).newPage();
  await page.goto('/s/harbour-linen/cases');
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: new RegExp(`^\\w+ ${person.name}, signed in: your account and sign-out$`) })).toBeVisible();
  return page;
}

test('an owner filters the activity by person (in the address and the export), opens the created product, and is warned of its slug', async ({
  browser,
}) => {
  // Unique per run and project: the server's record outlives a test.
  const unique = `${test.info().project.name}-${Date.now().toString(36)}`;
  const name = `Harbour throw ${unique}`;
  const slug = `harbour-throw-${unique}`;

  const editor = await signedIn(browser, EDITOR);
  const created = await editor.request.post('/api/s/harbour-linen/site/v2/ecommerce/products/create', {
    headers: { origin: server().origin, 'content-type': 'application/json' },
    data: { name, slug, enabled: 'true' },
  });
  expect(created.status(), await created.text()).toBe(200);

  // The editor sees their own activity only, and has nobody to pick.
  await editor.goto('/s/harbour-linen/activity');
  await expect(editor.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await expect(editor.getByText('Your own activity:')).toBeVisible();
  await expect(editor.getByRole('combobox', { name: 'Person' })).toHaveCount(0);
  const editorsEntries = editor.getByRole('region', { name: 'Activity entries' }).getByRole('button');
  await expect(editorsEntries.first()).toBeVisible();
  for (const label of await editorsEntries.allTextContents()) {
    expect(label).toContain(EDITOR.name);
  }
  await editor.context().close();

  const owner = await signedIn(browser, OWNER);
  await owner.goto('/s/harbour-linen/activity');
  await expect(owner.getByText('Everyone’s activity on every site:')).toBeVisible();
  // The owner's own sign-in is there too, before any filter.
  await expect(owner.getByRole('button', { name: new RegExp(`Signed in .*${OWNER.name}`) }).first()).toBeVisible();

  const person = owner.getByRole('combobox', { name: 'Person' });
  await person.fill('eddie');
  await owner.getByRole('option', { name: `${EDITOR.name} (${EDITOR.email})` }).click();
  await expect(owner).toHaveURL(/\/s\/harbour-linen\/activity\?person=[^&]+$/);
  const personId = new URL(owner.url()).searchParams.get('person') ?? '';
  await expect(owner.getByRole('region', { name: 'Activity entries' }).getByRole('button', { name: new RegExp(OWNER.name) })).toHaveCount(
    0,
  );
  const answered = owner.getByRole('button', { name: new RegExp(`Product create answered .*${EDITOR.name}`) }).filter({ hasText: slug });
  await expect(answered).toBeVisible();
  await expectNoA11yViolations(owner);

  // The export is of what the filter shows: the editor's entries only.
  await expect(owner.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', new RegExp(`[?&]person=${personId}(&|$)`));
  const download = owner.waitForEvent('download');
  await owner.getByRole('link', { name: 'Export CSV' }).click();
  const lines = (await readFile(await (await download).path(), 'utf8')).trim().split(/\r?\n/).slice(1);
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.every((line) => line.includes(`,${EDITOR.name},${personId},`))).toBe(true);

  // The address keeps the filter: a reload (or a colleague given the address) sees the same.
  await owner.reload();
  await expect(owner.getByRole('combobox', { name: 'Person' })).toHaveValue(`${EDITOR.name} (${EDITOR.email})`);
  await expect(answered).toBeVisible();

  // The entry of the answered create opens the product the team created.
  await answered.click();
  await owner
    .getByRole('dialog')
    .getByRole('link', { name: `Open the created product ${name}` })
    .click();
  await expect(owner).toHaveURL(/\/s\/harbour-linen\/products\?product=\d+$/);
  const drawer = owner.getByRole('dialog', { name: name });
  await expect(drawer).toContainText(`Created by ${EDITOR.name}`);
  await expect(drawer.getByRole('region', { name: 'Sent to the platform' })).toContainText(slug);

  // A new product whose name suggests the same slug: the editor says who created it already.
  await owner.goto('/s/harbour-linen/products/new');
  await owner.getByRole('textbox', { name: /^Name/ }).fill(name);
  await expect(owner.getByTestId('created-slug-warning')).toContainText(`“${slug}” was already created on Harbour Linen by ${EDITOR.name}`);
  await owner.context().close();
});
