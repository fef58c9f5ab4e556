/**
 * Four eyes on a live store, end to end on the roles' server (the stakeholder demo's people; project `roles`,
 * and `roles-postgres` for the same on PostgreSQL), each person in a browser of their own: the owner makes
 * Harbour Linen's new products and imports need approval; the editor asks for a new product and cannot
 * approve it (no Approve, and a crafted approval is refused 403); an approval the owner gave is voided by
 * the editor's edit (a new version); the owner approves the new version and the sandbox receives exactly
 * its body; an import is asked for as a whole, approved, and run. The rule is put back off at the end, as
 * the other tests of this server create products there directly.
 */
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { APPROVAL_PATHS, changePath, RULE_OFF, rulePath, type Change } from '../src/contract/approvals';
import type { RolesServer } from '../playwright.config';
import { discardServerImports } from './imports';

const OWNER = { email: 'olivia@demo.example', password: 'demo owner sees every shop' };
const EDITOR = { email: 'eddie@demo.example', password: 'demo editor makes products' };
const SITE = '/s/harbour-linen';

const server = () => test.info().project.metadata as RolesServer;

/** A browser of its own for `person`, signed in through the page at `address`. */
async function signedIn(browser: Browser, person: { email: string; password: string }, address: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(address);
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /, signed in: your account and sign-out$/ })).toBeVisible();
  return page;
}

/** A call of our server with the page's cookies and origin, as a script would make it. */
const call = (page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) =>
  page.request.fetch(path, { method, headers: { origin: server().origin, 'content-type': 'application/json' }, data });

async function changeOf(page: Page, id: string): Promise<Change> {
  const answer = await call(page, 'GET', changePath(APPROVAL_PATHS.one, id));
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Change;
}

/** The products Harbour Linen's sandbox (site 1001) stored, by slug: each one's fields as created. */
async function stored(request: APIRequestContext): Promise<Map<string, Record<string, unknown>>> {
  const answer = await request.get(`${server().sandboxOrigin}/__sandbox/products?limit=1000`, {
    headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' },
  });
  expect(answer.ok()).toBe(true);
  const { products } = (await answer.json()) as { products: { body: Record<string, unknown> & { slug?: string } }[] };
  return new Map(products.map(({ body }) => [body.slug ?? '', body]));
}

const changeIdOf = async (link: ReturnType<Page['getByRole']>) =>
  decodeURIComponent((await link.getAttribute('href'))?.split('/').pop() ?? '');

test('an editor asks, cannot approve their own, an edit voids an approval, the owner’s approval sends exactly the body; an import approved as a whole @postgres', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const owner = await signedIn(browser, OWNER, `${SITE}/approvals`);
  try {
    // The owner makes new products and imports of Harbour Linen need one approval, by an owner.
    const rule = owner.getByRole('region', { name: 'Approval rule of Harbour Linen' });
    for (const kind of ['New products', 'Imports']) await rule.getByRole('checkbox', { name: kind }).check();
    await rule.getByRole('button', { name: 'Save rule' }).click();
    await expect(rule.getByRole('status')).toContainText('Saved.');

    // The editor's Create reads "Ask for approval", and asks with exactly what Review shows.
    const editor = await signedIn(browser, EDITOR, `${SITE}/products/new`);
    await editor.getByRole('textbox', { name: /^Name/ }).fill(`Approved mug ${stamp}`);
    for (let i = 0; i < 4; i += 1) await editor.getByRole('button', { name: /^Next:/ }).click();
    const shown = await editor.getByRole('region', { name: 'The exact request body' }).textContent();
    await editor.getByRole('button', { name: 'Ask for approval' }).click();
    await expect(editor.getByText('Waiting for approval')).toBeVisible();
    const open = editor.getByRole('link', { name: 'Open the change' });
    const id = await changeIdOf(open);
    expect((await changeOf(editor, id)).body).toBe(shown);
    expect((await stored(editor.request)).has(`approved-mug-${stamp}`)).toBe(false);

    // Its author cannot approve it: no Approve on its page, and the server refuses a crafted approval.
    await open.click();
    await expect(editor.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(editor.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    const crafted = await call(editor, 'POST', changePath(APPROVAL_PATHS.approve, id), { version: 1 });
    expect(crafted.status()).toBe(403);

    // The owner approves version 1 (as a script would); the editor's edit makes version 2 and voids it.
    const approved = await call(owner, 'POST', changePath(APPROVAL_PATHS.approve, id), { version: 1 });
    expect(approved.status(), await approved.text()).toBe(200);
    expect(((await approved.json()) as Change).state).toBe('approved');
    await editor.getByRole('button', { name: 'Edit' }).click();
    await editor.getByRole('button', { name: 'Edit Basics' }).click();
    await editor.getByRole('textbox', { name: /^Name/ }).fill(`Approved mug ${stamp}, large`);
    for (let i = 0; i < 4; i += 1) await editor.getByRole('button', { name: /^Next:/ }).click();
    const edited = await editor.getByRole('region', { name: 'The exact request body' }).textContent();
    await editor.getByRole('button', { name: 'Ask again (new version)' }).click();
    await expect(editor).toHaveURL(new RegExp(`/approvals/${id}$`));
    const second = await changeOf(editor, id);
    expect(second).toMatchObject({ version: 2, state: 'pending', approvals: 0, body: edited });

    // The owner approves version 2 in their own browser: it is sent at once, byte for byte as stored.
    const sent = owner.waitForRequest((request) => request.url().endsWith('/ecommerce/products/create'));
    await owner.goto(`${SITE}/approvals/${encodeURIComponent(id)}`);
    await owner.getByRole('button', { name: 'Approve' }).click();
    expect((await sent).postData()).toBe(edited);
    await expect(owner.getByRole('status').filter({ hasText: 'The platform accepted it' })).toBeVisible();
    expect((await stored(owner.request)).get(`approved-mug-${stamp}`)).toEqual(JSON.parse(edited ?? ''));
    expect((await changeOf(owner, id)).state).toBe('sent');

    // An import: asked for as a whole, approved, then run; each row reaches the sandbox as approved.
    await discardServerImports(editor, 'harbour-linen');
    await editor.goto(`${SITE}/products/import`);
    const rows = [`Import linen ${stamp} one,import-linen-${stamp}-1`, `Import linen ${stamp} two,import-linen-${stamp}-2`];
    await editor
      .locator('input[type="file"]')
      .setInputFiles({ name: 'linen.csv', mimeType: 'text/csv', buffer: Buffer.from(['Name,Slug', ...rows].join('\n'), 'utf8') });
    await editor.getByRole('button', { name: 'Ask for approval of 2 products' }).click();
    await expect(editor.getByRole('status').filter({ hasText: 'wait for approval' })).toBeVisible();
    const importChange = await changeIdOf(editor.getByRole('link', { name: 'Open the change' }));
    const asked = await changeOf(editor, importChange);
    expect(asked.items?.map((item) => JSON.parse(item.body) as { slug: string }).map((body) => body.slug)).toEqual([
      `import-linen-${stamp}-1`,
      `import-linen-${stamp}-2`,
    ]);
    await owner.goto(`${SITE}/approvals/${encodeURIComponent(importChange)}`);
    await owner.getByRole('button', { name: 'Approve' }).click();
    await expect(owner.getByText('Approved: the import sends its rows')).toBeVisible();
    // The import page notices the approval by itself, and only then runs.
    await editor.getByRole('button', { name: 'Create 2 products' }).click({ timeout: 20_000 });
    await expect.poll(async () => (await changeOf(editor, importChange)).state, { timeout: 20_000 }).toBe('sent');
    const after = await stored(editor.request);
    for (const item of asked.items ?? []) {
      const body = JSON.parse(item.body) as { slug: string };
      expect(after.get(body.slug)).toEqual(body);
    }
    await editor.context().close();
  } finally {
    // The other tests of this server create products on Harbour Linen directly.
    await call(owner, 'PUT', rulePath('harbour-linen'), RULE_OFF);
    await owner.context().close();
  }
});
