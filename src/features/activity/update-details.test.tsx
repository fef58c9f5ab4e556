/**
 * An update's details and its revert against a small stand-in of our server (the record's endpoints and the
 * product's read and update; the server's own checks are tested in server/activity and server/products, and
 * the whole revert end to end, against the sandbox, in e2e/revert.spec.ts): the diff shown, the revert's
 * diff and body, what is sent and with which headers, and nothing sent when the product changed since.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, UpdateFollowUps } from '@/contract/activity';
import type { NewChange, SiteRule } from '@/contract/approvals';
import { productFingerprint } from '@/contract/products';
import { changeFor, ruleOn } from '@/test/changes';
import { render, TEST_SITE } from '@/test/render';
import { UpdateDetails } from './update-details';

const USD1 = 'module_field_14/product/price/usd/1';
const BEFORE = {
  id: '1042',
  name: 'Linen throw',
  enabled: 'true',
  [USD1]: '1999',
  updated_at: '1767225600',
  attributes: [{ id: '31', name: 'Colour', enabled: 'true', items: [{ id: '77', name: 'Sand', enabled: 'true' }] }],
};
const BODY =
  '{"name":"Linen throw","enabled":"true","module_field_14/product/price/usd/1":"2450","attributes":[{"id":"31","name":"Colour","items":[{"id":"77","name":"Sandstone"}]}]}';
/** The product as the update left it. */
const AFTER = {
  ...BEFORE,
  [USD1]: '2450',
  updated_at: '1767229200',
  attributes: [{ id: '31', name: 'Colour', enabled: 'true', items: [{ id: '77', name: 'Sandstone', enabled: 'true' }] }],
};

const answer = (status: number, body: unknown) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ENTRY: ActivityEntry = {
  seq: 5,
  at: 1_767_229_200_000,
  actor: { kind: 'person', id: 'p-ana', name: 'Ana Ruiz' },
  siteId: 'main',
  action: 'product.update',
  target: { name: 'Linen throw', slug: 'linen-throw', form: null, case: null },
  refersTo: null,
  requestId: 'r-1',
  address: '::1',
  userAgent: 'Chrome 131 on Linux',
  outcome: 'sent',
  status: null,
  durationMs: null,
  hash: 'a'.repeat(64),
  detail: { product: '1042', body: BODY, before: JSON.stringify(BEFORE) },
};

/** Our server's side: the entry, what became of it, the product now, and every update received. */
function standIn() {
  const state = {
    product: JSON.stringify(AFTER),
    followUps: {
      outcome: { seq: 6, at: ENTRY.at, actor: ENTRY.actor, outcome: 'updated' },
      reverts: [],
    } as UpdateFollowUps,
    /** The status our server answers the next PUT with (412: the product changed just before). */
    putStatus: 200,
    puts: [] as { url: string; body: string; headers: Record<string, string> }[],
    /** The site's approval rules (none: nothing needs approval), and the changes asked for. */
    rules: [] as SiteRule[],
    asked: [] as NewChange[],
  };
  const fetch = async (url: string, init: RequestInit = {}) => {
    // No approval rule on the site: a revert is sent directly.
    if (url === '/api/approval-rules') return answer(200, state.rules);
    if (url === '/api/changes' && init.method === 'POST') {
      const asked = JSON.parse(String(init.body)) as NewChange;
      state.asked.push(asked);
      return answer(201, changeFor(asked, 'ch-9'));
    }
    if (url === '/api/activity/5') return answer(200, ENTRY);
    if (url === '/api/activity/5/update') return answer(200, state.followUps);
    if (url === '/api/site/v2/ecommerce/products/1042' && (init.method ?? 'GET') === 'GET') return answer(200, state.product);
    if (url === '/api/site/v2/ecommerce/products/1042' && init.method === 'PUT') {
      state.puts.push({ url, body: String(init.body), headers: init.headers as Record<string, string> });
      if (state.putStatus !== 200) {
        return answer(state.putStatus, {
          error: 'Precondition Failed',
          code: 412,
          message: 'This product was changed on the platform since you opened it.',
        });
      }
      state.product = JSON.stringify({ ...AFTER, ...JSON.parse(String(init.body)), attributes: BEFORE.attributes });
      return answer(200, state.product);
    }
    return answer(404, { error: 'Not Found', code: 404, message: `no ${url}` });
  };
  return { state, fetch };
}

let server: ReturnType<typeof standIn>;
beforeEach(() => {
  server = standIn();
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

describe('an update’s details', { timeout: 20_000 }, () => {
  it('show the change field by field, then revert it: the revert’s diff, its body, and the update sent with the fingerprint and the entry it reverts', async () => {
    const user = userEvent.setup({ delay: null });
    render(<UpdateDetails seq={5} />);
    const changed = await screen.findByRole('table', { name: /the product before → as this update left it/ });
    const rows = within(changed).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'USD, Price$19.99$24.50changed',
      'Attribute “Colour” › Option “Sand” › Option nameSandSandstonechanged',
    ]);

    await user.click(await screen.findByRole('button', { name: 'Revert this change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revert entry 5' });
    const revert = await within(dialog).findByRole('table', { name: 'What reverting would change' });
    expect(
      within(revert)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['USD, Price$24.50$19.99changed', 'Attribute “Colour” › Option “Sandstone” › Option nameSandstoneSandchanged']);
    expect(within(dialog).getByRole('region', { name: 'What will be sent' })).toHaveTextContent(
      '"module_field_14/product/price/usd/1": "1999"',
    );
    expect(server.state.puts).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Send the revert' }));
    await within(dialog).findByText(/The product has its values from before entry 5 again/);
    expect(server.state.puts).toHaveLength(1);
    const [put] = server.state.puts;
    expect(put?.headers['if-match']).toBe(await productFingerprint(AFTER));
    expect(put?.headers['x-revert-of']).toBe('5');
    expect(JSON.parse(put?.body ?? '')).toEqual({
      name: 'Linen throw',
      enabled: 'true',
      [USD1]: '1999',
      attributes: [{ id: '31', name: 'Colour', items: [{ id: '77', name: 'Sand' }] }],
    });
  });

  it('where corrections need approval, asks for the revert with exactly the body shown, naming the entry; nothing is sent', async () => {
    const user = userEvent.setup({ delay: null });
    server.state.rules = [ruleOn(TEST_SITE.id, ['update'])];
    render(<UpdateDetails seq={5} />);
    await user.click(await screen.findByRole('button', { name: 'Revert this change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revert entry 5' });
    const shown = (await within(dialog).findByRole('region', { name: 'What will be sent' })).textContent;
    await user.click(await within(dialog).findByRole('button', { name: 'Ask for approval of the revert' }));
    expect(await within(dialog).findByText('Waiting for approval')).toBeInTheDocument();
    expect(server.state.asked).toEqual([
      {
        site: TEST_SITE.id,
        kind: 'update',
        product: '1042',
        base: await productFingerprint(AFTER),
        before: server.state.product,
        body: shown,
        revertOf: 5,
      },
    ]);
    expect(server.state.puts).toHaveLength(0);
  });

  it('sends nothing when the product changed since the update, and shows what changed', async () => {
    const user = userEvent.setup({ delay: null });
    server.state.product = JSON.stringify({ ...AFTER, [USD1]: '2600' });
    render(<UpdateDetails seq={5} />);
    await user.click(await screen.findByRole('button', { name: 'Revert this change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revert entry 5' });
    await within(dialog).findByText('The product changed since this update: nothing was sent');
    const since = within(dialog).getByRole('table', { name: 'Changed since this update' });
    expect(
      within(since)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['USD, Price$24.50$26.00']);
    expect(within(dialog).queryByRole('button', { name: 'Send the revert' })).toBeNull();
    expect(server.state.puts).toHaveLength(0);
  });

  it('says so when our server refuses the revert because the product changed just before it was sent (412)', async () => {
    const user = userEvent.setup({ delay: null });
    server.state.putStatus = 412;
    render(<UpdateDetails seq={5} />);
    await user.click(await screen.findByRole('button', { name: 'Revert this change' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revert entry 5' });
    await user.click(await within(dialog).findByRole('button', { name: 'Send the revert' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not sent: the product changed just now');
    expect(within(dialog).getByRole('button', { name: 'Read the product again' })).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Send the revert' })).toBeNull();
  });

  it('names the revert that undid it, and then offers none', async () => {
    server.state.followUps = {
      outcome: server.state.followUps.outcome,
      reverts: [
        {
          update: { seq: 9, at: ENTRY.at + 60_000, actor: { kind: 'person', id: 'p-ben', name: 'Ben Okafor' }, outcome: 'sent' },
          outcome: { seq: 10, at: ENTRY.at + 60_000, actor: { kind: 'person', id: 'p-ben', name: 'Ben Okafor' }, outcome: 'updated' },
        },
      ],
    };
    render(<UpdateDetails seq={5} />);
    expect(await screen.findByText(/Reverted by entry 9 \(Ben Okafor,/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Revert this change' })).toBeNull();
  });

  it('offers no revert of an update the platform did not make, nor to someone who may not update products there', async () => {
    server.state.followUps = { outcome: { ...server.state.followUps.outcome!, outcome: 'rejected' }, reverts: [] };
    const { unmount } = render(<UpdateDetails seq={5} />);
    await screen.findByRole('table', { name: /as this update left it/ });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revert this change' })).toBeNull());
    unmount();

    server.state.followUps = { outcome: { ...server.state.followUps.outcome!, outcome: 'updated' }, reverts: [] };
    render(<UpdateDetails seq={5} />, { site: { ...TEST_SITE, can: ['lookup'] } });
    await screen.findByRole('table', { name: /as this update left it/ });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Revert this change' })).toBeNull());
  });
});
