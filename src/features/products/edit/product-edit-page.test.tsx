/**
 * The edit page against a stand-in platform answering through fetch (as our server would pass its answers
 * on): the states of reading a product, Review's diff and its "No changes", the read-only product, the
 * conflict view's choices after a 412, a draft whose product changed since, and a pending correction
 * whose product changed since it was asked for.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Change, NewChange } from '@/contract/approvals';
import { productFingerprint, type ProductRecord } from '@/contract/products';
import { changeFor, ruleOn } from '@/test/changes';
import { useEffect } from 'react';
import { PATHS, pathTo } from '@/lib/paths';
import { Route, Routes, useNavigate } from '@/lib/router';
import { render } from '@/test/render';
import { settingsForSite } from '../model/codec';
import { openForEdit } from '../model/open-for-edit';
import { EDIT_DRAFTS_KEY, saveEditDraft } from './edit-drafts';
import { ProductEditPage } from './product-edit-page';

const RECORD: ProductRecord = {
  id: '12',
  name: 'Linen throw',
  slug: 'linen-throw',
  enabled: 'true',
  'module_field_14/product/price/usd/1': '12900',
  attributes: [
    {
      id: '301',
      name: 'Colour',
      enabled: 'true',
      items: [
        { id: '302', name: 'Sage', enabled: 'true' },
        { id: '303', name: 'Sand', enabled: 'true' },
      ],
    },
  ],
  created_at: '1767225600',
  updated_at: '1767225600',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-platform-status': String(status) } });

/**
 * The platform as our server passes it on: the product, each PUT received, and our server's 412 when the
 * If-Match is old; and our server's approval rules (`rules`: none by default, so nothing needs approval; a
 * Response to answer with instead) and the changes asked for.
 */
function platform(
  start: unknown,
  {
    rules = [],
    stored = null,
    storedAs = {},
  }: { rules?: unknown[] | Response | null; stored?: NewChange | null; storedAs?: Partial<Change> } = {},
) {
  const state = {
    record: start,
    puts: [] as { body: string; ifMatch: string }[],
    answer: null as Response | null,
    asked: [] as NewChange[],
    edited: [] as unknown[],
    /** The text of the product as the platform answered it last. */
    text: '',
  };
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url === '/api/approval-rules') {
      // null: the rule is never answered (still being read).
      if (rules === null) return new Promise<Response>(() => undefined);
      return rules instanceof Response ? rules : json(200, rules);
    }
    if (url === '/api/changes' && init?.method === 'POST') {
      const asked = JSON.parse(String(init.body)) as NewChange;
      state.asked.push(asked);
      return json(201, changeFor(asked, 'ch-1'));
    }
    if (url === '/api/changes/ch-1' && stored && init?.method === 'PUT') {
      state.edited.push(JSON.parse(String(init.body)));
      return json(200, changeFor(stored, 'ch-1', { version: 2 }));
    }
    if (url === '/api/changes/ch-1' && stored) return json(200, changeFor(stored, 'ch-1', storedAs));
    if (state.answer) return state.answer;
    if (init?.method === 'PUT') {
      const ifMatch = String((init.headers as Record<string, string>)['if-match']);
      if (ifMatch !== (await productFingerprint(state.record))) {
        return new Response(
          JSON.stringify({ error: 'Precondition Failed', message: 'The product changed since it was read.', code: 412 }),
          {
            status: 412,
            headers: { 'content-type': 'application/json' },
          },
        );
      }
      state.puts.push({ body: String(init.body), ifMatch });
      state.record = { ...(state.record as object), ...(JSON.parse(String(init.body)) as object), updated_at: '1767312000' };
      return json(200, state.record);
    }
    expect(url).toBe('/api/site/v2/ecommerce/products/12');
    state.text = JSON.stringify(state.record);
    return json(200, state.record);
  });
  return state;
}

function open(id = '12') {
  return render(
    <Routes>
      <Route path={PATHS.catalogueProduct} element={<ProductEditPage />} />
      <Route path={PATHS.approval} element={<p>The change’s page</p>} />
      <Route path="*" element={<FromChangePage />} />
    </Routes>,
    { route: id === 'from-change' ? '/start' : `/catalogue/${id}` },
  );
}

/** Opens the product as a change's Edit does: with the change and its version in the history entry. */
function FromChangePage() {
  const navigate = useNavigate();
  useEffect(() => navigate(pathTo('catalogueProduct', { id: '12' }), { state: { change: 'ch-1', version: 1 } }), [navigate]);
  return null;
}

const toReview = async (user: ReturnType<typeof userEvent.setup>) => {
  for (let i = 0; i < 4; i += 1) await user.click(screen.getByRole('button', { name: /^Next:/ }));
  await screen.findByRole('heading', { name: 'JSON to send' }).catch(() => undefined);
};

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('reading the product', () => {
  it('says it is reading, then opens the editor filled with the product', async () => {
    platform(RECORD);
    open();
    expect(screen.getByRole('status')).toHaveTextContent('Reading product 12 from Sandbox');
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit product: Linen throw' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Linen throw');
    expect(screen.getByRole('textbox', { name: 'Slug' })).toHaveValue('linen-throw');
  });

  it('says there is no such product on this site for the platform’s 404', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(json(404, { error: 'Not Found', message: 'Product does not exist', code: 404 })));
    open();
    expect(await screen.findByRole('heading', { name: 'No such product on this site' })).toBeInTheDocument();
  });

  it('shows an answer that is not a product, raw, with why', async () => {
    platform({ name: 'No id here' });
    open();
    expect(await screen.findByText('The platform’s answer is not a product site-admin can read')).toBeInTheDocument();
    expect(screen.getByText(/Why: the product has no "id"/)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'What the platform answered' })).toHaveTextContent('{"name":"No id here"}');
  });

  it('opens a product with a field it does not know read-only: each field named with why, every control off, no Save', async () => {
    const user = userEvent.setup();
    platform({ ...RECORD, colour: 'blue' });
    open();
    expect(await screen.findByText('This product opens read-only')).toBeInTheDocument();
    expect(screen.getByText(/a field site-admin does not know: colour/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Retire/ })).toBeNull();
    await toReview(user);
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
  });
});

describe('Review of a correction', () => {
  it('says "No changes" and keeps Save off when nothing changed', async () => {
    const user = userEvent.setup();
    platform(RECORD);
    open();
    await screen.findByRole('heading', { level: 1, name: 'Edit product: Linen throw' });
    await toReview(user);
    expect(await screen.findByText('No changes')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    expect(screen.queryByRole('table', { name: 'Changes to save' })).toBeNull();
  });

  it('shows each change before → after and the exact body, and saves it with the fingerprint of the product as read', async () => {
    const user = userEvent.setup();
    const state = platform(RECORD);
    open();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Linen throw, large');
    await toReview(user);
    const table = await screen.findByRole('table', { name: 'Changes to save' });
    const row = within(table).getByRole('row', { name: /^Name/ });
    expect(row).toHaveTextContent('Linen throw');
    expect(row).toHaveTextContent('Linen throw, large');
    // The slug of a product that exists does not follow its name.
    expect(within(table).queryByRole('row', { name: /^Slug/ })).toBeNull();
    const body = { name: 'Linen throw, large', enabled: 'true' };
    expect(screen.getByRole('region', { name: 'The exact request body of the update' })).toHaveTextContent(
      JSON.stringify(body, null, 2).replace(/\s+/g, ' '),
      { normalizeWhitespace: true },
    );
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(state.puts).toEqual([{ body: JSON.stringify(body), ifMatch: await productFingerprint(RECORD) }]);
    expect(await screen.findByText('No changes')).toBeInTheDocument();
    expect(localStorage.getItem(`main:${EDIT_DRAFTS_KEY}`) ?? localStorage.getItem(EDIT_DRAFTS_KEY)).toBeNull();
  });

  it('lists a removed option as disabled and says the platform cannot delete it', async () => {
    const user = userEvent.setup();
    const state = platform(RECORD);
    open();
    await screen.findByRole('heading', { level: 1, name: 'Edit product: Linen throw' });
    for (let i = 0; i < 3; i += 1) await user.click(screen.getByRole('button', { name: /^Next:/ }));
    expect(screen.getByText(/The platform cannot delete an attribute or an option/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Expand attribute 1/ }));
    await user.click(screen.getByRole('button', { name: 'Actions for option 2' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove' }));
    await user.click(screen.getByRole('button', { name: /^Next:/ }));
    const table = await screen.findByRole('table', { name: 'Changes to save' });
    expect(within(table).getByRole('row', { name: /disabled Yes No/ })).toBeInTheDocument();
    expect(screen.getByText(/those removed in the editor are switched off/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved');
    expect(JSON.parse(state.puts[0]?.body ?? '{}')).toEqual({
      name: 'Linen throw',
      enabled: 'true',
      attributes: [{ id: '301', name: 'Colour', items: [{ id: '303', name: 'Sand', enabled: 'false' }] }],
    });
  });
});

describe('no silent overwrite', () => {
  it('on 412 shows theirs beside mine, asks for the field both changed, and saves my choice on their product', async () => {
    const user = userEvent.setup();
    const state = platform(RECORD);
    open();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Mine');
    await toReview(user);
    // Meanwhile a colleague renames it and changes the price.
    const theirs = { ...RECORD, name: 'Theirs', 'module_field_14/product/price/usd/1': '9900', updated_at: '1767300000' };
    state.record = theirs;
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('This product changed on the platform since you opened it')).toBeInTheDocument();
    expect(state.puts).toEqual([]);
    const table = screen.getByRole('table', { name: 'Their changes and yours' });
    const nameRow = within(table).getByRole('row', { name: /^Name/ });
    expect(nameRow).toHaveTextContent('changed by both');
    expect(nameRow).toHaveTextContent('Theirs');
    expect(nameRow).toHaveTextContent('Mine');
    const priceRow = within(table).getByRole('row', { name: /USD, Price/ });
    expect(within(priceRow).getByRole('radio', { name: 'Theirs' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Choose for 1 more field' })).toBeDisabled();
    await user.click(within(nameRow).getByRole('radio', { name: 'Mine' }));
    await user.click(screen.getByRole('button', { name: 'Apply my choices and review' }));
    const changes = await screen.findByRole('table', { name: 'Changes to save' });
    expect(within(changes).getAllByRole('row')).toHaveLength(3); // header, group, the name
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Saved');
    expect(state.puts).toEqual([{ body: JSON.stringify({ name: 'Mine', enabled: 'true' }), ifMatch: await productFingerprint(theirs) }]);
  });

  it('a draft whose product changed since it was saved opens the conflict view; Reload discards it', async () => {
    const user = userEvent.setup();
    const settings = settingsForSite('en-US', { currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'], decimals: 2 } as never);
    const { form } = openForEdit(RECORD, [], settings);
    saveEditDraft({
      productId: '12',
      fingerprint: await productFingerprint(RECORD),
      base: RECORD,
      step: 0,
      values: { ...form, name: 'Drafted' },
    });
    platform({ ...RECORD, name: 'Theirs', updated_at: '1767300000' });
    open();
    expect(await screen.findByText(/Your draft of it was based on the product as it was before/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Discard my changes and reload the product' }));
    expect(await screen.findByRole('textbox', { name: /^Name/ })).toHaveValue('Theirs');
  });

  it('a draft of the product as it still is opens restored', async () => {
    const settings = settingsForSite('en-US', { currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'], decimals: 2 } as never);
    const { form } = openForEdit(RECORD, [], settings);
    saveEditDraft({
      productId: '12',
      fingerprint: await productFingerprint(RECORD),
      base: RECORD,
      step: 0,
      values: { ...form, name: 'Drafted' },
    });
    platform(RECORD);
    open();
    expect(await screen.findByText('Your earlier changes to this product are restored')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Drafted'));
  });

  it('retires after a confirmation that names the product, sending only the switch with If-Match', async () => {
    const user = userEvent.setup();
    const state = platform(RECORD);
    open();
    await user.click(await screen.findByRole('button', { name: 'Retire…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire “Linen throw”?' });
    expect(dialog).toHaveTextContent('switched off on Sandbox');
    await user.click(within(dialog).getByRole('button', { name: 'Retire product' }));
    expect(await screen.findByText(/customers no longer see it. Bring it back at any time/)).toBeInTheDocument();
    expect(state.puts).toEqual([
      { body: JSON.stringify({ name: 'Linen throw', enabled: 'false' }), ifMatch: await productFingerprint(RECORD) },
    ]);
    expect(screen.getByRole('button', { name: 'Bring back…' })).toBeEnabled();
  });
});

describe('where corrections need approval', () => {
  it('Save reads "Ask for approval" and asks with the exact body Review shows, the fingerprint and the product as read; nothing is sent', async () => {
    const user = userEvent.setup();
    const state = platform(RECORD, { rules: [ruleOn('main', ['update'])] });
    open();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Linen throw, large');
    await toReview(user);
    const shown = screen.getByRole('region', { name: 'The exact request body of the update' }).textContent;
    await user.click(await screen.findByRole('button', { name: 'Ask for approval' }));
    expect(await screen.findByText('Waiting for approval')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the change' })).toHaveAttribute('href', '/approvals/ch-1');
    expect(state.asked).toEqual([
      { site: 'main', kind: 'update', product: '12', base: await productFingerprint(RECORD), before: state.text, body: shown },
    ]);
    expect(state.puts).toEqual([]);
    // Retiring is an update too: it is not offered where updates need approval.
    expect(screen.getByRole('button', { name: 'Retire…' })).toBeDisabled();
  });

  it('does not guess while the rule is read: Save waits, disabled', async () => {
    const user = userEvent.setup();
    platform(RECORD, { rules: null });
    open();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.type(name, ' 2');
    await toReview(user);
    expect(screen.getByRole('button', { name: 'Checking whether approval is needed…' })).toBeDisabled();
  });

  it('a failed read of the rule says so and sends nothing', async () => {
    const user = userEvent.setup();
    const state = platform(RECORD, {
      rules: json(503, { error: 'Service Unavailable', code: 503, message: 'The approval rules could not be read.' }),
    });
    open();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.type(name, ' 2');
    await toReview(user);
    expect(await screen.findByText('Whether this needs approval could not be read')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    expect(state.puts).toEqual([]);
  });
});

describe('its author edits a pending correction', () => {
  it('opens the stored body on the product as it was read when asked for, and asking again makes a new version', async () => {
    const user = userEvent.setup();
    const before = JSON.stringify(RECORD);
    const body = JSON.stringify({ name: 'Linen throw, large', enabled: 'true' }, null, 2);
    const stored: NewChange = { site: 'main', kind: 'update', product: '12', base: await productFingerprint(RECORD), before, body };
    // The product is as it was when the change was asked for: the new version keeps its base.
    const state = platform(RECORD, { rules: [ruleOn('main', ['update'])], stored });
    open('from-change');
    const region = await screen.findByRole('region', { name: 'The exact request body of the update' });
    expect(region.textContent).toBe(body);
    // It opens on Review; back to Basics to change the name.
    for (let step = 0; step < 4; step += 1) await user.click(screen.getByRole('button', { name: 'Back' }));
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Linen throw, large');
    await user.type(name, ' (2)');
    await toReview(user);
    const shown = screen.getByRole('region', { name: 'The exact request body of the update' }).textContent;
    await user.click(screen.getByRole('button', { name: 'Ask again (new version)' }));
    expect(await screen.findByText('The change’s page')).toBeInTheDocument();
    expect(state.edited).toEqual([{ version: 1, body: shown }]);
    expect(JSON.parse(shown ?? '{}')).toEqual({ name: 'Linen throw, large (2)', enabled: 'true' });
    expect(state.puts).toEqual([]);
  });

  it('a change returned because the product changed shows what changed beside its edits, and asks again on the product as it is now', async () => {
    const user = userEvent.setup();
    const before = JSON.stringify(RECORD);
    const body = JSON.stringify({ name: 'Linen throw, large', enabled: 'true' }, null, 2);
    const stored: NewChange = { site: 'main', kind: 'update', product: '12', base: await productFingerprint(RECORD), before, body };
    // Since it was asked for, someone renamed it and changed its price on the platform: sending it came back.
    const now = { ...RECORD, name: 'Renamed since', 'module_field_14/product/price/usd/1': '9900', updated_at: '1767300000' };
    const state = platform(now, { rules: [ruleOn('main', ['update'])], stored, storedAs: { state: 'returned' } });
    open('from-change');
    expect(await screen.findByText('This product changed on the platform since the change was asked for')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Their changes and yours' });
    const nameRow = within(table).getByRole('row', { name: /^Name/ });
    expect(nameRow).toHaveTextContent('changed by both');
    expect(nameRow).toHaveTextContent('Renamed since');
    expect(nameRow).toHaveTextContent('Linen throw, large');
    const priceRow = within(table).getByRole('row', { name: /USD, Price/ });
    expect(priceRow).toHaveTextContent('99.00');
    expect(within(priceRow).getByRole('radio', { name: 'Theirs' })).toBeChecked();
    await user.click(within(nameRow).getByRole('radio', { name: 'Mine' }));
    await user.click(screen.getByRole('button', { name: 'Apply my choices and review' }));
    // Review now diffs against the product as it is now: only the name is the change's.
    const changes = await screen.findByRole('table', { name: 'Changes to save' });
    expect(within(changes).getAllByRole('row')).toHaveLength(3); // header, group, the name
    const shown = screen.getByRole('region', { name: 'The exact request body of the update' }).textContent;
    await user.click(screen.getByRole('button', { name: 'Ask again (new version)' }));
    expect(await screen.findByText('The change’s page')).toBeInTheDocument();
    expect(JSON.parse(shown ?? '{}')).toEqual({ name: 'Linen throw, large', enabled: 'true' });
    // The new version is made on the product as read now: its text as `before`, its fingerprint as `base`.
    expect(state.edited).toEqual([{ version: 1, body: shown, base: await productFingerprint(now), before: state.text }]);
    expect(JSON.parse(state.text)).toEqual(now);
    expect(state.puts).toEqual([]);
  });
});
