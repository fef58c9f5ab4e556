/**
 * Undo from the activity record, in the local demo against the sandbox: a product update sent through
 * site-admin the way a browser sends one (read, then PUT with If-Match: the fingerprint of what was read)
 * shows in the Activity page as a diff; "Revert this change" shows what reverting sends and sends it, and
 * the sandbox holds the old values again, the revert recorded and linked; after a later change on the
 * platform, a revert of an earlier update is refused with nothing sent.
 */
import { expect, test, type Page } from '@playwright/test';
import { productFingerprint } from '../src/contract/products';
import { expectNoA11yViolations } from './a11y';
import { SANDBOX } from './sandbox';

const USD1 = 'module_field_14/product/price/usd/1';
const PRODUCTS = '/api/site/v2/ecommerce/products';

interface Record {
  id: string;
  name: string;
  [key: string]: unknown;
  attributes: { id: string; name: string; items: { id: string; name: string; enabled?: string }[] }[];
}

/** A product of its own on the sandbox, made there directly (as if it had always been in the catalogue). */
async function productOnSandbox(page: Page, slug: string): Promise<Record> {
  const made = await page.request.post(`${SANDBOX.origin}${PRODUCTS}/create`, {
    headers: { ...SANDBOX.headers, 'content-type': 'application/json' },
    data: {
      name: `Walnut tray ${slug}`,
      slug,
      enabled: 'true',
      [USD1]: '1999',
      attributes: [{ name: 'Finish', enabled: 'true', items: [{ name: 'Oiled' }, { name: 'Waxed' }] }],
    },
  });
  expect(made.ok()).toBe(true);
  return (await made.json()) as Record;
}

/** The product as the sandbox holds it now. */
async function onSandbox(page: Page, id: string): Promise<Record> {
  const read = await page.request.get(`${SANDBOX.origin}${PRODUCTS}/${id}`, { headers: SANDBOX.headers });
  expect(read.ok()).toBe(true);
  return (await read.json()) as Record;
}

/** Every update body the sandbox received for the product. */
async function writesOf(page: Page, id: string): Promise<{ body: string; status: number }[]> {
  const read = await page.request.get(`${SANDBOX.origin}/__sandbox/product-writes?id=${id}`, { headers: SANDBOX.headers });
  return ((await read.json()) as { writes: { body: string; status: number }[] }).writes;
}

/** An update sent through site-admin from the page, as the editor would: the product read, then PUT with its fingerprint. */
async function updateThroughSiteAdmin(page: Page, id: string, body: object): Promise<number> {
  const text = await page.evaluate(async (path) => (await fetch(path)).text(), `${PRODUCTS}/${id}`);
  const fingerprint = await productFingerprint(JSON.parse(text));
  return page.evaluate(
    async ({ path, body, fingerprint }) => {
      const answer = await fetch(path, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'if-match': fingerprint },
        body: JSON.stringify(body),
      });
      return answer.status;
    },
    { path: `${PRODUCTS}/${id}`, body, fingerprint },
  );
}

async function openUpdateEntry(page: Page, slug: string) {
  await page.goto(`/activity?action=product.update&q=${slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  await page
    .getByRole('button', { name: /Product update sent/ })
    .first()
    .click();
  return page.getByRole('dialog');
}

test('an update shows as a diff in the record, and Revert this change puts the old values back on the platform', async ({ page }) => {
  const slug = `walnut-tray-${Date.now().toString(36)}`;
  const product = await productOnSandbox(page, slug);
  const finish = product.attributes[0]!;
  const [oiled] = finish.items;
  await page.goto('/activity');

  expect(
    await updateThroughSiteAdmin(page, product.id, {
      name: product.name,
      enabled: 'true',
      [USD1]: '2450',
      attributes: [{ id: finish.id, name: 'Finish', items: [{ id: oiled!.id, name: 'Oiled walnut' }] }],
    }),
  ).toBe(200);
  expect((await onSandbox(page, product.id))[USD1]).toBe('2450');

  const details = await openUpdateEntry(page, slug);
  const diff = details.getByRole('table', { name: /as this update left it/ });
  await expect(diff.getByRole('row', { name: /USD, Price/ })).toContainText('$19.99$24.50');
  await expect(diff.getByRole('row', { name: /Option name/ })).toContainText('OiledOiled walnut');
  await expectNoA11yViolations(page);

  await details.getByRole('button', { name: 'Revert this change' }).click();
  const revert = page.getByRole('dialog', { name: /^Revert entry \d+$/ });
  await expect(revert.getByRole('table', { name: 'What reverting would change' }).getByRole('row', { name: /USD, Price/ })).toContainText(
    '$24.50$19.99',
  );
  await expectNoA11yViolations(page);
  const before = (await writesOf(page, product.id)).length;
  await revert.getByRole('button', { name: 'Send the revert' }).click();
  await expect(revert.getByText(/The product has its values from before entry \d+ again/)).toBeVisible();

  // The platform holds the old values again, and received exactly the revert: what the update wrote, put back.
  const now = await onSandbox(page, product.id);
  expect(now[USD1]).toBe('1999');
  expect(now.attributes[0]!.items.find((item) => item.id === oiled!.id)?.name).toBe('Oiled');
  const writes = await writesOf(page, product.id);
  expect(writes).toHaveLength(before + 1);
  expect(JSON.parse(writes.at(-1)!.body)).toEqual({
    name: product.name,
    enabled: 'true',
    [USD1]: '1999',
    attributes: [{ id: finish.id, name: 'Finish', items: [{ id: oiled!.id, name: 'Oiled' }] }],
  });

  // The revert is its own recorded update, linked both ways.
  await revert.getByRole('button', { name: 'Done' }).click();
  await expect(details.getByText(/Reverted by entry \d+/)).toBeVisible();
  await expect(details.getByRole('button', { name: 'Revert this change' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page
    .getByRole('button', { name: /Product update sent/ })
    .first()
    .click();
  await expect(page.getByRole('dialog').getByText(/This update reverts entry \d+/)).toBeVisible();
});

test('a revert after a later change on the platform is refused: what changed since is shown, and nothing is sent', async ({ page }) => {
  const slug = `walnut-tray-${Date.now().toString(36)}-later`;
  const product = await productOnSandbox(page, slug);
  await page.goto('/activity');
  expect(await updateThroughSiteAdmin(page, product.id, { name: product.name, enabled: 'true', [USD1]: '2450' })).toBe(200);

  // Someone changes the price again in the platform's own admin (straight to the sandbox, not through site-admin).
  const later = await page.request.put(`${SANDBOX.origin}${PRODUCTS}/${product.id}`, {
    headers: { ...SANDBOX.headers, 'content-type': 'application/json' },
    data: { name: product.name, enabled: 'true', [USD1]: '2600' },
  });
  expect(later.ok()).toBe(true);
  const before = (await writesOf(page, product.id)).length;

  const details = await openUpdateEntry(page, slug);
  await details.getByRole('button', { name: 'Revert this change' }).click();
  const revert = page.getByRole('dialog', { name: /^Revert entry \d+$/ });
  await expect(revert.getByText('The product changed since this update: nothing was sent')).toBeVisible();
  await expect(revert.getByRole('table', { name: 'Changed since this update' }).getByRole('row', { name: /USD, Price/ })).toContainText(
    '$24.50$26.00',
  );
  await expect(revert.getByRole('button', { name: 'Send the revert' })).toHaveCount(0);
  expect(await writesOf(page, product.id)).toHaveLength(before);
  expect((await onSandbox(page, product.id))[USD1]).toBe('2600');
});
